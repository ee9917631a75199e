"""Each format's event, end to end through the services: created from its
preset, players entered, rounds seated and played, the stages as the format
says. Games are dealt at random (``tournaments.demo``) where the exact racks
do not matter and written out where they do."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from scoring.errors import ConflictError
from scoring.rules import RackIn
from tests.factories import PlayerFactory, UserFactory, round_play, seated_ids
from tournaments.demo import match_play
from tournaments.models import Game, Rack, Round, Tournament
from tournaments.selectors.standings import (
    final_places_for,
    finals_decided,
    stage_entrants,
    standings_for,
)
from tournaments.services import entries, rounds, stages, tournaments
from tournaments.services.games import game_record
from tournaments.standings.stage_rows import half_up

pytestmark = pytest.mark.django_db


def event(format_: str, players: int) -> Tournament:
    t = tournaments.tournament_create(owner=UserFactory(), name=format_, format=format_, seed=7)
    people = PlayerFactory.create_batch(players)
    entries.entries_add(tournament=t, player_ids=[p.pk for p in people])
    return t


def qualifying_played(t: Tournament) -> None:
    for _ in range(t.rounds):
        round_play(rounds.round_seat_next(tournament=t), seed=t.pk)


def test_belgian_club_final_is_the_best_four_by_semifinal_points_in_one_game():
    t = event("belgian_club", 16)
    qualifying_played(t)
    assert Round.objects.filter(tournament=t).get().games_per_match == 3
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    assert semi.games_per_match == 2 and [len(seated_ids(m)) for m in semi.matches.all()] == [4, 4]
    # A joker left on a rack costs 25 here.
    match = semi.matches.order_by("table").first()
    a, b, c, d = seated_ids(match)
    game_record(
        match=match,
        ending="rummikub",
        racks=[
            RackIn(player=a, points=0, jokers=0),
            RackIn(player=b, points=5, jokers=1),
            RackIn(player=c, points=3, jokers=0),
            RackIn(player=d, points=1, jokers=0),
        ],
    )
    assert Rack.objects.get(game__match=match, player_id=b).rack_value == 30
    for m in semi.matches.all():
        match_play(match=m, rng=random.Random(m.pk), games_played=2 - m.games.count())
    semi_points = [
        r.player_id
        for r in standings_for(tournament=t, stage="semifinal")
        if r.games  # the semi-finalists
    ]
    final = stages.stage_seat(tournament=t, stage="final")
    assert final.games_per_match == 1
    assert seated_ids(final.matches.get()) == semi_points[:4]
    assert stage_entrants(tournament=t, stage="final")[:4] == semi_points[:4]
    round_play(final, seed=2)
    tournaments.tournament_finish(tournament=t)
    places = final_places_for(tournament=t)
    # No carry-over: the final's places are by the final's one game alone.
    final_alone = [r.player_id for r in standings_for(tournament=t, stage="final") if r.games]
    assert [r.player_id for r in places[:4]] == final_alone


def test_dutch_championship_final_stops_at_four_wins_and_refuses_a_further_game():
    t = event("dutch_championship", 12)
    qualifying_played(t)
    round_play(stages.stage_seat(tournament=t, stage="semifinal"), seed=3)
    final = stages.stage_seat(tournament=t, stage="final")
    match = final.matches.get()
    rng = random.Random(4)
    while not finals_decided(rounds=[final]):
        match_play(match=match, rng=rng, games_played=1)
    winner, wins = finals_decided(rounds=[final])[match.pk]
    assert wins == 4 and 4 <= match.games.count() <= 13
    games = Game.objects.count()
    with pytest.raises(ConflictError, match="The final is decided"):
        match_play(match=match, rng=rng, games_played=1)
    assert Game.objects.count() == games
    tournaments.tournament_finish(tournament=t)
    assert final_places_for(tournament=t)[0].player_id == winner


def test_japanese_qualifier_ranks_by_wins_and_carries_half_into_the_final():
    t = event("japanese_qualifier", 12)
    qualifying_played(t)
    table = standings_for(tournament=t)
    keys = [(r.wins, r.score) for r in table]
    assert keys == sorted(keys, reverse=True)  # wins, then score (then countback)
    before = {r.player_id: r.score for r in table}
    final = stages.stage_seat(tournament=t, stage="final")
    assert seated_ids(final.matches.get()) == [r.player_id for r in table[:4]]
    round_play(final, seed=5)
    alone = {r.player_id: r.score for r in standings_for(tournament=t, stage="final") if r.games}
    for row in final_places_for(tournament=t)[:4]:
        assert row.score == alone[row.player_id] + half_up(before[row.player_id])


def test_two_player_swiss_seats_pairs_only():
    t = event("two_player_swiss", 9)
    for _ in range(5):
        round_ = rounds.round_seat_next(tournament=t)
        sizes = [len(seated_ids(m)) for m in round_.matches.all()]
        assert sizes == [2, 2, 2, 2] and round_.games_per_match == 1
        round_play(round_, seed=6)
    assert t.round_set.count() == 5
    tournaments.tournament_finish(tournament=t)


def test_bonus_league_totals_include_the_bonuses():
    t = event("bonus_league", 4)
    round_ = rounds.round_seat_next(tournament=t)
    match = round_.matches.get()
    a, b, c, d = seated_ids(match)
    game_record(
        match=match,
        ending="rummikub",
        racks=[
            RackIn(player=a, points=0, jokers=0),
            RackIn(player=b, points=31, jokers=0),
            RackIn(player=c, points=15, jokers=0),
            RackIn(player=d, points=10, jokers=0),
        ],
    )
    racks = {r.player_id: r for r in Rack.objects.filter(game__match=match)}
    assert [racks[p].score for p in (a, b, c, d)] == [50, -25, -15, -10]
    assert [racks[p].bonus for p in (a, b, c, d)] == [50, 0, 0, 5]
    totals = {r.player_id: r.score for r in standings_for(tournament=t)}
    assert [totals[p] for p in (a, b, c, d)] == [Decimal(100), -25, -15, -5]
