"""Pure: a player's statistics from the games they played.

Vocabulary:

* a *game row* (``GameRow``) is one game of the player as the statistics
  read it: where it was played (tournament, season, round, table, number),
  the player's own *rack* (score, rack value, jokers left, won) and the
  *others* at the table (each opponent and their score);
* a game's *score* is the player's zero-sum score in it; the event's winner
  and runner-up bonuses are kept apart, as the ratings keep them. Scores come
  in *cents* (hundredths, as integers: a score has two decimal places), so
  that sums stay exact and cheap; the figures give them back as decimals;
* a player's *place* in a game is 1 plus the number of players at the table
  with a higher score (equal scores share a place);
* *figures* (``Figures``) are the numbers of one set of games: games, wins,
  win rate, average score, average place, average points left on the rack in
  the games not won, jokers left on the rack (in all), the best and the worst
  game (the highest and the lowest score; the earlier game on equal scores),
  and the longest run of games won in a row, in play order;
* *play order* is the order ratings use: the tournament's date, the
  tournament, the round, the table, the game number (``GameRow.order``);
* *head-to-head* against an opponent counts the games the two played at one
  table: how many, how many the player won, the player's average score in them.

``player_stats`` gives the figures over all the games, per table size (2, 3
and 4 players), per season, per tournament, and head-to-head against every
opponent, in one pass over the games in play order. Averages are rounded to
two places, the win rate to three.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import NamedTuple

TWO_PLACES = Decimal("0.01")
THREE_PLACES = Decimal("0.001")


class RackRow(NamedTuple):
    score_cents: int
    rack_value: int
    jokers: int
    won: bool


class Opponent(NamedTuple):
    player_id: int
    score_cents: int


class GameRow(NamedTuple):
    game_id: int
    tournament_id: int
    season_id: int | None
    date: dt.date
    round_number: int
    table: int
    number: int
    mine: RackRow
    others: tuple[Opponent, ...]

    @property
    def order(self) -> tuple[int, int, int, int, int]:
        return (
            self.date.toordinal(),
            self.tournament_id,
            self.round_number,
            self.table,
            self.number,
        )


@dataclass(frozen=True)
class GamePicked:
    """One game named by a figure (the best or the worst)."""

    game_id: int
    tournament_id: int
    round_number: int
    table: int
    number: int
    score: Decimal


@dataclass(frozen=True)
class Figures:
    games: int = 0
    wins: int = 0
    win_rate: Decimal | None = None
    average_score: Decimal | None = None
    average_place: Decimal | None = None
    average_left_losing: Decimal | None = None
    jokers_left: int = 0
    best: GamePicked | None = None
    worst: GamePicked | None = None
    longest_winning_run: int = 0


@dataclass(frozen=True)
class HeadToHead:
    opponent_id: int
    games: int
    wins: int
    average_score: Decimal


@dataclass(frozen=True)
class PlayerStats:
    overall: Figures
    # Table size -> figures, sizes played only, smallest first.
    by_table_size: dict[int, Figures]
    # Season id -> figures, in play order of each season's first game.
    seasons: dict[int, Figures]
    # Tournament id -> figures, in play order.
    tournaments: dict[int, Figures]
    # Most games together first, then the opponent's id.
    head_to_head: list[HeadToHead] = field(default_factory=list)


def _decimal(cents: int) -> Decimal:
    return Decimal(cents).scaleb(-2)


def _average(total: int, count: int, places: Decimal = TWO_PLACES) -> Decimal | None:
    if count == 0:
        return None
    return (Decimal(total) / count).quantize(places, rounding=ROUND_HALF_EVEN)


def _picked(row: GameRow, cents: int) -> GamePicked:
    return GamePicked(
        game_id=row.game_id,
        tournament_id=row.tournament_id,
        round_number=row.round_number,
        table=row.table,
        number=row.number,
        score=_decimal(cents),
    )


class _Tally:
    """The running sums of one set of games, fed in play order."""

    __slots__ = (
        "best",
        "best_cents",
        "cents",
        "games",
        "jokers",
        "left",
        "longest",
        "lost",
        "places",
        "run",
        "wins",
        "worst",
        "worst_cents",
    )

    def __init__(self) -> None:
        self.games = self.wins = self.cents = self.places = 0
        self.jokers = self.left = self.lost = self.run = self.longest = 0
        self.best: GameRow | None = None
        self.worst: GameRow | None = None
        self.best_cents = self.worst_cents = 0

    def add(self, row: GameRow, mine: RackRow, place: int) -> None:
        cents = mine.score_cents
        self.games += 1
        self.cents += cents
        self.places += place
        self.jokers += mine.jokers
        if mine.won:
            self.wins += 1
            self.run += 1
            if self.run > self.longest:
                self.longest = self.run
        else:
            self.run = 0
            self.lost += 1
            self.left += mine.rack_value
        if self.best is None or cents > self.best_cents:
            self.best, self.best_cents = row, cents
        if self.worst is None or cents < self.worst_cents:
            self.worst, self.worst_cents = row, cents

    def figures(self) -> Figures:
        if not self.games:
            return Figures()
        return Figures(
            games=self.games,
            wins=self.wins,
            win_rate=_average(self.wins, self.games, THREE_PLACES),
            average_score=_average(self.cents, self.games * 100),
            average_place=_average(self.places, self.games),
            average_left_losing=_average(self.left, self.lost),
            jokers_left=self.jokers,
            best=None if self.best is None else _picked(self.best, self.best_cents),
            worst=None if self.worst is None else _picked(self.worst, self.worst_cents),
            longest_winning_run=self.longest,
        )


def _tally(tallies: dict[int, _Tally], key: int) -> _Tally:
    tally = tallies.get(key)
    if tally is None:
        tally = tallies[key] = _Tally()
    return tally


def player_stats(*, games: Iterable[GameRow]) -> PlayerStats:
    """The player's statistics over their ``games``."""
    overall = _Tally()
    sizes: dict[int, _Tally] = {}
    seasons: dict[int, _Tally] = {}
    tournaments: dict[int, _Tally] = {}
    # Opponent -> [games, wins, the player's cents].
    together: dict[int, list[int]] = {}
    for row in sorted(games, key=lambda g: g.order):
        mine = row.mine
        cents = mine.score_cents
        place = 1
        for other in row.others:
            if other.score_cents > cents:
                place += 1
            sums = together.get(other.player_id)
            if sums is None:
                sums = together[other.player_id] = [0, 0, 0]
            sums[0] += 1
            sums[1] += mine.won
            sums[2] += cents
        overall.add(row, mine, place)
        _tally(sizes, 1 + len(row.others)).add(row, mine, place)
        if row.season_id is not None:
            _tally(seasons, row.season_id).add(row, mine, place)
        _tally(tournaments, row.tournament_id).add(row, mine, place)
    head_to_head = [
        HeadToHead(
            opponent_id=opponent,
            games=count,
            wins=wins,
            average_score=_average(cents, count * 100) or Decimal(0),
        )
        for opponent, (count, wins, cents) in together.items()
    ]
    head_to_head.sort(key=lambda h: (-h.games, h.opponent_id))
    return PlayerStats(
        overall=overall.figures(),
        by_table_size={size: sizes[size].figures() for size in sorted(sizes)},
        seasons={season: tally.figures() for season, tally in seasons.items()},
        tournaments={tournament: tally.figures() for tournament, tally in tournaments.items()},
        head_to_head=head_to_head,
    )
