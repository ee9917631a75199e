"""The score calculator page: score one game without logging in or storing it.

Vocabulary: a *row* is one player's line on the calculator (a label and the
rack: tiles, or points and jokers). A row left wholly blank is not a player;
a row with a label and nothing else is an emptied rack. The page calls the
rules engine directly (``scoring.rules.game_score``) and shows its refusals
with the same messages the API's calculator gives.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import rules
from scoring.errors import UserError
from scoring.forms import rack_fields_add

ROWS = 4


class CalculatorForm(forms.Form):
    ending = forms.ChoiceField(
        label=_("How did the game end?"),
        choices=[
            ("rummikub", _("Rummikub (a rack emptied)")),
            ("pool_exhausted", _("pool exhausted")),
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
        choices=[("share", _("joint winners share")), ("fewest_tiles", _("fewest tiles wins"))],
        initial="share",
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
        racks = []
        self.used = []
        # Every row up to the number of players is a rack, a blank one the
        # winner's empty rack; rows past it are not played.
        for i in range(1, (self.cleaned_data.get("players") or ROWS) + 1):
            name = (self.cleaned_data.get(f"p{i}_name") or "").strip()
            tiles = self.cleaned_data.get(f"p{i}_tiles") or None
            points = self.cleaned_data.get(f"p{i}_points")
            jokers = self.cleaned_data.get(f"p{i}_jokers")
            if tiles is None and points is None and jokers is None:
                tiles = ""
            self.used.append(i)
            racks.append(
                rules.RackIn(
                    player=name or gettext("Player %(number)s") % {"number": i},
                    tiles=tiles,
                    points=points,
                    jokers=jokers,
                )
            )
        return racks

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
