"""Seating qualifying rounds, re-seating the last one, and tables set by hand."""

from decimal import Decimal

import pytest

from scoring.errors import ConflictError, UserError
from tests.factories import (
    PlayerFactory,
    round_play,
    seated_ids,
    tournament_entered,
)
from tests.tournaments.services.support import entry_ids, play_table, seated
from tournaments import seating
from tournaments.models import Adjustment, Game, Round
from tournaments.selectors.standings import standings_for
from tournaments.services import entries, rounds

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- seating rounds


def test_the_next_round_waits_for_every_result_of_the_last():
    t = tournament_entered(players=8, games_per_round=2)
    first = rounds.round_seat_next(tournament=t)
    match = first.matches.get(table=2)
    play_table(match, seated_ids(match)[0], games=1)
    with pytest.raises(
        ConflictError, match=r"Round 1 is not finished: results are missing at tables 1, 2\."
    ):
        rounds.round_seat_next(tournament=t)
    for m in first.matches.all():
        while m.games.count() < 2:
            play_table(m, seated_ids(m)[0], games=1)
    assert rounds.round_seat_next(tournament=t).number == 2


def test_no_more_qualifying_rounds_than_planned():
    t = tournament_entered(players=4, games_per_round=1, rounds=1)
    round_play(rounds.round_seat_next(tournament=t))
    with pytest.raises(ConflictError, match="All 1 planned rounds"):
        rounds.round_seat_next(tournament=t)


def test_a_round_needs_two_active_players():
    t = tournament_entered(players=1)
    with pytest.raises(ConflictError, match="at least 2 active players"):
        rounds.round_seat_next(tournament=t)


def test_balanced_keeps_one_plan_over_the_event():
    # 16 players, 5 rounds: the affine plan has no repeat meeting at all, but
    # only if every round is seated from the same seed.
    t = tournament_entered(players=16, seating="balanced", rounds=5, games_per_round=1, seed=7)
    history = []
    for _ in range(5):
        round_ = rounds.round_seat_next(tournament=t)
        history.append(seated(round_))
        round_play(round_)
    assert seating.schedule_quality(rounds=history).repeats == 0


def test_swiss_seats_by_standings_after_round_one():
    t = tournament_entered(players=16, seating="swiss", games_per_round=1)
    round_play(rounds.round_seat_next(tournament=t))
    order = [r.player_id for r in standings_for(tournament=t)]
    second = rounds.round_seat_next(tournament=t)
    top_table = set(seated(second)[0])
    # The leader sits at table 1 with players from near the top.
    assert order[0] in top_table
    assert max(order.index(p) for p in top_table) < 8


def test_byes_are_booked_with_the_bye_score():
    t = tournament_entered(players=5, max_table_size=2, bye_score=Decimal(5), games_per_round=1)
    first = rounds.round_seat_next(tournament=t)
    bye = Adjustment.objects.get(round=first, kind="bye")
    assert bye.points == 5 and bye.player_id not in {p for tb in seated(first) for p in tb}


# ---------------------------------------------------------------- re-seating


def test_reseat_takes_in_a_late_arrival_and_keeps_the_matches():
    t = tournament_entered(players=8, games_per_round=1)
    late = PlayerFactory()
    round_ = rounds.round_seat_next(tournament=t)
    tokens = dict(round_.matches.values_list("table", "token"))
    entries.entries_add(tournament=t, player_ids=[late.pk])
    rounds.round_reseat(round=round_)
    flat = [p for table in seated(round_) for p in table]
    assert late.pk in flat and len(flat) == 9
    after = dict(round_.matches.values_list("table", "token"))
    assert sorted(after) == [1, 2, 3] and after[1] == tokens[1] and after[2] == tokens[2]


def test_reseat_is_refused_once_a_game_is_recorded():
    t = tournament_entered(players=8, games_per_round=2)
    round_ = rounds.round_seat_next(tournament=t)
    match = round_.matches.first()
    play_table(match, seated_ids(match)[0], games=1)
    with pytest.raises(ConflictError) as err:
        rounds.round_reseat(round=round_)
    assert err.value.status == 409 and "1 recorded games" in str(err.value)


def test_only_the_last_round_can_be_reseated():
    t = tournament_entered(players=8, games_per_round=1)
    first = rounds.round_seat_next(tournament=t)
    round_play(first)
    Game.objects.filter(match__round=first).delete()  # results gone, but round 2 exists
    Round.objects.create(tournament=t, number=2)
    with pytest.raises(ConflictError, match="Only the last round"):
        rounds.round_reseat(round=first)


def test_manual_set_swaps_players_and_keeps_seat_order():
    t = tournament_entered(players=8, games_per_round=1)
    round_ = rounds.round_seat_next(tournament=t)
    (a, b, c, d), (e, f, g, h) = seated(round_)
    rounds.round_manual_set(round=round_, tables=[[e, b, c, d], [a, f, g, h]])
    assert seated(round_) == [[e, b, c, d], [a, f, g, h]]


def test_manual_set_refuses_bad_tables_and_keeps_the_old_ones():
    t = tournament_entered(players=8, games_per_round=1)
    round_ = rounds.round_seat_next(tournament=t)
    before = seated(round_)
    (a, b, c, d), (e, f, g, h) = before
    with pytest.raises(UserError, match="seated twice"):
        rounds.round_manual_set(round=round_, tables=[[a, b, c, d], [a, f, g, h]])
    with pytest.raises(UserError, match=f"Player {e} has no seat"):
        rounds.round_manual_set(round=round_, tables=[[a, b, c, d], [f, g, h]])
    with pytest.raises(UserError, match="seats 2 to 4"):
        rounds.round_manual_set(round=round_, tables=[[a, b, c, d, e], [f, g, h]])
    with pytest.raises(UserError, match="lists of player ids"):
        rounds.round_manual_set(round=round_, tables=[["x"]])
    assert seated(round_) == before


def test_manual_set_with_a_bye_and_after_results():
    t = tournament_entered(players=5, max_table_size=4, games_per_round=1)
    round_ = rounds.round_seat_next(tournament=t)
    ids = entry_ids(t)
    rounds.round_manual_set(round=round_, tables=[ids[:4]], byes=[ids[4]])
    assert seated(round_) == [ids[:4]]
    assert list(Adjustment.objects.filter(round=round_).values_list("player_id", "kind")) == [
        (ids[4], "bye")
    ]
    round_play(round_)
    with pytest.raises(ConflictError, match="recorded games"):
        rounds.round_manual_set(round=round_, tables=[ids[1:5]], byes=[ids[0]])
