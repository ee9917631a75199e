"""Seating the semi-finals and the final, and the final places."""

import pytest

from scoring.errors import ConflictError, UserError
from tests.factories import (
    round_play,
    tournament_entered,
)
from tests.tournaments.services.support import entry_ids, force_order, play_table, seated
from tournaments.models import Adjustment, Tournament
from tournaments.selectors.standings import final_places_for
from tournaments.services import entries, rounds, stages

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- stages


def qualified(players=12, semis=8, **kwargs) -> tuple[Tournament, list[int]]:
    """A tournament with one qualifying round played and a forced standings order."""
    t = tournament_entered(
        players=players, games_per_round=1, semifinal_players=semis, rounds=1, **kwargs
    )
    round_play(rounds.round_seat_next(tournament=t))
    order = entry_ids(t)[::-1]
    force_order(t, order)
    return t, order


def test_semifinals_seat_seeds_1357_and_2468_in_that_order():
    t, order = qualified()
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    assert semi.stage == "semifinal" and semi.number == 2
    s = order
    assert seated(semi) == [[s[0], s[2], s[4], s[6]], [s[1], s[3], s[5], s[7]]]
    assert not Adjustment.objects.filter(round=semi).exists()


def test_semifinals_skip_withdrawn_players_and_can_be_reseated():
    t, order = qualified()
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    entries.entry_withdraw(tournament=t, player_id=order[0])
    rounds.round_reseat(round=semi)
    s = order[1:]
    assert seated(semi) == [[s[0], s[2], s[4], s[6]], [s[1], s[3], s[5], s[7]]]


def test_other_semifinal_sizes_deal_seeds_round_the_tables():
    t, order = qualified(players=14, semis=12)
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    s = order
    assert seated(semi) == [
        [s[0], s[3], s[6], s[9]],
        [s[1], s[4], s[7], s[10]],
        [s[2], s[5], s[8], s[11]],
    ]
    t4, order4 = qualified(players=6, semis=4)
    assert seated(stages.stage_seat(tournament=t4, stage="semifinal")) == [order4[:4]]


def test_stage_seating_refusals():
    t, _order = qualified(semis=0)
    with pytest.raises(ConflictError, match="no semi-finals"):
        stages.stage_seat(tournament=t, stage="semifinal")
    with pytest.raises(UserError, match="not quarterfinal"):
        stages.stage_seat(tournament=t, stage="quarterfinal")
    fresh = tournament_entered(players=8, semifinal_players=8)
    with pytest.raises(ConflictError, match="Play the qualifying rounds"):
        stages.stage_seat(tournament=fresh, stage="semifinal")
    t2, _order = qualified(semis=8)
    with pytest.raises(ConflictError, match="seat and play them before the final"):
        stages.stage_seat(tournament=t2, stage="final")
    semi = stages.stage_seat(tournament=t2, stage="semifinal")
    with pytest.raises(ConflictError, match="already seated"):
        stages.stage_seat(tournament=t2, stage="semifinal")
    with pytest.raises(ConflictError, match="not finished"):
        stages.stage_seat(tournament=t2, stage="final")
    round_play(semi)
    t2.rounds = 5
    t2.save()
    with pytest.raises(ConflictError, match="no more qualifying rounds"):
        rounds.round_seat_next(tournament=t2)
    t3, _ = qualified(players=12, semis=16)
    with pytest.raises(ConflictError, match="seats 16 players, but only 12"):
        stages.stage_seat(tournament=t3, stage="semifinal")


def test_final_takes_the_semifinal_table_winners_then_the_best_of_the_rest():
    t, s = qualified()
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    table1, table2 = semi.matches.order_by("table")
    # Table 1 is won by seed 7, table 2 by seed 4; seed 3 loses least of the rest.
    play_table(table1, s[6], {s[0]: 30, s[2]: 2, s[4]: 40})
    play_table(table2, s[3], {s[1]: 50, s[5]: 5, s[7]: 60})
    final = rounds.round_seat_next(tournament=t, stage="final")
    assert final.stage == "final" and final.number == 3
    # Winners first (by their semi-final score), then the best of the rest.
    assert seated(final) == [[s[3], s[6], s[2], s[5]]]


def test_final_without_semifinals_takes_the_qualifying_top_four():
    t, s = qualified(semis=0)
    final = stages.stage_seat(tournament=t, stage="final")
    assert seated(final) == [s[:4]]


@pytest.mark.parametrize("carry_over", [False, True])
def test_final_places_by_the_final_alone_or_with_points_carried_over(carry_over):
    t, s = qualified(carry_over="1" if carry_over else "0")
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    table1, table2 = semi.matches.order_by("table")
    play_table(table1, s[0], {s[2]: 1, s[4]: 2, s[6]: 3})
    play_table(table2, s[1], {s[3]: 1, s[5]: 2, s[7]: 3})
    final = stages.stage_seat(tournament=t, stage="final")
    assert seated(final) == [[s[0], s[1], s[2], s[3]]]
    # Seed 4 wins the final narrowly; by the final alone they are first, with
    # the carried-over qualifying bonuses seed 1 stays first.
    play_table(final.matches.get(), s[3], {s[0]: 1, s[1]: 2, s[2]: 3})
    places = final_places_for(tournament=t)
    top = [r.player_id for r in places[:4]]
    if carry_over:
        assert top == [s[0], s[1], s[2], s[3]]
    else:
        assert top == [s[3], s[0], s[1], s[2]]
    assert [r.stage for r in places[:9]] == ["final"] * 4 + ["semifinal"] * 4 + ["qualifying"]
    assert [r.rank for r in places] == list(range(1, 13))
    assert [r.player_id for r in places[4:8]] == [s[4], s[5], s[6], s[7]]
    assert [r.player_id for r in places[8:]] == s[8:]
