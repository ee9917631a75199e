"""Ranking players: plain data in, plain data out, no database.

Vocabulary:

* a *standings row* is one entered player's line in the standings: game score
  (sum of their game scores), adjustments, total score (the two together),
  games played, games won, rack total (the sum of their rack values: fewer is
  better) and table points;
* the *ranking key* is total score, table points, games won, or (leagues) the
  average score per game, where players below the tournament's minimum number
  of games rank after everyone who reached it;
* a *tie-break* is a named criterion applied, in the tournament's order, when
  the ranking key ties: ``wins``, ``table_points``, ``score``, ``rack_total``
  (fewer is better), ``games``, ``average``, ``best_game``, ``countback``,
  ``head_to_head`` and ``opponents_average``;
* a *game score* here is what one game brought a player: its score plus its
  bonus. *Best game* is a player's highest game score; *countback* compares
  the game scores best first (best game, then second best, and so on); a
  player whose list runs out first, every earlier one equal, ranks lower (no
  game is worse than any game);
* a *category* (``U14``, ``Senior``) is free text on an entry; a category's
  standings are its players in the overall order, ranked afresh from 1;
* *head-to-head*: among the players still tied when it is applied, each table
  two of them shared counts +1 for the one who did better there (more points
  over that match's games; table points when the tournament ranks by them) and
  −1 for the other. Players who never met stay tied;
* *opponents' average*: the mean, over every match a player played and every
  opponent at that table, of that opponent's average score per game. Like a
  Buchholz score: a tougher field ranks higher;
* *meetings* are the per-match results the last two need: who sat at which
  match and what they made of it;
* *rank* is shared by players whose ranking key and every tie-break are equal;
  the next rank skips as many places as shared the one before;
* a *seed* is a player's place in the qualifying standings; it settles what is
  still tied in a semi-final or final, where places must be distinct.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from scoring.errors import _

ZERO = Decimal(0)
CENT = Decimal("0.01")
HALF_CENT = 0.005  # totals closer than this are equal

# The ranking keys a tournament may choose (``Tournament.Ranking``'s values).
RANK_BY_SCORE = "score"
RANK_BY_TABLE_POINTS = "table_points"
RANK_BY_AVERAGE = "average"
RANK_BY_WINS = "wins"

# The standings column that shows each ranking key: pages and prints put it
# first after the player's name.
RANKING_COLUMNS: dict[str, str] = {
    RANK_BY_SCORE: "score",
    RANK_BY_TABLE_POINTS: "table_points",
    RANK_BY_AVERAGE: "average",
    RANK_BY_WINS: "wins",
}


# Each standings number's heading, translated where it is shown.
COLUMN_LABELS: dict[str, str] = {
    "score": _("Score"),
    "average": _("Average"),
    "games": _("Games"),
    "wins": _("Wins"),
    # Read as what it is: points still on the players' racks (lower is better).
    "rack_total": _("Points left on racks"),
    "table_points": _("Table points"),
    # Added or deducted by the organiser (penalties, bonuses, byes), never corrections of games.
    "adjustments": _("Organiser's bonuses and penalties"),
}


def columns_ranking_first(*, ranking: str, columns: Sequence[str]) -> list[str]:
    """``columns`` with the ranking key's column first (added when missing)."""
    lead = RANKING_COLUMNS.get(ranking, "score")
    return [lead, *(c for c in columns if c != lead)]


@dataclass
class StandingRow:
    player_id: int
    name: str
    club: str
    withdrawn: bool = False
    game_score: Decimal = ZERO
    adjustments: Decimal = ZERO
    games: int = 0
    wins: int = 0
    rack_total: int = 0
    table_points: Decimal = ZERO
    rank: int = 0
    tie_values: dict[str, Any] = field(default_factory=dict)
    # Entered but checked out for the next round (not withdrawn).
    absent: bool = False
    # Final places only: the stage whose results placed this row.
    stage: str = ""
    # Ranked by average but short of the tournament's minimum number of games:
    # listed after everyone who reached it.
    below_min_games: bool = False
    # The entry's category ("" = none).
    category: str = ""
    # Every game score (score plus bonus), best first; filled only when a
    # tie-break needs them (``GAME_SCORE_TIE_BREAKS``).
    game_scores: tuple[Decimal, ...] = ()

    @property
    def score(self) -> Decimal:
        return self.game_score + self.adjustments

    @property
    def average(self) -> Decimal:
        """Total score (adjustments included, so a penalty counts) per game played."""
        return (self.score / self.games).quantize(CENT) if self.games else ZERO

    @property
    def active(self) -> bool:
        return not (self.withdrawn or self.absent)


RowKey = Callable[[StandingRow], Any]

# Each tie-break maps a row to a value where larger ranks higher.
TIE_BREAKS: dict[str, RowKey] = {
    "score": lambda r: r.score,
    "wins": lambda r: r.wins,
    "table_points": lambda r: r.table_points,
    "rack_total": lambda r: -r.rack_total,
    "games": lambda r: r.games,
    "average": lambda r: r.average,
    "opponents_average": lambda r: r.tie_values.get("opponents_average", ZERO),
    # No game ranks after any game, however bad: hence the flag first.
    "best_game": lambda r: (True, r.game_scores[0]) if r.game_scores else (False, ZERO),
    # Tuples compare item by item and a shorter equal prefix is smaller.
    "countback": lambda r: r.game_scores,
}
HEAD_TO_HEAD = "head_to_head"
# Tie-breaks that need meetings (per-match sums instead of per-player ones).
MEETING_TIE_BREAKS = frozenset({HEAD_TO_HEAD, "opponents_average"})
# Tie-breaks that need every game score of each player.
GAME_SCORE_TIE_BREAKS = frozenset({"best_game", "countback"})

