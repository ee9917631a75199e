"""The Django admin for every model.

Games are never saved directly: the game form collects one line per seat and
hands it to ``services.game_record`` / ``game_correct``, so the admin cannot
store a game the rules engine would refuse.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.errors import UserError

from . import services
from .models import (
    Adjustment,
    Club,
    Entry,
    Game,
    GameRevision,
    Match,
    Player,
    Rack,
    Round,
    Seat,
    Tournament,
)

SEATS = range(1, 5)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "club"]
    list_filter = ["club"]
    search_fields = ["name"]
    list_select_related = ["club"]


class EntryInline(admin.TabularInline[Entry, Tournament]):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ["name", "date", "club", "status", "seating", "ranking", "public"]
    list_filter = ["status", "seating", "ranking", "public", "club"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    list_select_related = ["club"]
    inlines = [EntryInline]


class SeatInline(admin.TabularInline[Seat, Match]):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]
    exclude = ["round"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ["tournament", "number", "stage", "games_per_match"]
    list_filter = ["tournament", "stage"]


class GameInline(admin.TabularInline[Game, Match]):
    """A match's games, read-only here: each links to the game form, which
    records and corrects through the services."""

    model = Game
    extra = 0
    fields = ("number", "ending", "version", "updated")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["round", "table", "token"]
    list_filter = ["round__tournament"]
    list_select_related = ["round__tournament"]
    readonly_fields = ["token"]
    inlines = [SeatInline, GameInline]


class RackInline(admin.TabularInline[Rack, Game]):
    model = Rack
    extra = 0
    can_delete = False
    fields = ("position", "player", "tiles", "points", "jokers", "rack_value", "score", "winner")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class GameForm(forms.ModelForm[Game]):
    """A game as the scorer writes it: per seat, tiles or points + jokers."""

    class Meta:
        model = Game
        fields = ["match", "ending"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        racks = {r.position: r for r in self.instance.racks.all()} if self.instance.pk else {}
        for seat in SEATS:
            rack = racks.get(seat)
            self.fields[f"player_{seat}"] = forms.ModelChoiceField(
                Player.objects.all(),
                required=False,
                label=_("Seat %(n)s player") % {"n": seat},
                initial=rack.player_id if rack else None,
            )
            self.fields[f"tiles_{seat}"] = forms.CharField(
                required=False,
                label=_("tiles"),
                initial=rack.tiles if rack and rack.entered_as_tiles else "",
            )
            self.fields[f"points_{seat}"] = forms.IntegerField(
                required=False,
                label=_("or points"),
                initial=rack.points if rack and not rack.entered_as_tiles else None,
            )
            self.fields[f"jokers_{seat}"] = forms.IntegerField(
                required=False,
                label=_("jokers"),
                initial=rack.jokers if rack and not rack.entered_as_tiles else None,
            )

    def rack_entries(self) -> list[services.RackEntry]:
        data = self.cleaned_data
        entries = []
        for seat in SEATS:
            player = data.get(f"player_{seat}")
            if player is None:
                continue
            tiles = data.get(f"tiles_{seat}") or None
            points = data.get(f"points_{seat}")
            jokers = data.get(f"jokers_{seat}")
            if tiles is None and points is None and jokers is None:
                tiles = ""
            entries.append(
                services.RackEntry(player=player.pk, tiles=tiles, points=points, jokers=jokers)
            )
        return entries

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        match, ending = data.get("match"), data.get("ending")
        if match is not None and ending:
            try:
                services.game_compute(match=match, ending=ending, racks=self.rack_entries())
            except UserError as error:
                raise forms.ValidationError(error.render(gettext)) from error
        return data


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    form = GameForm
    list_display = ["__str__", "ending", "version", "updated"]
    list_filter = ["match__round__tournament", "ending"]
    list_select_related = ["match__round__tournament"]
    raw_id_fields = ["match"]
    inlines = [RackInline]
    readonly_fields = ["number", "version"]

    def get_inlines(self, request: HttpRequest, obj: Game | None) -> Any:
        # A new game has no racks to show yet.
        return self.inlines if obj is not None else []

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        racks = form.rack_entries()
        if change:
            saved = services.game_correct(
                game=obj, ending=obj.ending, racks=racks, user=request.user
            )
        else:
            saved = services.game_record(
                match=obj.match, ending=obj.ending, racks=racks, user=request.user
            )
        obj.pk, obj.number, obj.version = saved.pk, saved.number, saved.version

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # The racks were written by the service; the inline is read-only.
        return None

    def delete_model(self, request: HttpRequest, obj: Game) -> None:
        services.game_delete(game=obj, user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for game in queryset:
            services.game_delete(game=game, user=request.user)


@admin.register(Adjustment)
class AdjustmentAdmin(admin.ModelAdmin[Adjustment]):
    list_display = ["tournament", "player", "kind", "points", "reason", "created"]
    list_filter = ["tournament", "kind"]
    raw_id_fields = ["player"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ["tournament", "player", "status"]
    list_filter = ["tournament", "status"]
    raw_id_fields = ["player"]


@admin.register(GameRevision)
class GameRevisionAdmin(admin.ModelAdmin[GameRevision]):
    list_display = ["match", "game_number", "version", "action", "user", "at"]
    list_filter = ["action"]
    readonly_fields = [f.name for f in GameRevision._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
