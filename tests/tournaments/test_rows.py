"""tournaments/rows.py: written-out reads and writes give what the ORM gives."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models import Model

from scoring.rules import RackIn
from tests.factories import MatchFactory, match_seated, seated_ids
from tournaments import rows
from tournaments.models import AuditEvent, Game, IdempotencyKey, Match, Rack, Seat, Tournament
from tournaments.services.games import game_record

pytestmark = pytest.mark.django_db


def values(obj: Model) -> dict[str, object]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_a_token_reads_the_match_round_and_tournament_as_the_orm_does():
    match = match_seated(winner_bonus=50, loss_cap=25)
    Tournament.objects.filter(pk=match.round.tournament_id).update(
        bye_score=Decimal("12.5"), table_points={"4": [4, 3, 1, 0]}
    )
    orm = Match.objects.select_related("round__tournament").get(pk=match.pk)
    read = rows.match_by_token(match.token)
    assert read is not None
    assert values(read) == values(orm)
    assert values(read.round) == values(orm.round)
    assert values(read.round.tournament) == values(orm.round.tournament)
    assert read.round.tournament.bye_score == Decimal("12.5")
    assert read.round.tournament.rules() == orm.round.tournament.rules()
    assert rows.match_by_token("no-such-token") is None


def test_a_token_brings_the_seats_along(django_assert_num_queries):
    match = match_seated(players=3)
    with django_assert_num_queries(1):
        read = rows.match_by_token(match.token)
        assert read is not None
        seats = list(read.seats.all())
    assert [values(s) for s in seats] == [values(s) for s in rows.seats_read(match.pk)]
    assert [s.player.name for s in seats] == [s.player.name for s in rows.seats_read(match.pk)]
    bare = MatchFactory()
    read = rows.match_by_token(bare.token)
    assert read is not None and read.pk == bare.pk and list(read.seats.all()) == []


def test_seats_come_in_seat_order_with_their_players_names():
    match = match_seated(players=3)
    read = rows.seats_read(match.pk)
    orm = list(match.seats.select_related("player").order_by("position"))
    assert [values(s) for s in read] == [values(s) for s in orm]
    assert [s.player.name for s in read] == [s.player.name for s in orm]
    assert rows.seats_read(0) == []


def test_the_match_now_holds_its_seats_and_game_numbers():
    match = match_seated()
    ids = seated_ids(match)
    pairs, numbers = rows.match_now_read(match.pk)
    assert pairs == set(Seat.objects.filter(match=match).values_list("player_id", "position"))
    assert numbers == set()
    racks = [RackIn(player=ids[0], tiles="")] + [RackIn(player=p, points=5) for p in ids[1:]]
    game_record(match=match, ending="rummikub", racks=racks, number=3)
    assert rows.match_now_read(match.pk)[1] == {3}


def test_the_tournament_row_as_stored_now():
    match = match_seated()
    tournament = match.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    read = rows.tournament_read(tournament.pk, share=False)
    assert read is not None and values(read) == values(Tournament.objects.get(pk=tournament.pk))
    assert rows.tournament_read(0, share=False) is None


def test_inserted_rows_read_back_as_they_were_built():
    match = match_seated()
    ids = seated_ids(match)
    with transaction.atomic():
        game = rows.rows_insert([Game(match=match, number=1, ending="rummikub")])[0]
        racks = rows.rows_insert(
            [
                Rack(
                    game=game,
                    player_id=pid,
                    position=n,
                    points=n,
                    rack_value=n,
                    score=Decimal("-3.33") if n else Decimal("9.99"),
                    table_points=Decimal("1.50"),
                    winner=n == 0,
                )
                for n, pid in enumerate(ids)
            ]
        )
        event = rows.rows_insert(
            [
                AuditEvent(
                    tournament=match.round.tournament,
                    action=AuditEvent.Action.GAME_RECORDED,
                    match=match,
                    new={"racks": [1, 2], "ending": "rummikub"},
                )
            ]
        )[0]
    assert game.pk and game.created is not None and game.updated is not None
    assert not game._state.adding
    assert values(Game.objects.get(pk=game.pk)) == values(game)
    assert [values(r) for r in Rack.objects.filter(game=game).order_by("position")] == [
        values(r) for r in racks
    ]
    assert AuditEvent.objects.get(pk=event.pk).new == {"racks": [1, 2], "ending": "rummikub"}
    assert rows.rows_insert([]) == []


def test_a_row_a_unique_constraint_forbids_is_skipped_without_an_error():
    def claim() -> list[IdempotencyKey]:
        key = IdempotencyKey(caller="match:1", key="k", fingerprint="f")
        return rows.rows_insert([key], unless=("caller", "key"))

    with transaction.atomic():
        assert len(claim()) == 1
        assert claim() == []  # and the transaction goes on
        assert IdempotencyKey.objects.count() == 1
    with pytest.raises(ValueError):
        rows.rows_insert(
            [IdempotencyKey(caller="a", key="1"), IdempotencyKey(caller="a", key="2")],
            unless=("caller", "key"),
        )


def test_an_update_writes_the_fields_named_and_no_other():
    key = IdempotencyKey.objects.create(caller="match:1", key="k", fingerprint="f")
    key.status, key.content, key.headers = 201, b"{}", {"ETag": '"1"'}
    key.fingerprint = "not written"
    rows.row_update(key, ["status", "content", "headers"])
    stored = IdempotencyKey.objects.get(pk=key.pk)
    assert (stored.status, bytes(stored.content), stored.headers) == (201, b"{}", {"ETag": '"1"'})
    assert stored.fingerprint == "f"
    with pytest.raises(ValueError):
        rows.row_update(key, ["status", "no_such_field"])
