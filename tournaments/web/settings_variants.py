"""The settings form's inputs for event variants, stages and the hall.

Vocabulary: *scoring variants* change what a game gives (a *loss cap* on each
non-winner's minus, a *winner's bonus* and a *runner-up's bonus* paid on top of
the zero-sum score); *stages* say how the semi-finals and the final are played
(their games, a final *first to N wins*, the points *carried over* into a
stage, who reaches the final); *the hall* holds the turn timer's seconds and
the round's time limit. An empty loss cap means none; an empty stage game
count means the round's usual games per round. The bounds are the rules
engine's, shown to the browser and checked here so that several bad inputs
are refused at once; the tournament services stay the authority.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import rules
from tournaments.models import Tournament

VARIANT_FIELDS = ("loss_cap", "winner_bonus", "runner_up_bonus")
STAGE_FIELDS = (
    "semifinal_players",
    "semifinal_games",
    "final_games",
    "final_first_to",
    "carry_over",
    "final_from",
)
HALL_FIELDS = ("turn_seconds", "round_minutes")


def _number(low: int, high: int) -> forms.NumberInput:
    return forms.NumberInput(
        attrs={"class": "num", "inputmode": "numeric", "min": low, "max": high}
    )


def _bounded(low: int, high: int, **kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(min_value=low, max_value=high, widget=_number(low, high), **kwargs)


class VariantFields(forms.Form):
    """Event variants, stages and the hall; the settings form inherits them."""

    loss_cap = _bounded(
        1,
        rules.LOSS_CAP_MAX,
        label=_("Loss cap"),
        required=False,
        help_text=_(
            "The most a player can lose in one game (e.g. 25); the winner gains the capped "
            "losses. Empty for no cap."
        ),
    )
    winner_bonus = _bounded(
        0,
        rules.BONUS_MAX,
        label=_("Winner's bonus"),
        help_text=_(
            "Points paid to a game's winner on top of the score (e.g. 50); joint winners "
            "share them. 0 for none."
        ),
    )
    runner_up_bonus = _bounded(
        0,
        rules.BONUS_MAX,
        label=_("Runner-up's bonus"),
        help_text=_(
            "Points paid to the player with the lowest rack among those who did not win "
            "(e.g. 5). 0 for none."
        ),
    )

    semifinal_players = _bounded(
        0,
        rules.SEMIFINAL_PLAYERS_MAX,
        label=_("Players in the semi-finals"),
        help_text=_("0 for none; otherwise the best of the qualifying, in tables of 4."),
    )
    semifinal_games = _bounded(
        rules.GAMES_PER_ROUND_MIN,
        rules.GAMES_PER_ROUND_MAX,
        label=_("Games in the semi-finals"),
        required=False,
        help_text=_("Empty: as many as a qualifying round."),
    )
    final_games = _bounded(
        rules.GAMES_PER_ROUND_MIN,
        rules.GAMES_PER_ROUND_MAX,
        label=_("Games in the final"),
        required=False,
        help_text=_("Empty: as many as a qualifying round."),
    )
    final_first_to = _bounded(
        0,
        rules.FINAL_FIRST_TO_MAX,
        label=_("Final: first to N wins"),
        help_text=_(
            "N: the final ends as soon as a player has won N games, and is ranked by its "
            "wins. 0: the final plays its games."
        ),
    )
    carry_over = forms.ChoiceField(
        label=_("Points carried over"),
        choices=Tournament.CarryOver.choices,
        help_text=_("What share of their points before a stage the players take into it."),
    )
    final_from = forms.ChoiceField(
        label=_("Who reaches the final"),
        choices=[  # short for a phone's dropdown; the help text explains them
            (Tournament.FinalFrom.SEMIFINAL_WINNERS, _("semi-final table winners first")),
            (Tournament.FinalFrom.STAGE_POINTS, _("best by semi-final points")),
        ],
        help_text=_("After semi-finals: their table winners first, or the best by their points."),
    )

    turn_seconds = forms.TypedChoiceField(
        label=_("Seconds per turn"),
        coerce=int,
        choices=[(n, str(n)) for n in rules.TURN_SECONDS_CHOICES],
        help_text=_("The turn timer's time."),
    )
    round_minutes = _bounded(
        0,
        rules.ROUND_MINUTES_MAX,
        label=_("Minutes per round"),
        help_text=_(
            "The round's time limit, shown on the round clock; games still running when it "
            "ends are scored as time up. 0 for none."
        ),
    )
