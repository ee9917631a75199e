"""Instances inserted by one written-out statement read as the ORM's own."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.forms.models import model_to_dict

from tests.factories import match_seated, seated_ids
from tournaments.models import AuditEvent, Game, IdempotencyKey, Rack
from tournaments.services.statement_inserts import instance_insert, instances_insert

pytestmark = pytest.mark.django_db


def _stored(obj):
    return model_to_dict(type(obj).objects.get(pk=obj.pk))


def test_a_game_its_racks_and_its_event_read_back_as_the_orm_stores_them(
    django_assert_num_queries,
):
    match = match_seated(players=3)
    ids = seated_ids(match)
    with django_assert_num_queries(1):
        game = instance_insert(Game(match=match, number=1, ending="rummikub", entry_sources=[]))
    assert game.pk is not None and not game._state.adding
    orm = Game.objects.create(match=match, number=2, ending="rummikub", entry_sources=[])
    mine, theirs = _stored(game), _stored(orm)
    for name in ("id", "number", "created", "updated"):
        mine.pop(name, None), theirs.pop(name, None)
    assert mine == theirs
    # Creation times as the ORM sets them.
    assert game.created is not None and game.updated is not None
    racks = [
        Rack(
            game=game,
            player_id=p,
            position=i,
            tiles="R5 J" if i == 2 else "",
            entered_as_tiles=True,
            points=0,
            jokers=1 if i == 2 else 0,
            rack_value=35 if i == 2 else 0,
            score=Decimal("-35.00") if i == 2 else Decimal("17.50"),
            bonus=Decimal("0.00"),
            winner=i != 2,
            table_points=Decimal("2.50"),
        )
        for i, p in enumerate(ids, start=1)
    ]
    with django_assert_num_queries(1):
        instances_insert(racks)
    assert [r.pk for r in racks] == list(
        Rack.objects.filter(game=game).order_by("position").values_list("pk", flat=True)
    )
    assert [(r.player_id, r.score, r.tiles) for r in game.racks.order_by("position")] == [
        (p, Decimal("17.50") if i != 2 else Decimal("-35.00"), "R5 J" if i == 2 else "")
        for i, p in enumerate(ids, start=1)
    ]
    event = instance_insert(
        AuditEvent(
            tournament=match.round.tournament,
            action=AuditEvent.Action.GAME_RECORDED,
            match=match,
            object_id=game.pk,
            new={"racks": [{"score": "17.5"}]},
        )
    )
    assert AuditEvent.objects.get(pk=event.pk).new == {"racks": [{"score": "17.5"}]}


def test_a_refused_insert_is_the_databases_refusal():
    instance_insert(IdempotencyKey(caller="user:1", key="k", fingerprint="f"))
    with pytest.raises(IntegrityError), transaction.atomic():
        instance_insert(IdempotencyKey(caller="user:1", key="k", fingerprint="g"))
    assert IdempotencyKey.objects.filter(caller="user:1").count() == 1
    assert connection.vendor in {"sqlite", "postgresql"}
