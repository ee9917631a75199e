"""Web forms: what a scorer or an organiser types, turned into service arguments.

Vocabulary: a *rack row* is one seated player's rack fields on the game form
(tiles, points, jokers), named ``p<position>_tiles`` and so on after the seat
position; ``calculator.web`` makes the fields and reads them into a
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
from decimal import Decimal, InvalidOperation
from typing import Any, cast

from django import forms
from django.forms.boundfield import BoundField
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from calculator.web import rack_cleaned, rack_fields_add, rack_initial
from scoring import rules
from scoring.errors import UserError
from tournaments.models import Adjustment, Game, Player, Seat


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

    # The number the page shows ("Record game 2"): a second phone that posts
    # the same number is told that game is taken instead of storing game 3.
    # A bound, so a tampered number is "not understood" rather than echoed back.
    # Past the plan's last game the service says which games the table plays.
    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=9999)

    def __init__(
        self, *args: Any, seats: Sequence[Seat], number: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        if "number" in self.fields and number is not None:
            self.fields["number"].initial = number
        for seat in self.seats:
            rack_fields_add(self, prefix=f"p{seat.position}")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # A hidden field's error would show nowhere: say it above the form.
        # (``errors`` is the dict being filled here: reading it cleans nothing again.)
        if "number" in self.fields and "number" in self.errors:
            del self.errors["number"]
            self.add_error(
                None, gettext("The game number was not understood; reload the page and try again.")
            )
        return cleaned

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
        if field is not None and self.fields[field].widget.is_hidden:
            field = None  # shown above the form, as nothing shows a hidden input
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

    # Django drops an inherited field set to None; the stubs know no such idiom.
    number = None  # type: ignore[assignment]  # the game corrected is ``game``
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
        help_text=_(
            "A number above 0, without a sign: a penalty takes these points away, "
            "a bonus adds them."
        ),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "class": "num"}),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player_field = cast(forms.TypedChoiceField, self.fields["player"])
        player_field.choices = [("", "—"), *((p.pk, p.name) for p in players)]

    def clean_points(self) -> Decimal | str:
        """The points with the sign the kind gives them (a penalty's are negative).

        The organiser types how many points, never a sign; what is not a
        number at all goes to the service as typed, which says what is wrong.
        """
        text: str = self.cleaned_data["points"].strip().replace(",", ".")
        try:
            value = Decimal(text)
        except InvalidOperation:
            return text
        if not value.is_finite():
            return text
        if value <= 0:
            raise forms.ValidationError(
                gettext(
                    "Type a number above 0, without a sign: choosing penalty or bonus "
                    "sets the sign."
                ),
                code="not_positive",
            )
        kind = self.cleaned_data.get("kind")
        return -value if kind == Adjustment.Kind.PENALTY else value

    def user_error_add(self, error: UserError) -> None:
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.render(gettext))


class SwapForm(forms.Form):
    """Two players seated in the last round, to change places before play."""

    player_a = forms.TypedChoiceField(label=_("Player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("changes places with"), coerce=int)

    def __init__(self, *args: Any, tables: Sequence[Sequence[Seat]], **kwargs: Any) -> None:
        """``tables``: the round's seats, table by table (table 1 first), in seat order."""
        super().__init__(*args, **kwargs)
        self.tables = [list(table) for table in tables]
        self.table_of = {s.player_id: n for n, t in enumerate(self.tables, start=1) for s in t}
        self.names = {s.player_id: s.player.name for t in self.tables for s in t}
        choices = [("", "—")] + [
            (
                s.player_id,
                gettext("%(player)s (table %(table)s)") % {"player": s.player.name, "table": n},
            )
            for n, table in enumerate(self.tables, start=1)
            for s in table
        ]
        for name in ("player_a", "player_b"):
            cast(forms.TypedChoiceField, self.fields[name]).choices = choices

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        a, b = cleaned.get("player_a"), cleaned.get("player_b")
        if a is not None and b is not None:
            if a == b:
                self.add_error("player_b", gettext("Choose two different players."))
            elif self.table_of[a] == self.table_of[b]:
                self.add_error(
                    "player_b",
                    gettext("Both sit at table %(table)s: choose players at different tables.")
                    % {"table": self.table_of[a]},
                )
        return cleaned

    def tables_swapped(self) -> list[list[int]]:
        """The round's tables (player ids in seat order) with the two players swapped;
        call after ``is_valid()``."""
        a, b = self.cleaned_data["player_a"], self.cleaned_data["player_b"]
        other = {a: b, b: a}
        return [[other.get(s.player_id, s.player_id) for s in table] for table in self.tables]

    def user_error_add(self, error: UserError) -> None:
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.render(gettext))
