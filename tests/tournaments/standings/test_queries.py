"""The standings read from the database: scopes, rankings, tie-breaks, stages, query counts."""

import random
from decimal import Decimal
from functools import partial
from typing import Any

import pytest

from scoring.errors import UserError
from scoring.rules import RackIn
from tests.factories import (
    AdjustmentFactory,
    EntryFactory,
    match_seated,
    round_play,
    seated_ids,
    tournament_entered,
)
from tournaments.demo import match_play, racks_scored
from tournaments.models import Entry, Tournament
from tournaments.selectors.standings import final_places_for, stage_standings, standings_for
from tournaments.services import adjustments, entries, rounds, stages
from tournaments.services.games import game_record
from tournaments.standings.ranking import (
    RANK_BY_AVERAGE,
    RANK_BY_SCORE,
    RANK_BY_TABLE_POINTS,
    RANK_BY_WINS,
)

pytestmark = pytest.mark.django_db


def game(match, points: dict[int, int]) -> None:
    """One rummikub game: the player with 0 points went out."""
    game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=p, points=points[p]) for p in seated_ids(match)],
    )


def bonus(t: Tournament, pid: int, points, reason="bonus") -> None:
    adjustments.adjustment_add(
        tournament=t, player_id=pid, points=points, reason=reason, kind="bonus"
    )


def ids_by_rank(rows) -> list[tuple[int, int]]:
    return [(r.player_id, r.rank) for r in rows]


def two_tables(**kwargs) -> tuple[Tournament, list[Any], list[Any]]:
    """8 players, one round seated with two tables of 4 (seat order as stored)."""
    t = tournament_entered(players=8, games_per_round=1, **kwargs)
    round_ = rounds.round_seat_next(tournament=t)
    m1, m2 = round_.matches.order_by("table")
    return t, m1, m2


# ---------------------------------------------------------------- tie-breaks


def test_tie_breaks_apply_in_the_configured_order():
    t, m1, m2 = two_tables(tie_breaks=["rack_total", "wins"])
    a, b, c, d = seated_ids(m1)
    e, f, g, h = seated_ids(m2)
    game(m1, {a: 0, b: 10, c: 20, d: 30})  # a +60
    game(m2, {e: 0, f: 5, g: 5, h: 80})  # e +90
    bonus(t, a, 30)  # a and e both 90: a won 1 game with rack 0, e too -> tie on both
    rows = standings_for(tournament=t)
    assert rows[0].rank == rows[1].rank == 1
    assert {rows[0].player_id, rows[1].player_id} == {a, e}
    # f and g: -5 each with equal racks and wins: they share rank 3.
    ranks = {r.player_id: r.rank for r in rows}
    assert ranks[f] == ranks[g] == 3
    assert ranks[b] == 5


def test_fewest_rack_points_breaks_a_tie_on_score():
    t, m1, m2 = two_tables(tie_breaks=["rack_total"])
    a, b, c, d = seated_ids(m1)
    e, f, g, h = seated_ids(m2)
    game(m1, {a: 0, b: 10, c: 20, d: 30})
    game(m2, {e: 0, f: 10, g: 20, h: 30})
    bonus(t, b, 5)  # b: -5, rack 10
    bonus(t, f, 5)
    bonus(t, g, 10)  # g: -10, rack 20
    bonus(t, h, 25)  # h: -5, rack 30
    rows = {r.player_id: r.rank for r in standings_for(tournament=t)}
    assert rows[b] == rows[f] < rows[h]


