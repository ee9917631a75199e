"""A recorded game keeps the racks it stored (``game_racks``), so that its
snapshot and its answer read nothing again; what it keeps is what a read gives."""

from __future__ import annotations

import pytest

from scoring.rules import RackIn
from tests.factories import match_seated, seated_ids
from tournaments.models import Game, Rack
from tournaments.services.games import game_racks, game_record, game_snapshot

pytestmark = pytest.mark.django_db


def racks_of(match):
    ids = seated_ids(match)
    return [RackIn(player=ids[0], tiles="")] + [
        RackIn(player=p, points=7 * n, jokers=n % 2) for n, p in enumerate(ids[1:], start=1)
    ]


def fields(racks: list[Rack]) -> list[tuple[object, ...]]:
    return [
        (r.pk, r.player_id, r.position, r.tiles, r.points, r.jokers, r.score, r.table_points)
        for r in racks
    ]


def test_the_racks_kept_are_those_stored_and_read_nothing(django_assert_num_queries):
    match = match_seated(players=4)
    game = game_record(match=match, ending="rummikub", racks=racks_of(match))
    with django_assert_num_queries(0):
        kept = game_racks(game)
        snapshot = game_snapshot(game)
    stored = Game.objects.get(pk=game.pk)
    assert fields(kept) == fields(game_racks(stored))
    assert snapshot == game_snapshot(stored)
    assert [r.position for r in kept] == [1, 2, 3, 4]


def test_a_game_read_again_reads_its_racks_in_seat_order():
    match = match_seated(players=3)
    game = game_record(match=match, ending="rummikub", racks=list(reversed(racks_of(match))))
    assert [r.position for r in game_racks(Game.objects.get(pk=game.pk))] == [1, 2, 3]
