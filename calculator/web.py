"""The score calculator page, and the rack inputs every game form shares.

Vocabulary:

* *rack fields* are one player's three inputs, ``<prefix>_tiles``,
  ``<prefix>_points`` and ``<prefix>_jokers``: a tile list, or points and
  jokers summed by hand. They check types only; what a rack may be is the
  rules engine's call, so a page refuses exactly what the API refuses, with
  the same messages. The calculator and the match page both use them.
* a *row* is one player's line on the calculator (a label and the rack
  fields). Every row up to the number of players at the table is a rack; a
  blank one is an emptied rack (``rules.rack_entered`` reads it so). Rows past
  the number of players are not played.

The calculator scores one game without logging in or storing anything: it
calls ``scoring.rules.game_score`` directly.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import rules
from scoring.errors import UserError

ROWS = 4


# --------------------------------------------------------------------------- rack fields


def count_input(label: str) -> forms.IntegerField:
    # No min/max here: the engine refuses a negative or impossible count
    # itself. The browser's min is only a hint.
    return forms.IntegerField(
        label=label,
        required=False,
        widget=forms.NumberInput(attrs={"min": 0, "inputmode": "numeric", "class": "num"}),
    )


def rack_fields_add(form: forms.Form, *, prefix: str) -> None:
    """Add ``<prefix>_tiles``, ``<prefix>_points`` and ``<prefix>_jokers``."""
    form.fields[f"{prefix}_tiles"] = forms.CharField(
        label=_("Tiles left"),
        required=False,
        max_length=400,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "class": "tiles",
            }
        ),
    )
    form.fields[f"{prefix}_points"] = count_input(gettext("Points"))
    form.fields[f"{prefix}_jokers"] = count_input(gettext("Jokers"))


def rack_cleaned(form: forms.Form, *, prefix: str, player: Hashable) -> rules.RackIn:
    """The rack typed in a valid form's rack fields (a blank row: an emptied rack)."""
    data = form.cleaned_data
    return rules.rack_entered(
        player=player,
        tiles=data.get(f"{prefix}_tiles") or "",
        points=data.get(f"{prefix}_points"),
        jokers=data.get(f"{prefix}_jokers"),
    )


def rack_initial(rack: rules.RackIn, *, prefix: str) -> dict[str, Any]:
    """A rack as the rack fields' initial data: its tiles, or its points and jokers."""
    if rack.tiles is not None:
        return {f"{prefix}_tiles": rack.tiles}
    return {f"{prefix}_points": rack.points, f"{prefix}_jokers": rack.jokers}


# --------------------------------------------------------------------------- calculator


class CalculatorForm(forms.Form):
    ending = forms.ChoiceField(
        label=_("How did the game end?"),
        choices=[
            ("rummikub", _("Rummikub (a rack emptied)")),
            ("pool_exhausted", _("pool exhausted")),
            ("time_up", _("time up")),
        ],
        initial="rummikub",
        widget=forms.RadioSelect,
    )
    players = forms.TypedChoiceField(
        label=_("Players at the table"),
        choices=[(n, str(n)) for n in range(2, ROWS + 1)],
        coerce=int,
        initial=ROWS,
        # An old bookmark without it scores all four rows.
        required=False,
        empty_value=None,
    )
    joker_penalty = forms.IntegerField(
        label=_("Joker penalty"),
        initial=rules.DEFAULT_RULES.joker_penalty,
        widget=forms.NumberInput(attrs={"min": 0, "inputmode": "numeric", "class": "num"}),
    )
    pool_tie = forms.ChoiceField(
        label=_("Tie for the lowest rack"),
        choices=[
            ("share", _("joint winners share")),
            ("fewest_tiles", _("fewest tiles wins")),
            ("draw", _("a draw: they share the points, nobody wins")),
        ],
        initial="share",
    )
    # The event variants; empty or 0 is the rulebook's scoring.
    loss_cap = forms.IntegerField(
        label=_("loss cap"),
        required=False,
        help_text=_("The most a player can lose in one game; empty for no cap."),
        widget=forms.NumberInput(attrs={"min": 1, "inputmode": "numeric", "class": "num"}),
    )
    winner_bonus = forms.IntegerField(
        label=_("winner's bonus"),
        initial=0,
        required=False,
        widget=forms.NumberInput(attrs={"min": 0, "inputmode": "numeric", "class": "num"}),
    )
    runner_up_bonus = forms.IntegerField(
        label=_("runner-up's bonus"),
        initial=0,
        required=False,
        widget=forms.NumberInput(attrs={"min": 0, "inputmode": "numeric", "class": "num"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, ROWS + 1):
            self.fields[f"p{i}_name"] = forms.CharField(
                label=_("Player"),
                required=False,
                max_length=60,
                widget=forms.TextInput(
                    attrs={"placeholder": gettext("Player %(number)s") % {"number": i}}
                ),
            )
            rack_fields_add(self, prefix=f"p{i}")
        self.used: list[int] = []  # the row numbers that became racks, in order

    @property
    def rows(self) -> list[dict[str, Any]]:
        out = []
        for i in range(1, ROWS + 1):
            bound = {k: self[f"p{i}_{k}"] for k in ("name", "tiles", "points", "jokers")}
            errors = [e for b in bound.values() for e in b.errors]
            out.append({"number": i, **bound, "errors": errors})
        return out

    def racks(self) -> list[rules.RackIn]:
        """The played rows as racks; call after ``is_valid()``."""
        self.used = list(range(1, (self.cleaned_data.get("players") or ROWS) + 1))
        return [
            rack_cleaned(
                self,
                prefix=f"p{i}",
                player=(self.cleaned_data.get(f"p{i}_name") or "").strip()
                or gettext("Player %(number)s") % {"number": i},
            )
            for i in self.used
        ]

    def user_error_add(self, error: UserError) -> None:
        rack = error.params.get("rack")
        if error.field == "racks" and isinstance(rack, int) and 1 <= rack <= len(self.used):
            field: str | None = f"p{self.used[rack - 1]}_tiles"
        else:
            field = error.field if error.field in self.fields else None
        self.add_error(field, error.render(gettext))


def calculator(request: HttpRequest) -> HttpResponse:
    """Score one game from the query string (GET), so a result can be bookmarked."""
    form = CalculatorForm(request.GET if "ending" in request.GET else None)
    result: rules.GameOut | None = None
    rows: list[dict[str, Any]] = []
    if form.is_bound and form.is_valid():
        try:
            game_rules = rules.Rules(
                joker_penalty=form.cleaned_data["joker_penalty"],
                pool_tie=form.cleaned_data["pool_tie"],
                loss_cap=form.cleaned_data["loss_cap"],
                winner_bonus=form.cleaned_data["winner_bonus"] or 0,
                runner_up_bonus=form.cleaned_data["runner_up_bonus"] or 0,
            )
            result = rules.game_score(
                ending=form.cleaned_data["ending"], racks=form.racks(), rules=game_rules
            )
        except UserError as error:
            form.user_error_add(error)
        else:
            rows = [
                {
                    "player": r.player,
                    "rack_value": r.rack_value,
                    "score": r.score,
                    "bonus": r.bonus,
                    "total": r.score + r.bonus,
                    "winner": r.winner,
                }
                for r in result.racks
            ]
    return render(
        request,
        "scoring/calculator.html",
        {"form": form, "result": result, "rows": rows},
        status=400 if form.is_bound and form.errors else 200,
    )
