"""A whole Swiss tournament, end to end through the services.

200 players, 7 qualifying rounds, semi-finals of 8 and a final of 4. Every
game goes through ``game_record`` (points entry). Two games a round instead
of the usual four keep the test near ten seconds: it records 7 × 50 × 2 + 4
= 704 games, and four games a round would only repeat the same paths.
Between rounds players withdraw, check out and arrive late, as on a real day.
"""

import itertools
from collections import Counter

import pytest

from tests.factories import PlayerFactory, round_play, seated_ids, tournament_entered
from tournaments.models import Entry, Rack, Round, Seat
from tournaments.selectors.standings import final_places_for, stage_entrants, standings_for
from tournaments.services import entries, rounds, stages

pytestmark = pytest.mark.django_db

PLAYERS = 200
QUALIFYING = 7


def tables_of(round_: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for table, pid in (
        Seat.objects.filter(round=round_)
        .order_by("match__table", "position")
        .values_list("match__table", "player_id")
    ):
        tables.setdefault(table, []).append(pid)
    return list(tables.values())


def active_ids(t) -> set[int]:
    return set(t.entries.filter(status=Entry.Status.ACTIVE).values_list("player_id", flat=True))


def test_a_200_player_swiss_tournament_with_semifinals_and_a_final():
    t = tournament_entered(
        players=PLAYERS,
        seating="swiss",
        rounds=QUALIFYING,
        games_per_round=2,
        semifinal_players=8,
        seed=2026,
    )
    everyone = sorted(t.entries.values_list("player_id", flat=True))
    late = PlayerFactory()
    entries.entries_add(tournament=t, player_ids=[late.pk], status=Entry.Status.ABSENT)

    meetings: Counter[frozenset[int]] = Counter()
    repeats_per_round = []
    for number in range(1, QUALIFYING + 1):
        if number == 3:
            entries.entry_withdraw(tournament=t, player_id=everyone[10])
            entries.entry_check_out(tournament=t, player_id=everyone[11])
            entries.entry_activate(tournament=t, player_id=late.pk)
        if number == 5:
            entries.entry_activate(tournament=t, player_id=everyone[11])
        expected = active_ids(t)
        round_ = rounds.round_seat_next(tournament=t)
        tables = tables_of(round_)
        seated = [p for table in tables for p in table]
        # Every active player once, nobody else; tables of 4 (and 3s when needed).
        assert Counter(seated) == Counter(expected), number
        assert all(3 <= len(table) <= 4 for table in tables)
        repeats = 0
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                repeats += meetings[frozenset((a, b))] > 0
                meetings[frozenset((a, b))] += 1
        repeats_per_round.append(repeats)
        round_play(round_, seed=number)
    # Swiss with 200 players meets nobody twice in the first rounds.
    assert repeats_per_round[:4] == [0, 0, 0, 0], repeats_per_round
    assert sum(repeats_per_round) <= 5, repeats_per_round

    qualifying = standings_for(tournament=t, stage="qualifying")
    assert len(qualifying) == PLAYERS + 1
    assert sum(r.score for r in qualifying) == 0  # every game sums to zero; no byes
    withdrawn = next(r for r in qualifying if r.player_id == everyone[10])
    assert withdrawn.withdrawn and withdrawn.games == 2 * 2  # rounds 1-2 kept
    top8 = [r.player_id for r in qualifying if r.active][:8]

    semi = stages.stage_seat(tournament=t, stage="semifinal")
    assert tables_of(semi) == [top8[0::2], top8[1::2]]
    round_play(semi, seed=99)
    finalists = stage_entrants(tournament=t, stage="final")[:4]
    final = stages.stage_seat(tournament=t, stage="final")
    assert tables_of(final) == [finalists]
    semi_tables = tables_of(semi)
    semi_rows = {r.player_id: r for r in standings_for(tournament=t, stage="semifinal")}
    # Each semi-final table's best player reaches the final.
    for table in semi_tables:
        best = max(semi_rows[p].score for p in table)
        assert any(semi_rows[p].score == best for p in finalists if p in table)
    match = final.matches.get()
    round_play(final, seed=7)
    assert match.games.count() == 2

    places = final_places_for(tournament=t)
    assert len(places) == PLAYERS + 1
    assert {r.player_id for r in places[:4]} == set(finalists)
    assert {r.player_id for r in places[4:8]} == set(top8) - set(finalists)
    assert [r.rank for r in places[:8]] == list(range(1, 9))
    final_rows = {r.player_id: r for r in standings_for(tournament=t, stage="final")}
    scores = [final_rows[r.player_id].score for r in places[:4]]
    assert scores == sorted(scores, reverse=True)  # by the final alone (no carry-over)
    rest = [r.player_id for r in places[8:]]
    assert rest == [r.player_id for r in qualifying if r.player_id not in set(top8)]
    # Every seated player has a rack in each of the 2 games of every round.
    assert Rack.objects.filter(game__match__round__tournament=t).count() == (
        Seat.objects.filter(round__tournament=t).count() * 2
    )
    assert seated_ids(match) == finalists
