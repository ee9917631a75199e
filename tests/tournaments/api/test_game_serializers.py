"""A game as the API answers it: the written-out fields equal DRF's own walk
over the declared fields (which the OpenAPI document reads)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from rest_framework import serializers

from scoring.rules import RackIn
from tests.factories import match_seated, seated_ids
from tests.tournaments.web.trust_support import phone
from tournaments.api.game_serializers import GameSerializer
from tournaments.models import Game, Tournament
from tournaments.selectors import visible as selectors
from tournaments.services.games import game_record
from tournaments.services.results import game_enter

pytestmark = pytest.mark.django_db


def both(game: Game, organiser: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    serializer = GameSerializer(game, context={"organiser": organiser})
    generic = serializers.Serializer.to_representation(serializer, game)
    return serializer.fields_data(game), dict(generic)


@pytest.mark.parametrize("organiser", [False, True])
def test_every_kind_of_game_reads_as_drf_would_read_it(organiser):
    plain = match_seated(players=4)
    bonus = match_seated(players=3, winner_bonus=50, runner_up_bonus=5, loss_cap=25)
    double = match_seated(players=2, confirmation=Tournament.Confirmation.DOUBLE_ENTRY)
    games = []
    ids = seated_ids(plain)
    games.append(
        game_record(
            match=plain,
            ending="rummikub",
            racks=[RackIn(player=ids[0], tiles=""), RackIn(player=ids[1], tiles="R5 J")]
            + [RackIn(player=p, points=13, jokers=n) for n, p in enumerate(ids[2:])],
        )
    )
    ids = seated_ids(plain)
    games.append(
        game_record(
            match=plain,
            ending="pool_exhausted",
            racks=[RackIn(player=p, points=3 * n + 2) for n, p in enumerate(ids)],
        )
    )
    ids = seated_ids(bonus)
    games.append(
        game_record(
            match=bonus,
            ending="rummikub",
            racks=[
                RackIn(player=ids[0], tiles=""),
                RackIn(player=ids[1], points=40),
                RackIn(player=ids[2], points=7),
            ],
        )
    )
    ids = seated_ids(double)
    first = [RackIn(player=ids[0], tiles=""), RackIn(player=ids[1], points=9)]
    link = AnonymousUser()
    entered = game_enter(match=double, ending="rummikub", racks=first, number=1, user=link)
    games.append(entered.game)
    second = [RackIn(player=ids[0], points=4), RackIn(player=ids[1], tiles="")]
    game_enter(match=double, ending="rummikub", racks=second, number=1, user=link, source=phone())
    for game in games:
        read = selectors.game_detail(pk=game.pk)
        written, generic = both(read, organiser)
        assert written == generic
    disputed = selectors.game_detail(pk=entered.game.pk)
    assert disputed.state == Game.State.DISPUTED
    written, _ = both(disputed, organiser)
    assert (written["second_entry"] is not None) is organiser
    paid, _ = both(selectors.game_detail(pk=games[2].pk), organiser)
    assert any(r["bonus"] for r in paid["scores"])