def test_head_to_head_puts_the_winner_of_the_shared_table_first():
    t, m1, m2 = two_tables(tie_breaks=["head_to_head"])
    a, b, c, d = seated_ids(m1)
    e, f, g, h = seated_ids(m2)
    game(m1, {a: 10, b: 0, c: 20, d: 30})  # b +60, a -10
    game(m2, {e: 0, f: 1, g: 1, h: 1})
    bonus(t, a, 70)  # a: 60, tied with b on score; b beat a at their table
    rows = standings_for(tournament=t)
    assert [r.player_id for r in rows[:2]] == [b, a]
    assert [r.rank for r in rows[:2]] == [1, 2]
    assert rows[0].tie_values["head_to_head"] == 1 and rows[1].tie_values["head_to_head"] == -1

    # Without the tie-break they share the rank.
    t.tie_breaks = []
    t.save()
    assert [r.rank for r in standings_for(tournament=t)[:2]] == [1, 1]


def test_head_to_head_leaves_players_who_never_met_tied():
    t, m1, m2 = two_tables(tie_breaks=["head_to_head"])
    a, b, c, d = seated_ids(m1)
    e, f, g, h = seated_ids(m2)
    game(m1, {a: 0, b: 10, c: 20, d: 30})
    game(m2, {e: 0, f: 10, g: 20, h: 30})
    rows = {r.player_id: r.rank for r in standings_for(tournament=t)}
    assert rows[a] == rows[e] == 1 and rows[b] == rows[f] == 3


def test_opponents_average_prefers_the_tougher_field():
    t, m1, m2 = two_tables(tie_breaks=["opponents_average"])
    a, b, c, d = seated_ids(m1)
    e, f, g, h = seated_ids(m2)
    game(m1, {a: 0, b: 1, c: 1, d: 1})  # a +3; opponents -1 each
    game(m2, {e: 0, f: 1, g: 1, h: 1})  # e +3
    bonus(t, f, 30)  # e's opponents are stronger: f 29, g -1, h -1
    rows = standings_for(tournament=t)
    ranks = {r.player_id: r for r in rows}
    assert ranks[e].rank < ranks[a].rank
    assert ranks[e].tie_values["opponents_average"] == Decimal(9)
    assert ranks[a].tie_values["opponents_average"] == Decimal(-1)


# ---------------------------------------------------------------- rankings


def test_table_points_ranking_with_score_as_tie_break():
    t, m1, m2 = two_tables(ranking="table_points", tie_breaks=["score"])
    a, b, c, d = seated_ids(m1)
    e, f, g, h = seated_ids(m2)
    game(m1, {a: 0, b: 10, c: 20, d: 30})
    game(m2, {e: 0, f: 1, g: 2, h: 3})
    rows = standings_for(tournament=t)
    assert [r.player_id for r in rows[:2]] == [a, e]  # both 4 table points; a scored more
    assert rows[0].table_points == 4 and rows[0].rank == 1 and rows[1].rank == 2


def test_league_average_with_a_minimum_number_of_games():
    t = tournament_entered(
        players=6, kind="league", ranking="average", min_games=2, games_per_round=1, rounds=10
    )
    ids = sorted(t.entries.values_list("player_id", flat=True))
    entries.attendance_set(tournament=t, player_ids=ids[:4])
    night1 = rounds.round_seat_next(tournament=t)
    m = night1.matches.get()
    p = seated_ids(m)
    game(m, {p[0]: 0, p[1]: 10, p[2]: 10, p[3]: 10})  # p0 +30 in one game
    entries.attendance_set(tournament=t, player_ids=[p[1], p[2], *ids[4:]])
    night2 = rounds.round_seat_next(tournament=t)
    m2 = night2.matches.get()
    q = seated_ids(m2)
    game(m2, {pid: (0 if pid == p[1] else 2) for pid in q})  # p1: -10 + 6 = -4 in 2 games
    rows = standings_for(tournament=t)
    by_id = {r.player_id: r for r in rows}
    assert by_id[p[1]].average == Decimal(-2) and by_id[p[1]].games == 2
    # p1 and p2 reached 2 games and rank first, above p0 and his +30 in one game.
    assert [r.player_id for r in rows[:2]] == [p[1], p[2]]
    assert by_id[p[0]].rank == 3 and by_id[p[0]].below_min_games
    assert not by_id[p[1]].below_min_games
    # A penalty counts in the average.
    adjustments.adjustment_add(tournament=t, player_id=p[1], points=-10, reason="phone rang")
    assert {r.player_id: r for r in standings_for(tournament=t)}[p[1]].average == Decimal(-7)


