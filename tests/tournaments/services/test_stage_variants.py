"""Stage variants: games per stage, a final played to N wins, carry-over of half
the points, and a final taken from the semi-finals' own points."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import rules
from scoring.errors import ConflictError
from scoring.rules import RackIn
from tests.factories import seated_ids
from tests.tournaments.services.support import play_table, seated
from tests.tournaments.services.test_stages import qualified
from tournaments.models import Game
from tournaments.selectors.standings import final_places_for, stage_entrants, standings_for
from tournaments.services import stages, tournaments
from tournaments.services.games import game_record
from tournaments.standings.stage_rows import half_up

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("given", "semi", "final"),
    [
        ({}, 1, 1),
        ({"semifinal_games": 2, "final_games": 3}, 2, 3),
        ({"semifinal_games": 5}, 5, 1),
        ({"final_first_to": 4, "final_games": 2}, 1, rules.GAME_NUMBER_MAX),
    ],
)
def test_each_stage_plays_its_own_number_of_games(given, semi, final):
    t, _s = qualified(**given)
    semifinal = stages.stage_seat(tournament=t, stage="semifinal")
    assert semifinal.games_per_match == semi
    for match in semifinal.matches.all():
        play_table(match, seated_ids(match)[0])
    assert stages.stage_seat(tournament=t, stage="final").games_per_match == final


def win(match, winner: int) -> Game:
    return game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=p, points=0 if p == winner else 10) for p in seated_ids(match)],
    )


def test_a_final_to_n_wins_closes_when_a_player_has_them_and_refuses_a_further_game():
    t, _s = qualified(semis=0, final_first_to=2)
    final = stages.stage_seat(tournament=t, stage="final")
    match = final.matches.get()
    a, b = seated_ids(match)[:2]
    win(match, a)
    win(match, b)
    win(match, b)  # b has 2 wins: decided
    games = Game.objects.count()
    with pytest.raises(ConflictError, match="The final is decided") as refused:
        win(match, a)
    assert refused.value.params["wins"] == 2
    assert Game.objects.count() == games  # nothing stored
    # Decided is complete: the tournament can finish; the final ranks by its wins.
    tournaments.tournament_finish(tournament=t)
    places = final_places_for(tournament=t)
    assert [r.player_id for r in places[:2]] == [b, a]


def test_an_undecided_final_to_n_wins_keeps_the_tournament_from_finishing():
    t, _s = qualified(semis=0, final_first_to=3)
    match = stages.stage_seat(tournament=t, stage="final").matches.get()
    win(match, seated_ids(match)[0])
    with pytest.raises(ConflictError, match="not finished"):
        tournaments.tournament_finish(tournament=t)


@pytest.mark.parametrize(
    ("value", "half"),
    [("15", "8"), ("14", "7"), ("-15", "-7"), ("0", "0"), ("0.50", "1"), ("-0.5", "0")],
)
def test_half_is_rounded_up_to_a_whole_point(value, half):
    assert half_up(Decimal(value)) == Decimal(half)


@pytest.mark.parametrize("carry", ["0", "0.5", "1"])
def test_carry_over_takes_none_half_or_all_of_the_earlier_points(carry):
    t, s = qualified(semis=0, carry_over=carry)
    before = {r.player_id: r.score for r in standings_for(tournament=t, stage="qualifying")}
    final = stages.stage_seat(tournament=t, stage="final")
    play_table(final.matches.get(), s[3], {s[0]: 1, s[1]: 2, s[2]: 3})
    places = final_places_for(tournament=t)
    final_alone = {
        r.player_id: r.score for r in standings_for(tournament=t, stage="final") if r.games
    }
    share = {"0": lambda v: 0, "0.5": half_up, "1": lambda v: v}[carry]
    for row in places[:4]:
        assert row.score == final_alone[row.player_id] + share(before[row.player_id])
    # The final alone puts its winner first; carried points keep the top qualifier there.
    assert places[0].player_id == (s[3] if carry == "0" else s[0])


def held(match, out: int, points: dict[int, int]) -> None:
    """One game: ``out`` goes out, the others hold ``points`` (1 when not given)."""
    game_record(
        match=match,
        ending="rummikub",
        racks=[
            RackIn(player=p, points=0 if p == out else points.get(p, 1)) for p in seated_ids(match)
        ],
    )


@pytest.mark.parametrize(
    ("final_from", "finalists"),
    [
        # Table winners 0, 1, 2 (table 1 ties at 50: the better seed), then the best other: 3.
        ("semifinal_winners", [0, 1, 2, 3]),
        # By semi-final points only: table 1's three at 50, then 1 before 2 (9 each) by seed.
        ("stage_points", [0, 3, 6, 1]),
    ],
)
def test_final_from_winners_or_from_semifinal_points_alone(final_from, finalists):
    t, s = qualified(players=12, semis=12, semifinal_games=3, final_from=final_from)
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    table1, table2, table3 = semi.matches.order_by("table")
    assert seated_ids(table1) == [s[0], s[3], s[6], s[9]]
    for out in (s[0], s[3], s[6]):
        held(table1, out, {s[9]: 50})
    for _ in range(3):
        held(table2, s[1], {})
        held(table3, s[2], {})
    assert stage_entrants(tournament=t, stage="final")[:4] == [s[i] for i in finalists]
    final = stages.stage_seat(tournament=t, stage="final")
    assert seated(final) == [[s[i] for i in finalists]]


@given(st.decimals(min_value=-100_000, max_value=100_000, places=2))
def test_half_up_is_the_smallest_whole_point_at_or_above_half(value):
    half = half_up(value)
    assert half == half.to_integral_value()
    assert value / 2 <= half < value / 2 + 1
