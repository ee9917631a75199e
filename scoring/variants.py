"""Event variants: the loss cap and the bonuses some events add to the rulebook.

Vocabulary:

* **minus** -- what a player who did not win loses in a game (a score below 0).
* **loss cap** -- ``loss_cap``: the most a minus may be (None = no cap). The
  winners' plus is the sum of the *capped* minuses, so a game still sums to zero.
* **winner bonus** -- ``winner_bonus``: points paid to the game's winner on top of
  the score; joint winners share them.
* **runner-up bonus** -- ``runner_up_bonus``: points paid to the player(s) with the
  lowest rack value among those who did not win; tied runners-up share them.
* **bonus** -- kept apart from the zero-sum ``score``; a player's total is
  ``score + bonus``. Shares have two decimals, spare cents to the earliest seated.
  A bonus places no one: a game's places (table points, ratings) come from
  ``score`` alone.

Plain Python (stdlib only), like the rest of the rulebook.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from scoring.errors import RuleError, _
from scoring.table_points import cents_split
from scoring.tiles import is_int

# A loss cap of 1 or more, bonuses of 0 or more. Both far beyond any real event
# (25, 50, 100) and small enough that a game's score and bonus fit their columns.
LOSS_CAP_MAX = 10000
BONUS_MAX = 1000

_ZERO = Decimal("0.00")


def loss_cap_check(loss_cap: object) -> None:
    """Refuse a loss cap that is not None or a whole number from 1 to LOSS_CAP_MAX."""
    if loss_cap is None:
        return
    if not is_int(loss_cap):
        raise RuleError(
            _("The loss cap must be a whole number of points, or empty for none."),
            field="loss_cap",
        )
    assert isinstance(loss_cap, int)
    if loss_cap < 0:
        raise RuleError(
            _("The loss cap cannot be negative (%(cap)s was given)."),
            field="loss_cap",
            cap=loss_cap,
        )
    if loss_cap == 0:
        raise RuleError(
            _("A loss cap of 0 would make every game score nothing: use at least 1, or none."),
            field="loss_cap",
        )
    if loss_cap > LOSS_CAP_MAX:
        raise RuleError(
            _("The loss cap can be at most %(max)s points (%(cap)s was given)."),
            field="loss_cap",
            cap=loss_cap,
            max=LOSS_CAP_MAX,
        )


def bonus_check(bonus: object, *, field: str) -> None:
    """Refuse a bonus (named by its rule key ``field``) outside 0..BONUS_MAX."""
    if not is_int(bonus):
        raise RuleError(_("A bonus must be a whole number of points."), field=field)
    assert isinstance(bonus, int)
    if bonus < 0:
        raise RuleError(
            _("A bonus cannot be negative (%(bonus)s was given)."),
            field=field,
            bonus=bonus,
        )
    if bonus > BONUS_MAX:
        raise RuleError(
            _("A bonus can be at most %(max)s points (%(bonus)s was given)."),
            field=field,
            bonus=bonus,
            max=BONUS_MAX,
        )


def scores_capped(
    *, values: Sequence[int], lowest: int, sharers: Sequence[int], loss_cap: int | None
) -> list[Decimal]:
    """Each rack's zero-sum score: capped minuses, their sum shared by ``sharers``.

    ``values`` are the rack values, ``lowest`` the value the minuses count from
    (0 after a rummikub), ``sharers`` the indexes splitting the plus.
    """
    minuses = [lowest - value for value in values]
    if loss_cap is not None:
        minuses = [max(minus, -loss_cap) for minus in minuses]
    scores = [Decimal(minus) for minus in minuses]
    for index in sharers:
        scores[index] = Decimal(0)
    plus = -sum(scores)
    for index, share in zip(sharers, cents_split(int(plus), shares=len(sharers)), strict=True):
        scores[index] = share
    return scores


def bonuses(
    *,
    values: Sequence[int],
    winners: Sequence[int],
    excluded: Sequence[int],
    winner_bonus: int,
    runner_up_bonus: int,
) -> list[Decimal]:
    """Each rack's bonus. ``excluded`` racks (the winners, or a draw's tied racks) are
    never runners-up; the runner-up bonus goes to the lowest rack among the others."""
    out = [_ZERO for _value in values]
    if winner_bonus and winners:
        for index, share in zip(
            winners, cents_split(winner_bonus, shares=len(winners)), strict=True
        ):
            out[index] += share
    others = [index for index in range(len(values)) if index not in excluded]
    if runner_up_bonus and others:
        lowest = min(values[index] for index in others)
        runners_up = [index for index in others if values[index] == lowest]
        shares = cents_split(runner_up_bonus, shares=len(runners_up))
        for index, share in zip(runners_up, shares, strict=True):
            out[index] += share
    return out