def test_stage_scopes_and_event_adjustments():
    t = tournament_entered(players=8, games_per_round=1, semifinal_players=4, rounds=1)
    round_play(rounds.round_seat_next(tournament=t))
    ids = sorted(t.entries.values_list("player_id", flat=True))
    bonus(t, ids[0], 1000)  # no round: counts in the qualifying stage and the totals
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    assert ids[0] in seated_ids(semi.matches.get())
    adjustments.adjustment_add(tournament=t, player_id=ids[0], points=-3, reason="late", round=semi)
    qualifying = {r.player_id: r for r in standings_for(tournament=t, stage="qualifying")}
    semi_only = {r.player_id: r for r in standings_for(tournament=t, stage="semifinal")}
    total = {r.player_id: r for r in standings_for(tournament=t)}
    assert qualifying[ids[0]].adjustments == 1000
    assert semi_only[ids[0]].adjustments == -3 and semi_only[ids[0]].games == 0
    assert total[ids[0]].adjustments == 997
    assert len(stage_standings(tournament=t, stage="semifinal")) == 4
    with pytest.raises(UserError, match="Unknown stage"):
        standings_for(tournament=t, stage="playoff")


def test_withdrawn_players_stay_in_the_standings_and_tied_players_share_a_rank():
    t, m1, _m2 = two_tables()
    a = seated_ids(m1)[0]
    entries.entry_withdraw(tournament=t, player_id=a)
    rows = standings_for(tournament=t)
    assert len(rows) == 8 and all(r.rank == 1 for r in rows)
    assert [r.withdrawn for r in rows].count(True) == 1


# ---------------------------------------------------------------- query counts


def played(tables: int, rounds_played: int, **kwargs) -> Tournament:
    t = tournament_entered(
        players=tables * 4,
        games_per_round=2,
        rounds=rounds_played + 1,
        semifinal_players=8 if tables >= 2 else 4,
        **kwargs,
    )
    for _ in range(rounds_played):
        round_play(rounds.round_seat_next(tournament=t))
    return t


@pytest.mark.parametrize("size", [(1, 1), (4, 3)])
@pytest.mark.parametrize(
    ("tie_breaks", "queries"),
    [
        (["wins", "rack_total"], 3),
        (["head_to_head", "opponents_average"], 3),
        # every game score, one query more
        (["countback", "best_game"], 4),
        (["head_to_head", "countback"], 4),
    ],
)
def test_standings_run_a_fixed_number_of_queries(
    size, tie_breaks, queries, django_assert_num_queries
):
    t = played(*size, tie_breaks=tie_breaks)
    entries.entry_withdraw(tournament=t, player_id=t.entries.first().player_id)
    with django_assert_num_queries(queries):
        rows = standings_for(tournament=t)
    assert len(rows) == size[0] * 4
    assert sum(r.score for r in rows) == 0
    with django_assert_num_queries(queries):
        standings_for(tournament=t, stage="qualifying")


@pytest.mark.parametrize("tables", [1, 3])
def test_final_places_run_a_fixed_number_of_queries(tables, django_assert_num_queries):
    t = played(tables, 1, tie_breaks=["head_to_head"])
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    round_play(semi)
    round_play(stages.stage_seat(tournament=t, stage="final"))
    # qualifying (3) + seats (1) + final (3) + semi-final (3)
    with django_assert_num_queries(10):
        places = final_places_for(tournament=t)
    assert len(places) == tables * 4
    # Places in order; players level on everything share one (the games are dealt at random).
    ranks = [r.rank for r in places]
    assert ranks[0] == 1
    assert all(rank in (i + 1, ranks[i - 1]) for i, rank in enumerate(ranks) if i)


