"""Entries: registering players, checking them in and out, withdrawing them."""

import pytest

from scoring.errors import UserError
from tests.factories import (
    PlayerFactory,
    round_play,
    tournament_entered,
)
from tests.tournaments.services.support import entry_ids, seated
from tournaments.selectors.standings import standings_for
from tournaments.services import entries, rounds

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- entries


def test_entries_add_absent_then_check_in_seats_the_late_arrival():
    t = tournament_entered(players=8, games_per_round=1)
    late = PlayerFactory()
    entries.entries_add(tournament=t, player_ids=[late.pk], status="absent")
    first = rounds.round_seat_next(tournament=t)
    assert late.pk not in {p for table in seated(first) for p in table}
    round_play(first)
    entries.entry_activate(tournament=t, player_id=late.pk)
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
    entries.entry_withdraw(tournament=t, player_id=gone)
    entries.entry_check_out(tournament=t, player_id=away)
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
        entries.entry_withdraw(tournament=t, player_id=stranger.pk)
    with pytest.raises(UserError, match="not entered"):
        entries.entry_activate(tournament=t, player_id=stranger.pk)
    with pytest.raises(UserError, match="No player with id"):
        entries.entries_add(tournament=t, player_ids=[stranger.pk + 1000])


def test_attendance_set_runs_a_league_night_with_whoever_came():
    t = tournament_entered(players=10, kind="league", games_per_round=1, rounds=20)
    ids = entry_ids(t)
    newcomer = PlayerFactory()
    tonight = [*ids[:6], newcomer.pk]
    entries.attendance_set(tournament=t, player_ids=tonight)
    night = rounds.round_seat_next(tournament=t)
    assert sorted(p for table in seated(night) for p in table) == sorted(tonight)
    statuses = dict(t.entries.values_list("player_id", "status"))
    assert statuses[ids[7]] == "absent" and statuses[newcomer.pk] == "active"
