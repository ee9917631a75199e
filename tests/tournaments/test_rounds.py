from decimal import Decimal

import pytest

from scoring.errors import ConflictError, UserError
from tests.factories import (
    PlayerFactory,
    UserFactory,
    round_play,
    seated_ids,
    tournament_entered,
)
from tournaments import seating
from tournaments.models import Adjustment, Entry, Game, Round, Seat, Tournament
from tournaments.selectors import final_places_for, standings_for
from tournaments.services import rounds
from tournaments.services.games import RackEntry, game_record

pytestmark = pytest.mark.django_db


def seated(round_: Round) -> list[list[int]]:
    return [seated_ids(m) for m in round_.matches.order_by("table")]


def entry_ids(t: Tournament) -> list[int]:
    return list(t.entries.order_by("player_id").values_list("player_id", flat=True))


def force_order(t: Tournament, order: list[int]) -> None:
    """Make the qualifying standings follow ``order`` with big event bonuses."""
    for i, pid in enumerate(order):
        rounds.adjustment_add(
            tournament=t,
            player_id=pid,
            points=10_000 * (len(order) - i),
            reason="seed",
            kind="bonus",
        )


def play_table(match, winner: int, losers_points: dict[int, int] | None = None, games=None):
    """Record every game of a match with ``winner`` going out; others hold their points."""
    ids = seated_ids(match)
    for _ in range(games or match.round.games_per_match):
        game_record(
            match=match,
            ending="rummikub",
            racks=[
                RackEntry(player=p, points=0 if p == winner else (losers_points or {}).get(p, 10))
                for p in ids
            ],
        )


# ---------------------------------------------------------------- entries


def test_entries_add_absent_then_check_in_seats_the_late_arrival():
    t = tournament_entered(players=8, games_per_round=1)
    late = PlayerFactory()
    rounds.entries_add(tournament=t, player_ids=[late.pk], status="absent")
    first = rounds.round_seat_next(tournament=t)
    assert late.pk not in {p for table in seated(first) for p in table}
    round_play(first)
    rounds.entry_activate(tournament=t, player_id=late.pk)
    second = rounds.round_seat_next(tournament=t)
    flat = [p for table in seated(second) for p in table]
    assert late.pk in flat and len(flat) == 9 and len(set(flat)) == 9
    assert sorted(len(t) for t in seated(second)) == [3, 3, 3]


def test_withdrawn_and_checked_out_players_are_not_seated_but_keep_their_results():
    t = tournament_entered(players=9, games_per_round=1)
    first = rounds.round_seat_next(tournament=t)
    round_play(first)
    gone, away = entry_ids(t)[:2]
    before = {r.player_id: r.score for r in standings_for(tournament=t)}
    rounds.entry_withdraw(tournament=t, player_id=gone)
    rounds.entry_check_out(tournament=t, player_id=away)
    second = rounds.round_seat_next(tournament=t)
    flat = {p for table in seated(second) for p in table}
    assert gone not in flat and away not in flat and len(flat) == 7
    rows = {r.player_id: r for r in standings_for(tournament=t)}
    assert rows[gone].withdrawn and rows[gone].score == before[gone] and rows[gone].games == 1
    assert rows[away].absent and not rows[away].withdrawn


def test_entry_services_refuse_a_player_who_is_not_entered():
    t = tournament_entered(players=4)
    stranger = PlayerFactory()
    with pytest.raises(UserError, match="not entered"):
        rounds.entry_withdraw(tournament=t, player_id=stranger.pk)
    with pytest.raises(UserError, match="not entered"):
        rounds.entry_activate(tournament=t, player_id=stranger.pk)
    with pytest.raises(UserError, match="No player with id"):
        rounds.entries_add(tournament=t, player_ids=[stranger.pk + 1000])


def test_attendance_set_runs_a_league_night_with_whoever_came():
    t = tournament_entered(players=10, kind="league", games_per_round=1, rounds=20)
    ids = entry_ids(t)
    newcomer = PlayerFactory()
    tonight = [*ids[:6], newcomer.pk]
    rounds.attendance_set(tournament=t, player_ids=tonight)
    night = rounds.round_seat_next(tournament=t)
    assert sorted(p for table in seated(night) for p in table) == sorted(tonight)
    statuses = dict(t.entries.values_list("player_id", "status"))
    assert statuses[ids[7]] == "absent" and statuses[newcomer.pk] == "active"


# ---------------------------------------------------------------- seating rounds