def test_per_match_and_per_player_sums_give_the_same_standings():
    t = played(3, 2)
    # Shared wins give cents: a pool-exhausted game with two lowest racks tied.
    match = rounds.round_seat_next(tournament=t).matches.first()
    a, b, c, d = seated_ids(match)
    game_record(
        match=match,
        ending="pool_exhausted",
        racks=[
            RackIn(player=a, points=3),
            RackIn(player=b, points=3),
            RackIn(player=c, points=4),
            RackIn(player=d, points=9),
        ],
    )
    adjustments.adjustment_add(tournament=t, player_id=a, points="-0.25", reason="late")
    fields = (
        "player_id",
        "game_score",
        "adjustments",
        "games",
        "wins",
        "rack_total",
        "table_points",
    )

    def numbers(tie_breaks):
        t.tie_breaks = tie_breaks
        rows = sorted(standings_for(tournament=t), key=lambda r: r.player_id)
        return [tuple(getattr(r, f) for f in fields) for r in rows]

    plain, with_meetings = numbers(["wins"]), numbers(["wins", "opponents_average"])
    assert plain == with_meetings
    assert any(row[1] != row[1].to_integral_value() for row in plain)


# ---------------------------------------------------------------- totals


def play(match, rng: random.Random, games: int) -> None:
    match_play(match=match, rng=rng, games_played=games, deal=partial(racks_scored, most=40))


def test_standings_sum_scores_and_adjustments_and_share_ranks():
    match = match_seated(players=4)
    t = match.round.tournament
    a, b, c, d = seated_ids(match)
    game_record(
        match=match,
        ending="rummikub",
        racks=[
            RackIn(player=a, tiles=""),
            RackIn(player=b, points=5),
            RackIn(player=c, points=16),
            RackIn(player=d, points=3),
        ],
    )
    AdjustmentFactory(tournament=t, player_id=a, points=-4, reason="slow play")
    rows = standings_for(tournament=t)
    assert [(r.player_id, r.score, r.rank) for r in rows] == [
        (a, 20, 1),
        (d, -3, 2),
        (b, -5, 3),
        (c, -16, 4),
    ]
    assert rows[0].wins == 1 and rows[0].games == 1 and rows[0].adjustments == -4
    assert rows[3].rack_total == 16


def test_fully_tied_players_share_a_rank():
    t = match_seated(players=2).round.tournament
    rows = standings_for(tournament=t)
    assert [r.rank for r in rows] == [1, 1]


def test_table_points_ranking():
    match = match_seated(players=3, ranking=Tournament.Ranking.TABLE_POINTS)
    a, b, c = seated_ids(match)
    game_record(
        match=match,
        ending="rummikub",
        racks=[
            RackIn(player=a, points=50),
            RackIn(player=b, tiles=""),
            RackIn(player=c, points=1),
        ],
    )
    rows = standings_for(tournament=match.round.tournament)
    assert [(r.player_id, r.table_points) for r in rows] == [(b, 4), (c, 2), (a, 0)]


@pytest.mark.parametrize("tables", [1, 6])
def test_standings_query_count_does_not_grow(tables, django_assert_num_queries):
    rng = random.Random(tables)
    t = match_seated(players=4).round.tournament
    for _ in range(tables - 1):
        match_seated(players=4, tournament=t)
    for match in [m for r in t.round_set.all() for m in r.matches.all()]:
        play(match, rng, games=3)
    EntryFactory(tournament=t, status=Entry.Status.WITHDRAWN)
    with django_assert_num_queries(3):
        rows = standings_for(tournament=t)
    assert len(rows) == tables * 4 + 1
    assert sum(r.score for r in rows) == 0


def test_the_ranking_knows_every_ranking_a_tournament_may_choose():
    known = {RANK_BY_SCORE, RANK_BY_TABLE_POINTS, RANK_BY_AVERAGE, RANK_BY_WINS}
    assert known == set(Tournament.Ranking.values)
