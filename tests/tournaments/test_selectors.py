import random

import pytest

from tests.factories import AdjustmentFactory, EntryFactory, match_seated, seated_ids
from tournaments.models import Entry, Tournament
from tournaments.selectors import standings_for
from tournaments.services.games import RackEntry, game_record

pytestmark = pytest.mark.django_db


def play(match, rng: random.Random, games: int) -> None:
    ids = seated_ids(match)
    for _ in range(games):
        winner = rng.randrange(len(ids))
        game_record(
            match=match,
            ending="rummikub",
            racks=[
                RackEntry(player=p, points=0 if i == winner else rng.randint(1, 40))
                for i, p in enumerate(ids)
            ],
        )


def test_standings_sum_scores_and_adjustments_and_share_ranks():
    match = match_seated(players=4)
    t = match.round.tournament
    a, b, c, d = seated_ids(match)
    game_record(
        match=match,
        ending="rummikub",
        racks=[
            RackEntry(player=a, tiles=""),
            RackEntry(player=b, points=5),
            RackEntry(player=c, points=16),
            RackEntry(player=d, points=3),
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
            RackEntry(player=a, points=50),
            RackEntry(player=b, tiles=""),
            RackEntry(player=c, points=1),
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