def test_the_next_round_waits_for_every_result_of_the_last():
    t = tournament_entered(players=8, games_per_round=2)
    first = rounds.round_seat_next(tournament=t)
    match = first.matches.get(table=2)
    play_table(match, seated_ids(match)[0], games=1)
    with pytest.raises(
        ConflictError, match=r"Round 1 is not finished: results are missing at table 1, 2\."
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
    rounds.entries_add(tournament=t, player_ids=[late.pk])
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
        rounds.round_manual_set(round=round_, tables=[["x"]])  # type: ignore[list-item]
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
    semi = rounds.stage_seat(tournament=t, stage="semifinal")
    assert semi.stage == "semifinal" and semi.number == 2
    s = order
    assert seated(semi) == [[s[0], s[2], s[4], s[6]], [s[1], s[3], s[5], s[7]]]
    assert not Adjustment.objects.filter(round=semi).exists()


def test_semifinals_skip_withdrawn_players_and_can_be_reseated():
    t, order = qualified()
    semi = rounds.stage_seat(tournament=t, stage="semifinal")
    rounds.entry_withdraw(tournament=t, player_id=order[0])
    rounds.round_reseat(round=semi)
    s = order[1:]
    assert seated(semi) == [[s[0], s[2], s[4], s[6]], [s[1], s[3], s[5], s[7]]]


def test_other_semifinal_sizes_deal_seeds_round_the_tables():
    t, order = qualified(players=14, semis=12)
    semi = rounds.stage_seat(tournament=t, stage="semifinal")
    s = order
    assert seated(semi) == [
        [s[0], s[3], s[6], s[9]],
        [s[1], s[4], s[7], s[10]],
        [s[2], s[5], s[8], s[11]],
    ]
    t4, order4 = qualified(players=6, semis=4)
    assert seated(rounds.stage_seat(tournament=t4, stage="semifinal")) == [order4[:4]]


def test_stage_seating_refusals():
    t, _order = qualified(semis=0)
    with pytest.raises(ConflictError, match="no semi-finals"):
        rounds.stage_seat(tournament=t, stage="semifinal")
    with pytest.raises(UserError, match="not quarterfinal"):
        rounds.stage_seat(tournament=t, stage="quarterfinal")
    fresh = tournament_entered(players=8, semifinal_players=8)
    with pytest.raises(ConflictError, match="Play the qualifying rounds"):
        rounds.stage_seat(tournament=fresh, stage="semifinal")
    t2, _order = qualified(semis=8)
    with pytest.raises(ConflictError, match="seat and play them before the final"):
        rounds.stage_seat(tournament=t2, stage="final")
    semi = rounds.stage_seat(tournament=t2, stage="semifinal")
    with pytest.raises(ConflictError, match="already seated"):
        rounds.stage_seat(tournament=t2, stage="semifinal")
    with pytest.raises(ConflictError, match="not finished"):
        rounds.stage_seat(tournament=t2, stage="final")
    round_play(semi)
    t2.rounds = 5
    t2.save()
    with pytest.raises(ConflictError, match="no more qualifying rounds"):
        rounds.round_seat_next(tournament=t2)
    t3, _ = qualified(players=12, semis=16)
    with pytest.raises(ConflictError, match="seats 16 players, but only 12"):
        rounds.stage_seat(tournament=t3, stage="semifinal")


def test_final_takes_the_semifinal_table_winners_then_the_best_of_the_rest():
    t, s = qualified()
    semi = rounds.stage_seat(tournament=t, stage="semifinal")
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
    final = rounds.stage_seat(tournament=t, stage="final")
    assert seated(final) == [s[:4]]


@pytest.mark.parametrize("carry_over", [False, True])
def test_final_places_by_the_final_alone_or_with_points_carried_over(carry_over):
    t, s = qualified(final_carry_over=carry_over)
    semi = rounds.stage_seat(tournament=t, stage="semifinal")
    table1, table2 = semi.matches.order_by("table")
    play_table(table1, s[0], {s[2]: 1, s[4]: 2, s[6]: 3})
    play_table(table2, s[1], {s[3]: 1, s[5]: 2, s[7]: 3})
    final = rounds.stage_seat(tournament=t, stage="final")
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


# ---------------------------------------------------------------- adjustments


def test_adjustment_add_stores_a_penalty_with_its_reason_and_author():
    t = tournament_entered(players=4)
    pid = entry_ids(t)[0]
    user = UserFactory(password=None)
    adj = rounds.adjustment_add(
        tournament=t, player_id=pid, points="-10", reason="  slow play  ", user=user
    )
    assert adj.points == Decimal(-10) and adj.reason == "slow play" and adj.created_by == user
    assert standings_for(tournament=t)[-1].adjustments == -10


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"reason": " "}, "reason", "Give a reason"),
        ({"points": 10}, "points", "A penalty takes points away"),
        ({"points": -5, "kind": "bonus"}, "points", "A bonus adds points"),
        ({"points": "abc"}, "points", "must be a number"),
        ({"points": "1.005"}, "points", "at most 2 decimals"),
        ({"points": "1e9"}, "points", "at most 2 decimals"),
        ({"points": "NaN"}, "points", "at most 2 decimals"),
        ({"points": 0}, "points", "changes nothing"),
        ({"kind": "bye"}, "kind", "penalty or a bonus"),
        ({"player_id": -1}, "player", "not entered"),
    ],
)
def test_adjustment_add_refuses(kwargs, field, message):
    t = tournament_entered(players=2)
    args = {"tournament": t, "player_id": entry_ids(t)[0], "points": -3, "reason": "late"}
    with pytest.raises(UserError, match=message) as err:
        rounds.adjustment_add(**{**args, **kwargs})
    assert err.value.field == field
    assert not Adjustment.objects.exists()


def test_adjustment_in_a_round_of_another_tournament_is_refused():
    t = tournament_entered(players=2)
    other = tournament_entered(players=2)
    round_ = rounds.round_seat_next(tournament=other)
    with pytest.raises(UserError, match="another tournament"):
        rounds.adjustment_add(
            tournament=t, player_id=entry_ids(t)[0], points=-1, reason="x", round=round_
        )


def test_adjustment_delete_keeps_byes():
    t = tournament_entered(players=5, max_table_size=2)
    round_ = rounds.round_seat_next(tournament=t)
    with pytest.raises(ConflictError):
        rounds.adjustment_delete(adjustment=Adjustment.objects.get(round=round_))
    adj = rounds.adjustment_add(
        tournament=t, player_id=entry_ids(t)[0], points=2, reason="fair play", kind="bonus"
    )
    rounds.adjustment_delete(adjustment=adj)
    assert Adjustment.objects.filter(kind="bonus").count() == 0
    assert Seat.objects.filter(round=round_).count() == 4
    assert Entry.objects.filter(tournament=t).count() == 5
