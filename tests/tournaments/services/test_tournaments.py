"""tournament_create / tournament_update: every setting a user can get wrong is refused
at its field with a clear message, and nothing is stored; once results exist the
scoring settings stay; co-organisers; finishing and reopening."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scoring.errors import ConflictError, UserError
from tests.factories import ClubFactory, MatchFactory, TournamentFactory, UserFactory, match_seated
from tests.tournaments.web.support import play
from tournaments.models import Tournament
from tournaments.services.tournaments import (
    slug_free,
    tournament_create,
    tournament_finish,
    tournament_reopen,
    tournament_update,
)

pytestmark = pytest.mark.django_db

BAD: list[tuple[dict[str, Any], str, str]] = [
    ({"name": "  "}, "name", "name"),
    ({"name": "x" * 161}, "name", "160"),
    ({"joker_penalty": -5}, "joker_penalty", "cannot be negative (-5 was given)"),
    ({"joker_penalty": 10**6}, "joker_penalty", "at most 1000"),
    ({"joker_penalty": "lots"}, "joker_penalty", "whole number"),
    ({"pool_tie": "coin_toss"}, "pool_tie", "Unknown tie policy “coin_toss”"),
    ({"table_points": {"4": [4, 3, "x", 0]}}, "table_points", "need 4 whole numbers"),
    ({"table_points": {"4": [1, 3, 0, 0]}}, "table_points", "must not grow"),
    ({"table_points": {"7": [1]}}, "table_points", "2 to 4 players, not “7”"),
    ({"table_points": {"x": [1]}}, "table_points", "not “x”"),
    ({"table_points": [4, 3, 1, 0]}, "table_points", "map a table size"),
    ({"table_points": {"2": [10**50, 0]}}, "table_points", "from 0 to 1000"),
    ({"tie_breaks": ["wins", "luck"]}, "tie_breaks", "Unknown tie-break luck"),
    ({"tie_breaks": ["wins", "wins"]}, "tie_breaks", "listed twice"),
    ({"tie_breaks": "wins"}, "tie_breaks", "a list"),
    ({"max_table_size": 5}, "max_table_size", "2 to 4"),
    ({"max_table_size": 1}, "max_table_size", "2 to 4"),
    ({"games_per_round": 0}, "games_per_round", "1 to 30"),
    ({"rounds": 101}, "rounds", "0 to 100"),
    ({"rounds": -1}, "rounds", "0 to 100"),
    ({"ranking": "luck"}, "ranking", "not a valid choice"),
    ({"seating": "luck"}, "seating", "not a valid choice"),
    ({"language": "xx"}, "language", "not a valid choice"),
    ({"slug": "has spaces"}, "slug", "slug"),
    ({"slug": "s" * 81}, "slug", "80"),
    ({"date": "someday"}, "date", "date"),
    ({"bye_score": "NaN"}, "bye_score", ""),
    ({"bye_score": Decimal("1234567.891")}, "bye_score", ""),
    ({"seed": -1}, "seed", "0"),
    ({"min_games": 10**6}, "min_games", "32767"),
]


@pytest.mark.parametrize(("given", "field", "fragment"), BAD)
def test_create_refuses_bad_settings_at_their_field(given, field, fragment):
    owner = UserFactory()
    with pytest.raises(UserError) as caught:
        tournament_create(owner=owner, **{"name": "Bad", **given})
    assert caught.value.field == field
    assert fragment in caught.value.render()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("given", "field", "fragment"), BAD)
def test_update_refuses_bad_settings_and_keeps_the_old_ones(given, field, fragment):
    t = TournamentFactory(joker_penalty=25)
    before = {name: getattr(t, name) for name in ("name", "slug", "table_points", "rounds")}
    with pytest.raises(UserError) as caught:
        tournament_update(tournament=t, **given)
    assert caught.value.field == field
    assert fragment in caught.value.render()
    t.refresh_from_db()
    assert t.joker_penalty == 25
    assert {name: getattr(t, name) for name in before} == before


def test_create_makes_a_free_slug_and_merges_table_points():
    owner = UserFactory()
    first = tournament_create(owner=owner, name="Dutch Cup", table_points={"4": [5, 3, 1, 0]})
    second = tournament_create(owner=owner, name=" Dutch Cup ", slug="")
    assert (first.slug, second.slug, second.name) == ("dutch-cup", "dutch-cup-2", "Dutch Cup")
    assert first.table_points == {"2": [4, 0], "3": [4, 2, 0], "4": [5, 3, 1, 0]}
    assert first.owner == owner and first.rules().table_points[4] == (5, 3, 1, 0)
    assert slug_free("Dutch Cup") == "dutch-cup-3"
    assert slug_free("!!!") == "tournament"


def test_update_changes_only_what_is_given():
    club = ClubFactory()
    t = TournamentFactory(
        joker_penalty=50, table_points={"2": [4, 0], "3": [5, 1, 0], "4": [4, 3, 1, 0]}
    )
    changed = tournament_update(tournament=t, table_points={4: [6, 3, 1, 0]}, club=club, rounds=5)
    assert changed.table_points == {"2": [4, 0], "3": [5, 1, 0], "4": [6, 3, 1, 0]}
    t.refresh_from_db()
    assert (t.joker_penalty, t.rounds, t.club) == (50, 5, club)
    assert t.table_points["4"] == [6, 3, 1, 0]


def test_a_taken_slug_is_refused_but_a_tournament_keeps_its_own():
    other = TournamentFactory(slug="taken")
    t = TournamentFactory(slug="mine")
    with pytest.raises(UserError, match="taken") as caught:
        tournament_update(tournament=t, slug=other.slug)
    assert caught.value.field == "slug"
    assert tournament_update(tournament=t, slug="mine", name="Renamed").slug == "mine"


def test_an_unknown_setting_is_a_bug():
    with pytest.raises(TypeError, match="colour"):
        tournament_create(owner=UserFactory(), name="X", colour="red")
    with pytest.raises(TypeError, match="id"):
        tournament_update(tournament=TournamentFactory(), id=5)


def test_co_organisers_are_set_and_replaced_but_never_the_owner():
    owner, ann, bob = UserFactory(), UserFactory(), UserFactory()
    t = tournament_create(owner=owner, name="Cup", co_organisers=[ann])
    assert list(t.co_organisers.all()) == [ann]
    tournament_update(tournament=t, rounds=4)  # left out: kept
    assert list(t.co_organisers.all()) == [ann]
    tournament_update(tournament=t, co_organisers=[bob])
    assert list(t.co_organisers.all()) == [bob]
    with pytest.raises(UserError, match="owner") as caught:
        tournament_update(tournament=t, co_organisers=[bob, owner], rounds=7)
    assert caught.value.field == "co_organisers"
    t.refresh_from_db()
    assert (list(t.co_organisers.all()), t.rounds) == ([bob], 4)
    with pytest.raises(UserError, match="owner"):
        tournament_create(owner=owner, name="Other", co_organisers=[owner])
    assert Tournament.objects.count() == 1


SCORING_CHANGES = [
    ({"joker_penalty": 25}, "joker_penalty", "a new joker penalty would change scores"),
    ({"pool_tie": "fewest_tiles"}, "pool_tie", "a new tie policy"),
    ({"table_points": {"4": [5, 3, 1, 0]}}, "table_points", "new table points"),
]


@pytest.mark.parametrize(("given", "field", "fragment"), SCORING_CHANGES)
def test_scoring_settings_are_refused_once_results_exist(given, field, fragment):
    match = match_seated(players=4, joker_penalty=30)
    t = match.round.tournament
    tournament_update(tournament=t, **given)  # no result yet: allowed
    tournament_update(
        tournament=t, joker_penalty=30, pool_tie="share", table_points={"4": [4, 3, 1, 0]}
    )
    play(match, games=1)
    with pytest.raises(ConflictError) as caught:
        tournament_update(tournament=t, rounds=9, **given)
    assert caught.value.field == field
    assert caught.value.render().startswith("Results exist:")
    assert fragment in caught.value.render()
    t.refresh_from_db()
    assert (t.joker_penalty, t.pool_tie, t.table_points["4"], t.rounds) == (
        30,
        "share",
        [4, 3, 1, 0],
        3,
    )


def test_after_results_the_plan_stays_editable_and_unchanged_scoring_values_pass():
    match = match_seated(players=4)
    t = match.round.tournament
    play(match, games=1)
    changed = tournament_update(
        tournament=t,
        rounds=5,
        games_per_round=2,
        seating="balanced",
        semifinal_players=8,
        ranking="table_points",
        tie_breaks=["wins", "score"],
        # The same values again, as a full form sends them: not a change.
        joker_penalty=t.joker_penalty,
        pool_tie=t.pool_tie,
        table_points=dict(t.table_points),
    )
    assert (changed.rounds, changed.games_per_round, changed.seating) == (5, 2, "balanced")
    assert (changed.semifinal_players, changed.ranking) == (8, "table_points")


def test_finish_is_refused_while_the_latest_round_has_games_to_play():
    match = match_seated(players=4, games_per_round=2)
    t = match.round.tournament
    other = MatchFactory(round=match.round, table=2)
    play(match, games=2)
    with pytest.raises(ConflictError) as caught:
        tournament_finish(tournament=t)
    assert "Round 1" in caught.value.render() and "table(s) 2 " in caught.value.render()
    t.refresh_from_db()
    assert t.status != Tournament.Status.FINISHED
    other.delete()
    assert tournament_finish(tournament=t).status == Tournament.Status.FINISHED
    with pytest.raises(ConflictError, match="finished already"):
        tournament_finish(tournament=t)
    assert tournament_reopen(tournament=t).status == Tournament.Status.RUNNING
    with pytest.raises(ConflictError, match="not finished"):
        tournament_reopen(tournament=t)
