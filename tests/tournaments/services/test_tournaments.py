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
from tournaments.services.games import game_delete
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


def test_a_tournaments_slug_writes_its_letters_without_their_accents():
    owner = UserFactory()
    assert tournament_create(owner=owner, name="Åbent Mesterskab").slug == "abent-mesterskab"
    assert tournament_create(owner=owner, name="Ølstykke Øst").slug == "olstykke-ost"
    assert tournament_create(owner=owner, name="Große Nacht").slug == "grosse-nacht"
    assert slug_free("Ølstykke  Øst!") == "olstykke-ost-2"
    # A slug already stored stays as it is when the name changes.
    old = TournamentFactory(name="Ærø Cup", slug="r-cup")
    assert tournament_update(tournament=old, name="Ærø Cup 2025").slug == "r-cup"


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
    other = TournamentFactory(slug="taken", public=False)
    t = TournamentFactory(slug="mine")
    for slug in (other.slug, "new"):
        with pytest.raises(UserError) as caught:
            tournament_update(tournament=t, slug=slug)
        # Not whose, nor whether a private tournament holds it.
        assert caught.value.render() == "This slug is not available; choose another."
        assert caught.value.field == "slug"
    assert tournament_update(tournament=t, slug="mine", name="Renamed").slug == "mine"


def test_an_unknown_setting_is_a_bug():
    with pytest.raises(TypeError, match="colour"):
        tournament_create(owner=UserFactory(), name="X", colour="red")
    with pytest.raises(TypeError, match="id"):
        tournament_update(tournament=TournamentFactory(), id=5)


def test_co_organisers_are_invited_and_replaced_but_never_the_owner():
    owner, ann, bob = UserFactory(), UserFactory(), UserFactory()
    t = tournament_create(owner=owner, name="Cup", co_organisers=[ann.username])

    def waiting() -> list[str]:
        return sorted(t.invitations.values_list("username", flat=True))

    assert (list(t.co_organisers.all()), waiting()) == ([], [ann.username])
    tournament_update(tournament=t, rounds=4)  # left out: kept
    assert waiting() == [ann.username]
    tournament_update(tournament=t, co_organisers=[bob.username])
    assert waiting() == [bob.username]
    with pytest.raises(UserError, match="owner") as caught:
        tournament_update(tournament=t, co_organisers=[bob.username, owner.username], rounds=7)
    assert caught.value.field == "co_organisers"
    t.refresh_from_db()
    assert (waiting(), t.rounds) == ([bob.username], 4)
    with pytest.raises(UserError, match="owner"):
        tournament_create(owner=owner, name="Other", co_organisers=[owner.username])
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
    assert caught.value.render() == (
        "Round 1 is not finished: table 2 still has games to play. Enter their results first."
    )
    MatchFactory(round=match.round, table=3)
    with pytest.raises(ConflictError, match=r"Round 1 is not finished: tables 2, 3 still have"):
        tournament_finish(tournament=t)
    t.refresh_from_db()
    assert t.status != Tournament.Status.FINISHED
    match.round.matches.exclude(pk=match.pk).delete()
    assert other.round_id == match.round_id
    assert tournament_finish(tournament=t).status == Tournament.Status.FINISHED
    with pytest.raises(ConflictError, match="finished already"):
        tournament_finish(tournament=t)
    assert tournament_reopen(tournament=t).status == Tournament.Status.RUNNING
    with pytest.raises(ConflictError, match="not finished"):
        tournament_reopen(tournament=t)


def test_finish_needs_a_round_and_every_round_complete():
    t = TournamentFactory()
    with pytest.raises(ConflictError, match="Seat and play a round before finishing"):
        tournament_finish(tournament=t)
    first = match_seated(players=4, tournament=t, games_per_round=1)
    play(first, games=first.round.games_per_match)
    second = match_seated(players=4, tournament=t)
    play(second, games=second.round.games_per_match)
    # A game deleted in round 1 blocks finishing, though round 2 is complete.
    game_delete(game=first.games.get(number=1))
    with pytest.raises(ConflictError) as caught:
        tournament_finish(tournament=t)
    assert caught.value.render().startswith("Round 1 is not finished: table 1 still has games")
    t.refresh_from_db()
    assert t.status != Tournament.Status.FINISHED
    play(first, games=1)
    assert tournament_finish(tournament=t).status == Tournament.Status.FINISHED


