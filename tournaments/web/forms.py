"""Web forms: what a scorer or an organiser types, turned into service arguments.

Vocabulary: a *rack row* is one seated player's rack fields on the game form
(tiles, points, jokers), named ``p<position>_tiles`` and so on after the seat
position; ``scoring.web`` makes the fields and reads them into a
``rules.RackIn`` whose player is the player's id. A row left blank is an
emptied rack (the winner's, usually): the rules engine, not the form, decides
whether that is allowed, so the web page refuses exactly what the API
refuses, with the same messages.

Forms validate only the *shape* of the input (a number is a number); every
rule of the game is checked by ``scoring.rules`` through the services, and a
``UserError`` they raise is put back on the form with ``user_error_add``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.forms.boundfield import BoundField
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import rules
from scoring.errors import UserError
from scoring.web import rack_cleaned, rack_fields_add, rack_initial

from ..models import Adjustment, Game, Player, Seat


@dataclass
class RackRow:
    """The inputs of one seated player, for the template."""

    position: int
    name: str
    tiles: BoundField
    points: BoundField
    jokers: BoundField

    @property
    def errors(self) -> list[str]:
        return [*self.tiles.errors, *self.points.errors, *self.jokers.errors]


class GameForm(forms.Form):
    """One game of a match: how it ended and every seated player's rack."""

    ending = forms.ChoiceField(
        label=_("How did the game end?"),
        choices=Game.Ending.choices,
        initial=Game.Ending.RUMMIKUB,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, seats: Sequence[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        for seat in self.seats:
            rack_fields_add(self, prefix=f"p{seat.position}")

    @property
    def rows(self) -> list[RackRow]:
        return [
            RackRow(
                position=s.position,
                name=s.player.name,
                tiles=self[f"p{s.position}_tiles"],
                points=self[f"p{s.position}_points"],
                jokers=self[f"p{s.position}_jokers"],
            )
            for s in self.seats
        ]

    def racks(self) -> list[rules.RackIn]:
        """The racks typed, in seat order; call after ``is_valid()``."""
        return [
            rack_cleaned(self, prefix=f"p{seat.position}", player=seat.player_id)
            for seat in self.seats
        ]

    def user_error_add(self, error: UserError) -> None:
        """Show a refusal next to the input it concerns."""
        rack = error.params.get("rack")
        field: str | None
        if error.field == "racks" and isinstance(rack, int) and 1 <= rack <= len(self.seats):
            # The engine numbers racks in the order given, which is seat order.
            field = f"p{self.seats[rack - 1].position}_tiles"
        else:
            field = error.field if error.field in self.fields else None
        self.add_error(field, error.render(gettext))

    @staticmethod
    def racks_initial(*, seats: Sequence[Seat], racks: Sequence[rules.RackIn]) -> dict[str, Any]:
        """Racks entered (player = player id) as the rack rows' initial data."""
        positions: dict[Hashable, int] = {s.player_id: s.position for s in seats}
        initial: dict[str, Any] = {}
        for rack in racks:
            position = positions.get(rack.player)
            if position is not None:
                initial.update(rack_initial(rack, prefix=f"p{position}"))
        return initial


class GameCorrectForm(GameForm):
    """A correction of a recorded game; ``version`` catches a stale page."""

    game = forms.IntegerField(widget=forms.HiddenInput)
    version = forms.IntegerField(widget=forms.HiddenInput)


class AdjustmentForm(forms.Form):
    """An organiser's penalty or bonus for one entered player."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[
            (Adjustment.Kind.PENALTY, capfirst(Adjustment.Kind.PENALTY.label)),
            (Adjustment.Kind.BONUS, capfirst(Adjustment.Kind.BONUS.label)),
        ],
    )
    # Text, not a number field: the service checks the value and says what is wrong.
    points = forms.CharField(
        label=_("Points"),
        max_length=20,
        help_text=_("Negative for a penalty, positive for a bonus."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "class": "num"}),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *((p.pk, p.name) for p in players)]  # type: ignore[attr-defined]

    def user_error_add(self, error: UserError) -> None:
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.render(gettext))


class EntriesAddForm(forms.Form):
    """Register existing players in a tournament."""

    players = forms.TypedMultipleChoiceField(label=_("Players"), coerce=int)

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(p.pk, p.name) for p in players]  # type: ignore[attr-defined]
