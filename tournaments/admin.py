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
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.errors import UserError

from .models import (
    Adjustment,
    Club,
    Entry,
    Game,
    GameRevision,
    Match,
    Player,
    Round,
    Seat,
    Tournament,
)
from .services import games as services

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


class GameForm(forms.ModelForm[Game]):
    """A game as the scorer writes it: per seat, tiles or points + jokers."""

    class Meta:
        model = Game
        fields = ["match", "ending"]

    # Declared on the class (not in __init__) so that the admin's fieldsets
    # can place them: one line of four fields per seat.
    for _seat in SEATS:
        locals()[f"player_{_seat}"] = forms.ModelChoiceField(
            Player.objects.all(), required=False, label=_("player")
        )
        locals()[f"tiles_{_seat}"] = forms.CharField(
            required=False, label=_("tiles"), widget=forms.TextInput(attrs={"size": 40})
        )
        locals()[f"points_{_seat}"] = forms.IntegerField(required=False, label=_("or points"))
        locals()[f"jokers_{_seat}"] = forms.IntegerField(required=False, label=_("jokers"))
    del _seat

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        racks = {r.position: r for r in self.instance.racks.all()} if self.instance.pk else {}
        for seat, rack in racks.items():
            as_points = not rack.entered_as_tiles
            self.initial.update(
                {
                    f"player_{seat}": rack.player_id,
                    f"tiles_{seat}": "" if as_points else rack.tiles,
                    f"points_{seat}": rack.points if as_points else None,
                    f"jokers_{seat}": rack.jokers if as_points else None,
                }
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
    readonly_fields = ["number", "version", "scores"]

    def get_fieldsets(self, request: HttpRequest, obj: Game | None = None) -> Any:
        seats = [
            (
                gettext("Seat %(n)s") % {"n": seat},
                {
                    "fields": [
                        (f"player_{seat}", f"tiles_{seat}", f"points_{seat}", f"jokers_{seat}")
                    ],
                    "description": gettext(
                        "Leave the winner's tiles empty, or give points and jokers instead."
                    ),
                },
            )
            for seat in SEATS
        ]
        head = ["match", "ending", "number", "version"] + (["scores"] if obj else [])
        return [(None, {"fields": head}), *seats]

    @admin.display(description=_("scores"))
    def scores(self, obj: Game) -> str:
        # Shown, never edited: scores are computed by the rules engine.
        return format_html_join(
            mark_safe("<br>"),
            "{}. {}: {} {} → {}",
            (
                (
                    r.position,
                    r.player.name,
                    r.tiles or "–",
                    gettext("(rack %(value)s)") % {"value": r.rack_value},
                    f"{r.score:+}",
                )
                for r in obj.racks.select_related("player").order_by("position")
            ),
        )

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