# A tie-break by name, or a key of the caller's (a stage's seeds).
TieBreak = str | RowKey


def primary_key(*, ranking: str, min_games: int) -> RowKey:
    """The ranking key of a tournament ranking by ``ranking``; larger ranks higher."""
    if ranking == RANK_BY_TABLE_POINTS:
        return lambda r: r.table_points
    if ranking == RANK_BY_AVERAGE:
        # Players below the minimum number of games rank after everyone who
        # reached it, then by average.
        return lambda r: (r.games >= min_games, r.average)
    if ranking == RANK_BY_WINS:
        return lambda r: r.wins
    return lambda r: r.score


def seed_key(seeds: dict[int, int]) -> RowKey:
    """A tie-break for the better seed (a smaller place); the unseeded come last."""
    return lambda r: -seeds.get(r.player_id, len(seeds))


@dataclass
class Meetings:
    """Per-match results: who sat at which match and what they made of it."""

    by_match: dict[int, list[tuple[int, Any]]] = field(default_factory=dict)
    by_player: dict[int, list[int]] = field(default_factory=dict)


def opponents_average_fill(*, rows: dict[int, StandingRow], meetings: Meetings) -> None:
    """Set every row's ``tie_values["opponents_average"]``; adjustments must be in."""
    # Per match the sum of its players' averages; a player's opponents are
    # that sum less their own average. Floats here, the cent at the end.
    averages = {pid: float(row.score) / row.games for pid, row in rows.items() if row.games}
    tables: dict[int, tuple[float, int]] = {}
    for match_id, seats in meetings.by_match.items():
        known = [averages[p] for p, _value in seats if p in averages]
        tables[match_id] = (sum(known), len(known))
    for pid, row in rows.items():
        total = 0.0
        count = 0
        own = averages.get(pid)
        for match_id in meetings.by_player.get(pid, ()):
            table_total, table_count = tables[match_id]
            if own is not None:
                table_total -= own
                table_count -= 1
            total += table_total
            count += table_count
        row.tie_values["opponents_average"] = (
            Decimal(total / count).quantize(CENT) if count else ZERO
        )


def head_to_head(group: Sequence[StandingRow], meetings: Meetings | None) -> dict[int, int]:
    """Each tied player's head-to-head balance against the others of ``group``."""
    ids = {r.player_id for r in group}
    result = dict.fromkeys(ids, 0)
    if meetings is None:
        return result
    shared = {m for pid in ids for m in meetings.by_player.get(pid, ())}
    for match_id in shared:
        present = [(p, v) for p, v in meetings.by_match[match_id] if p in ids]
        for (a, va), (b, vb) in itertools.combinations(present, 2):
            if abs(va - vb) >= HALF_CENT:
                better, worse = (a, b) if va > vb else (b, a)
                result[better] += 1
                result[worse] -= 1
    return result


def standings_rank(
    *,
    rows: list[StandingRow],
    primary: RowKey,
    tie_breaks: Sequence[TieBreak],
    meetings: Meetings | None = None,
) -> list[StandingRow]:
    """Sort rows best first and give fully tied rows the same rank.

    The rows are split into groups that tie on the ranking key, then each group
    by the first tie-break, and so on: head-to-head needs to know who is still
    tied with whom. Fully tied rows share a rank and are listed by name.
    """
    rows.sort(key=lambda r: (r.name.casefold(), r.player_id))
    groups: list[list[StandingRow]] = [rows] if rows else []
    for tie_break in [primary, *tie_breaks]:
        refined: list[list[StandingRow]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            values: list[Any]
            if tie_break == HEAD_TO_HEAD:
                h2h = head_to_head(group, meetings)
                for row in group:
                    row.tie_values[HEAD_TO_HEAD] = h2h[row.player_id]
                values = [h2h[row.player_id] for row in group]
            else:
                key = TIE_BREAKS[tie_break] if isinstance(tie_break, str) else tie_break
                values = [key(row) for row in group]
            ordered = sorted(zip(values, group, strict=True), key=lambda vr: vr[0], reverse=True)
            for _value, tied in itertools.groupby(ordered, key=lambda vr: vr[0]):
                refined.append([row for _v, row in tied])
        groups = refined
    ranked: list[StandingRow] = []
    for group in groups:
        rank = len(ranked) + 1
        for row in group:
            row.rank = rank
            ranked.append(row)
    rows[:] = ranked
    return rows


def ranks_shift(rows: list[StandingRow], *, offset: int) -> None:
    """Renumber ranks from ``offset + 1`` in list order, keeping shared ranks shared."""
    previous: int | None = None
    for index, row in enumerate(rows):
        old = row.rank
        row.rank = rows[index - 1].rank if old == previous else offset + index + 1
        previous = old


def category_rows(rows: Sequence[StandingRow], *, category: str) -> list[StandingRow]:
    """The rows of one category, in their order, ranked afresh from 1 (copies:
    the shared rows keep their overall ranks)."""
    chosen = [replace(r) for r in rows if r.category == category]
    ranks_shift(chosen, offset=0)
    return chosen


# What a page or file shows for a category no player carries, in place of an
# empty list (translated where shown, ``category`` the text asked for).
CATEGORY_ABSENT = _("This tournament has no category “%(category)s”.")


def categories_of(rows: Sequence[StandingRow]) -> list[str]:
    """The categories the rows carry, each once, sorted; "" (none) left out."""
    return sorted({r.category for r in rows if r.category}, key=str.casefold)
