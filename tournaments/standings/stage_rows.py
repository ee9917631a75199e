"""How a stage (semi-final, final) ranks its players beyond its own results.

Vocabulary: the *carry-over* is the share of the points a player made before a
stage that they take into it: ``"0"`` none, ``"1"`` all (the earlier stages'
games simply count, see ``selectors.standings._stage_rows``) or ``"0.5"``: half, rounded
up to a whole point (towards plus: 15 → 8, −15 → −7). Half carries the
points of the ranking: the score (adjustments included) and the table points;
games won are never carried. A final *played to N wins* ranks by the games
won in it, then its score, then the better qualifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_CEILING, Decimal

from tournaments.models import Tournament
from tournaments.standings.ranking import StandingRow, TieBreak, primary_key, standings_rank

HALF = Decimal("0.5")


def half_up(value: Decimal) -> Decimal:
    """Half of ``value``, rounded up to a whole point."""
    return (Decimal(value) * HALF).to_integral_value(rounding=ROUND_CEILING)


def carried_half_ranked(
    *,
    tournament: Tournament,
    rows: list[StandingRow],
    earlier: Sequence[StandingRow],
    tie_breaks: Sequence[TieBreak],
) -> list[StandingRow]:
    """The stage's rows with half the earlier points added, ranked again."""
    before = {r.player_id: r for r in earlier}
    for row in rows:
        prior = before.get(row.player_id)
        if prior is None:
            continue
        row.adjustments += half_up(prior.score)
        row.table_points += half_up(prior.table_points)
    return standings_rank(
        rows=rows,
        primary=primary_key(ranking=tournament.ranking, min_games=tournament.min_games),
        tie_breaks=tie_breaks,
    )


def first_to_ranked(*, rows: list[StandingRow], seed: TieBreak) -> list[StandingRow]:
    """A final played to N wins: by its wins, then its score, then the better seed."""
    return standings_rank(rows=rows, primary=lambda r: r.wins, tie_breaks=["score", seed])
