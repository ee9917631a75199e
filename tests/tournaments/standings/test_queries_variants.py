"""Standings from the database ranked by wins, by single games, and per category."""

import pytest

from scoring.rules import RackIn
from tests.factories import seated_ids, tournament_entered
from tournaments.models import Entry
from tournaments.selectors.standings import standings_for
from tournaments.services import rounds
from tournaments.services.games import game_record
from tournaments.standings.ranking import category_rows

pytestmark = pytest.mark.django_db


def game(match, points: dict[int, int]) -> None:
    game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=p, points=points[p]) for p in seated_ids(match)],
    )


def one_table(**kwargs):
    t = tournament_entered(players=4, games_per_round=3, **kwargs)
    (match,) = rounds.round_seat_next(tournament=t).matches.all()
    return t, match, seated_ids(match)


def test_ranking_by_wins_puts_the_most_games_won_first():
    t, m, (a, b, c, d) = one_table(ranking="wins", tie_breaks=["score"])
    game(m, {a: 0, b: 1, c: 1, d: 1})  # a +3
    game(m, {a: 1, b: 0, c: 1, d: 1})  # b +3
    game(m, {a: 90, b: 0, c: 1, d: 1})  # b +92, a -90
    rows = standings_for(tournament=t)
    assert [(r.player_id, r.rank) for r in rows][:2] == [(b, 1), (a, 2)]
    # c and d: no win, equal scores: shared
    assert rows[2].rank == rows[3].rank == 3


def test_best_game_and_countback_read_every_game_score():
    t, m, (a, b, c, d) = one_table(tie_breaks=["best_game"])
    game(m, {a: 0, b: 20, c: 5, d: 5})  # a +30, b -20
    game(m, {a: 20, b: 0, c: 5, d: 5})  # a -20, b +30
    game(m, {a: 10, b: 10, c: 0, d: 50})  # a -10 b -10 c +70 d -50
    rows = {r.player_id: r for r in standings_for(tournament=t)}
    assert rows[a].score == rows[b].score == 0
    assert rows[a].game_scores == rows[b].game_scores == (30, -10, -20)
    assert rows[a].rank == rows[b].rank  # still tied: identical games
    assert rows[c].game_scores[0] == 70
    t.tie_breaks = ["countback"]
    t.save()
    assert {r.player_id: r.rank for r in standings_for(tournament=t)}[a] == rows[a].rank


def test_a_category_gets_its_own_ranks():
    t, m, (a, b, c, d) = one_table()
    game(m, {a: 0, b: 10, c: 20, d: 30})  # a 60, b -10, c -20, d -30
    Entry.objects.filter(player_id__in=[b, d]).update(category="U14")
    everyone = standings_for(tournament=t)
    u14 = category_rows(everyone, category="U14")
    assert [(r.player_id, r.rank) for r in u14] == [(b, 1), (d, 2)]
    assert {r.player_id: r.category for r in everyone}[d] == "U14"
