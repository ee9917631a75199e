"""The bounds of a tournament's numeric settings, said in words.

Vocabulary: a *plan bound* is ``(lowest, highest, message)`` for one setting
(the plan, event variants, stages, the hall); the message takes ``value``,
``min`` and ``max``. The numbers are the rules engine's (``scoring.rules``),
never written here. ``None`` (no loss cap, a stage's usual games) is never out
of range. The services check these before the model's constraints would, whose
messages name only the constraint; the settings form shows them to the
browser.
"""

from __future__ import annotations

from scoring import rules
from scoring.errors import _

# Rendered by the model as constraint names, so said here in words.
PLAN_BOUNDS = {
    "max_table_size": (
        rules.PLAYERS_MIN,
        rules.PLAYERS_MAX,
        _("A table seats %(min)s to %(max)s players; the largest table cannot seat %(value)s."),
    ),
    "games_per_round": (
        rules.GAMES_PER_ROUND_MIN,
        rules.GAMES_PER_ROUND_MAX,
        _("A round has %(min)s to %(max)s games per table; %(value)s is out of range."),
    ),
    "rounds": (
        rules.ROUNDS_MIN,
        rules.ROUNDS_MAX,
        _("A tournament plans %(min)s to %(max)s rounds; %(value)s is out of range."),
    ),
    # Event variants, stages and the hall: the rules engine's bounds (None: no cap, or
    # the round's usual games), said in words before the model's constraints would.
    "loss_cap": (
        1,
        rules.LOSS_CAP_MAX,
        _("A loss cap is 1 to %(max)s points, or none; %(value)s is out of range."),
    ),
    "winner_bonus": (
        0,
        rules.BONUS_MAX,
        _("The winner's bonus is 0 to %(max)s points; %(value)s is out of range."),
    ),
    "runner_up_bonus": (
        0,
        rules.BONUS_MAX,
        _("The runner-up's bonus is 0 to %(max)s points; %(value)s is out of range."),
    ),
    "semifinal_games": (
        rules.GAMES_PER_ROUND_MIN,
        rules.GAMES_PER_ROUND_MAX,
        _("The semi-finals have 1 to %(max)s games per table; %(value)s is out of range."),
    ),
    "final_games": (
        rules.GAMES_PER_ROUND_MIN,
        rules.GAMES_PER_ROUND_MAX,
        _("The final has 1 to %(max)s games; %(value)s is out of range."),
    ),
    "final_first_to": (
        0,
        rules.FINAL_FIRST_TO_MAX,
        _("A final is played to 0 (off) to %(max)s wins; %(value)s is out of range."),
    ),
    "round_minutes": (
        0,
        rules.ROUND_MINUTES_MAX,
        _("A round's time limit is 0 (none) to %(max)s minutes; %(value)s is out of range."),
    ),
}