def test_a_finished_tournament_keeps_its_plan_and_rules_but_not_its_description():
    t = TournamentFactory(status=Tournament.Status.FINISHED, rounds=3)
    for change in ({"rounds": 4}, {"ranking": "table_points"}, {"seed": 9}, {"joker_penalty": 5}):
        with pytest.raises(ConflictError, match="finished: reopen it") as caught:
            tournament_update(tournament=t, **change)
        assert caught.value.field == "non_field_errors"
    t.refresh_from_db()
    assert (t.rounds, t.ranking, t.seed) == (3, "score", 0)
    co = UserFactory()
    # The same plan again, as a full form sends it, with a new description.
    kept = tournament_update(
        tournament=t,
        name="Renamed",
        public=False,
        rounds=3,
        co_organisers=[co.username],
        status="finished",
    )
    assert (kept.name, kept.public) == ("Renamed", False)
    assert list(kept.invitations.values_list("username", flat=True)) == [co.username]
    tournament_reopen(tournament=t)
    assert tournament_update(tournament=t, rounds=4).rounds == 4


def test_the_status_is_not_a_setting():
    with pytest.raises(UserError, match="status follows the tournament") as caught:
        tournament_create(owner=UserFactory(), name="Cup", status="finished")
    assert caught.value.field == "status" and not Tournament.objects.exists()
    assert tournament_create(owner=UserFactory(), name="Cup", status="planned").status == "planned"
    t = TournamentFactory(status=Tournament.Status.RUNNING)
    with pytest.raises(UserError, match="status follows the tournament"):
        tournament_update(tournament=t, status="finished")
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        ({"semifinal_players": 4}, "tables of 4 players, two tables or more so that a final"),
        ({"semifinal_players": 6}, "8, 12"),
        ({"semifinal_players": 9}, "8, 12"),
        ({"semifinal_players": 1}, "8, 12"),
        ({"semifinal_players": 4, "max_table_size": 3}, "6, 9"),
        ({"semifinal_players": 2, "max_table_size": 2}, "4, 6"),
    ],
)
def test_semifinals_fill_two_or_more_whole_tables(given, fragment):
    with pytest.raises(UserError, match=fragment) as caught:
        tournament_create(owner=UserFactory(), name="Cup", **given)
    assert caught.value.field == "semifinal_players" and not Tournament.objects.exists()
    t = TournamentFactory(semifinal_players=8)
    with pytest.raises(UserError, match=fragment):
        tournament_update(tournament=t, **given)
    with pytest.raises(UserError, match="tables of 3 players"):
        tournament_update(tournament=t, max_table_size=3)
    t.refresh_from_db()
    assert (t.semifinal_players, t.max_table_size) == (8, 4)


def test_possible_semifinals_and_an_old_plan_stay_editable():
    owner = UserFactory()
    for players, size in ((0, 4), (8, 4), (12, 4), (6, 3), (4, 2)):
        made = tournament_create(
            owner=owner, name="Cup", semifinal_players=players, max_table_size=size
        )
        assert (made.semifinal_players, made.max_table_size) == (players, size)
    # A plan made before the check keeps working while its semi-finals are not changed.
    old = TournamentFactory(semifinal_players=4)
    assert tournament_update(tournament=old, name="Old", semifinal_players=4).name == "Old"


def test_rounds_cannot_go_below_the_qualifying_rounds_seated():
    t = TournamentFactory(rounds=3)
    for _number in (1, 2):
        match_seated(players=4, tournament=t)
    with pytest.raises(UserError, match="Qualifying rounds seated already: 2") as caught:
        tournament_update(tournament=t, rounds=1)
    assert caught.value.field == "rounds"
    t.refresh_from_db()
    assert t.rounds == 3
    assert tournament_update(tournament=t, rounds=2).rounds == 2
