"""The admin of rounds, matches and games.

Rounds, their matches and seats are made by the seating services and are
read-only here. A game is written whole through the game services: the form
collects one line per seat (tiles, or points + jokers) and the services
compute the scores, so the admin cannot store a game the rules engine would
refuse. The audit trail (a game's history among it) is read-only.
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

from scoring import rules
from tournaments.admin.kit import ReadOnlyAdmin, ReadOnlyInline, ServiceAdmin, ServiceForm
from tournaments.models import AuditEvent, Game, Match, Player, Round, Seat
from tournaments.racks_entered import game_racks_entered
from tournaments.services import games

SEATS = range(1, 5)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin[Round]):
    list_display = ["tournament", "number", "stage", "games_per_match"]
    list_filter = ["tournament", "stage"]


class SeatInline(ReadOnlyInline):
    """Seats are made by the seating services with their round."""

    model = Seat
    fields = readonly_fields = ("position", "player")


class GameInline(ReadOnlyInline):
    """A match's games; each links to the game form, which records and corrects
    through the services."""

    model = Game
    fields = readonly_fields = ("number", "ending", "version", "updated")
    show_change_link = True


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin[Match]):
    list_display = ["round", "table", "token"]
    list_filter = ["round__tournament"]
    list_select_related = ["round__tournament"]
    inlines = [SeatInline, GameInline]


class GameForm(ServiceForm):
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
        if self.instance.pk:
            entered = game_racks_entered(racks=self.instance.racks.all())
            for seat, rack in enumerate(entered, start=1):
                self.initial.update(
                    {
                        f"player_{seat}": rack.player,
                        f"tiles_{seat}": rack.tiles or "",
                        f"points_{seat}": rack.points,
                        f"jokers_{seat}": rack.jokers,
                    }
                )

    def changes(self) -> dict[str, Any]:
        # A game is written whole: its ending and every rack.
        data = self.cleaned_data
        racks = [
            rules.rack_entered(
                player=data[f"player_{seat}"].pk,
                tiles=data.get(f"tiles_{seat}"),
                points=data.get(f"points_{seat}"),
                jokers=data.get(f"jokers_{seat}"),
            )
            for seat in SEATS
            if data.get(f"player_{seat}") is not None
        ]
        return {"match": data.get("match"), "ending": data.get("ending"), "racks": racks}


@admin.register(Game)
class GameAdmin(ServiceAdmin[Game]):
    form = GameForm
    list_display = ["__str__", "ending", "version", "updated"]
    list_filter = ["match__round__tournament", "ending"]
    list_select_related = ["match__round__tournament"]
    raw_id_fields = ["match"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A correction keeps the game at its match.
        return ["number", "version", "scores"] + (["match"] if obj is not None else [])

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

    def write(self, request: HttpRequest, obj: Game | None, data: dict[str, Any]) -> Game:
        if obj is not None:
            return games.game_correct(
                game=obj, ending=data["ending"], racks=data["racks"], user=request.user
            )
        return games.game_record(
            match=data["match"], ending=data["ending"], racks=data["racks"], user=request.user
        )

    def remove(self, request: HttpRequest, obj: Game) -> None:
        games.game_delete(game=obj, user=request.user)


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin[AuditEvent]):
    """The audit trail is written by the services only; here it is read."""

    list_display = ["at", "tournament", "action", "username", "by_link", "table", "game_number"]
    list_filter = ["action", "tournament"]
    list_select_related = ["tournament"]
