"""A player's statistics as plain data: a hand-computed example, figure by
figure, and the sums every set of games keeps (no database)."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.player_stats import (
    Figures,
    GamePicked,
    GameRow,
    HeadToHead,
    Opponent,
    PlayerStats,
    RackRow,
    player_stats,
)

ME, ANNA, BEN, CLEO = 1, 2, 3, 4
JAN, FEB = dt.date(2026, 1, 10), dt.date(2026, 2, 14)


Seated = tuple[int, RackRow]


def _rack(
    player: int, score: int, value: int = 0, jokers: int = 0, won: bool | None = None
) -> Seated:
    return player, RackRow(score * 100, value, jokers, won=value == 0 if won is None else won)


def _game(
    gid: int,
    tour: int,
    season: int | None,
    date: dt.date,
    where: tuple[int, int, int],
    *racks: Seated,
) -> GameRow:
    """A game of ME with the racks at the table."""
    round_number, table, number = where
    mine = next(rack for player, rack in racks if player == ME)
    others = tuple(Opponent(p, rack.score_cents) for p, rack in racks if p != ME)
    return GameRow(gid, tour, season, date, round_number, table, number, mine, others)


# Tournament 10 (season 5, January) then tournament 11 (no season, February).
GAMES = [
    _game(1, 10, 5, JAN, (1, 1, 1), _rack(ME, 30), _rack(ANNA, -10, 10), _rack(BEN, -20, 20, 1)),
    _game(2, 10, 5, JAN, (1, 1, 2), _rack(ME, -15, 15, 1), _rack(ANNA, 35), _rack(BEN, -20, 20)),
    _game(3, 11, None, FEB, (1, 2, 1), _rack(ME, 12), _rack(CLEO, -12, 12)),
    _game(4, 11, None, FEB, (2, 1, 1), _rack(ME, 8), _rack(ANNA, -8, 8)),
    _game(
        5, 11, None, FEB, (3, 1, 1),
        _rack(ME, -5, 5, 2), _rack(ANNA, 10), _rack(BEN, -5, 5),
        _rack(CLEO, 0, 0, won=False),  # out of tiles at time up, not the winner
    ),
]  # fmt: skip


def _stats() -> PlayerStats:
    # Handed in newest first: play order is the statistics' own.
    return player_stats(games=reversed(GAMES))


def _picked(gid: int) -> GamePicked:
    row = GAMES[gid - 1]
    return GamePicked(
        gid,
        row.tournament_id,
        row.round_number,
        row.table,
        row.number,
        Decimal(row.mine.score_cents) / 100,
    )


def D(text: str) -> Decimal:
    return Decimal(text)


@pytest.mark.parametrize(
    ("figure", "expected"),
    [
        ("games", 5),
        ("wins", 3),
        ("win_rate", D("0.600")),
        # (30 - 15 + 12 + 8 - 5) / 5
        ("average_score", D("6.00")),
        # places 1, 2, 1, 1, 3 (Ben's equal -5 shares the third place)
        ("average_place", D("1.60")),
        # left on the rack in the two games lost: 15 and 5
        ("average_left_losing", D("10.00")),
        ("jokers_left", 3),
        ("best", _picked(1)),
        ("worst", _picked(2)),
        # won, lost, won, won, lost
        ("longest_winning_run", 2),
    ],
)
def test_overall_figures(figure: str, expected: Any) -> None:
    assert getattr(_stats().overall, figure) == expected


@pytest.mark.parametrize(
    ("size", "games", "wins", "average", "place", "run"),
    [
        (2, 2, 2, D("10.00"), D("1.00"), 2),
        (3, 2, 1, D("7.50"), D("1.50"), 1),
        (4, 1, 0, D("-5.00"), D("3.00"), 0),
    ],
)
def test_by_table_size(
    size: int, games: int, wins: int, average: Decimal, place: Decimal, run: int
) -> None:
    figures = _stats().by_table_size[size]
    assert (figures.games, figures.wins, figures.average_score) == (games, wins, average)
    assert (figures.average_place, figures.longest_winning_run) == (place, run)


def test_table_sizes_are_those_played_smallest_first() -> None:
    assert list(_stats().by_table_size) == [2, 3, 4]


@pytest.mark.parametrize(
    ("scope", "key", "games", "wins", "best"),
    [
        ("seasons", 5, 2, 1, 1),
        ("tournaments", 10, 2, 1, 1),
        ("tournaments", 11, 3, 2, 3),
    ],
)
def test_per_season_and_tournament(scope: str, key: int, games: int, wins: int, best: int) -> None:
    figures: Figures = getattr(_stats(), scope)[key]
    assert (figures.games, figures.wins, figures.best) == (games, wins, _picked(best))


def test_a_tournament_without_a_season_is_in_no_season() -> None:
    assert list(_stats().seasons) == [5]
    assert list(_stats().tournaments) == [10, 11]


def test_head_to_head() -> None:
    assert _stats().head_to_head == [
        # games 1, 2, 4, 5: won 1 and 4; (30 - 15 + 8 - 5) / 4
        HeadToHead(ANNA, 4, 2, D("4.50")),
        # games 1, 2, 5; (30 - 15 - 5) / 3
        HeadToHead(BEN, 3, 1, D("3.33")),
        # games 3, 5; (12 - 5) / 2
        HeadToHead(CLEO, 2, 1, D("3.50")),
    ]


def test_no_games() -> None:
    stats = player_stats(games=[])
    assert stats.overall == Figures()
    assert (stats.by_table_size, stats.seasons, stats.tournaments, stats.head_to_head) == (
        {},
        {},
        {},
        [],
    )


def test_never_lost_has_no_average_left() -> None:
    stats = player_stats(games=[GAMES[0], GAMES[2]])
    assert stats.overall.average_left_losing is None
    assert stats.overall.longest_winning_run == 2


def test_equal_scores_name_the_earlier_game() -> None:
    game = GAMES[2]
    again = GameRow(9, *game[1:6], 2, game.mine, game.others)  # the same score, one game later
    stats = player_stats(games=[again, GAMES[3], GAMES[2]])
    assert stats.overall.best == _picked(3)


@st.composite
def _games(draw: st.DrawFn) -> list[GameRow]:
    rows = []
    for gid in range(1, draw(st.integers(0, 30)) + 1):
        opponents = draw(st.lists(st.integers(2, 7), min_size=1, max_size=3, unique=True))
        won = draw(st.booleans())
        mine = RackRow(
            draw(st.integers(-6000, 9000)),
            0 if won else draw(st.integers(1, 60)),
            draw(st.integers(0, 2)),
            won,
        )
        others = tuple(Opponent(p, draw(st.integers(-6000, 9000))) for p in opponents)
        rows.append(
            GameRow(
                gid,
                draw(st.integers(1, 4)),
                draw(st.sampled_from([None, 1, 2])),
                JAN + dt.timedelta(days=draw(st.integers(0, 3))),
                draw(st.integers(1, 3)),
                draw(st.integers(1, 3)),
                gid,
                mine,
                others,
            )
        )
    return rows


@given(_games())
def test_the_sums_every_set_of_games_keeps(games: list[GameRow]) -> None:
    stats = player_stats(games=games)
    mine = games
    overall = stats.overall
    assert overall.games == len(mine)
    assert 0 <= overall.wins <= overall.games
    assert overall.longest_winning_run <= overall.wins
    for parts in (stats.by_table_size, stats.tournaments):
        assert sum(f.games for f in parts.values()) == overall.games
        assert sum(f.wins for f in parts.values()) == overall.wins
        assert sum(f.jokers_left for f in parts.values()) == overall.jokers_left
    assert sum(f.games for f in stats.seasons.values()) == sum(1 for g in mine if g.season_id)
    assert sum(h.games for h in stats.head_to_head) == sum(len(g.others) for g in mine)
    assert all(h.wins <= h.games for h in stats.head_to_head)
    if mine:
        assert overall.best is not None and overall.worst is not None
        assert overall.worst.score <= overall.best.score
        assert overall.average_place is not None and 1 <= overall.average_place <= 4
    else:
        assert overall == Figures()


def test_the_statistics_and_the_chart_are_pure() -> None:
    """Both modules run without Django (a fresh interpreter loads neither)."""
    probe = (
        "import sys, tournaments.player_stats, tournaments.rating_chart\n"
        "print('django' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],
    )
    assert done.stdout.strip() == "False"
