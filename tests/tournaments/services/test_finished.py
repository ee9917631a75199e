"""A finished tournament is frozen: every service that changes what is in it
refuses with the same conflict, and nothing is stored, until it is reopened."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps

from scoring.errors import ConflictError
from scoring.rules import RackIn
from tests.factories import PlayerFactory, round_play, seated_ids, tournament_entered
from tournaments.models import Adjustment, Game, Player, Tournament
from tournaments.services import adjustments, entries, games, players, rounds, stages
from tournaments.services.tournaments import tournament_finish, tournament_reopen, tournament_update

pytestmark = pytest.mark.django_db

FROZEN = "The tournament is finished: reopen it to change it."


@pytest.fixture
def finished() -> Tournament:
    """One qualifying round of two tables played (one game each), a penalty, finished."""
    t = tournament_entered(players=8, games_per_round=1, rounds=2)
    round_play(rounds.round_seat_next(tournament=t))
    first = t.entries.order_by("player_id").first()
    assert first is not None
    adjustments.adjustment_add(tournament=t, player_id=first.player_id, points=-1, reason="Late")
    PlayerFactory(name="Spare")
    return tournament_finish(tournament=t)


def _game(t: Tournament) -> Game:
    return Game.objects.filter(match__round__tournament=t).order_by("pk")[0]


def _racks(game: Game) -> list[RackIn]:
    ids = seated_ids(game.match)
    return [RackIn(player=ids[0], tiles="")] + [RackIn(player=p, points=7) for p in ids[1:]]


def _player(t: Tournament) -> int:
    return t.entries.order_by("player_id").values_list("player_id", flat=True)[0]


WRITES: dict[str, Callable[[Tournament], Any]] = {
    "game_record": lambda t: games.game_record(
        match=_game(t).match, ending="rummikub", racks=_racks(_game(t))
    ),
    "game_correct": lambda t: games.game_correct(
        game=_game(t), ending="rummikub", racks=_racks(_game(t))
    ),
    "game_delete": lambda t: games.game_delete(game=_game(t)),
    "entries_add": lambda t: entries.entries_add(
        tournament=t, player_ids=[Player.objects.get(name="Spare").pk]
    ),
    "player_enter": lambda t: players.player_enter(tournament=t, name="Walk-in"),
    "players_import": lambda t: players.players_import(text="Newcomer,\n", tournament=t),
    "entry_withdraw": lambda t: entries.entry_withdraw(tournament=t, player_id=_player(t)),
    "entry_check_out": lambda t: entries.entry_check_out(tournament=t, player_id=_player(t)),
    "entry_activate": lambda t: entries.entry_activate(tournament=t, player_id=_player(t)),
    "attendance_set": lambda t: entries.attendance_set(tournament=t, player_ids=[_player(t)]),
    "round_seat_next": lambda t: rounds.round_seat_next(tournament=t),
    "stage_seat": lambda t: stages.stage_seat(tournament=t, stage="final"),
    "round_reseat": lambda t: rounds.round_reseat(round=t.round_set.get()),
    "round_manual_set": lambda t: rounds.round_manual_set(round=t.round_set.get(), tables=[[1, 2]]),
    "adjustment_add": lambda t: adjustments.adjustment_add(
        tournament=t, player_id=_player(t), points=5, reason="Fair play", kind="bonus"
    ),
    "adjustment_delete": lambda t: adjustments.adjustment_delete(
        adjustment=Adjustment.objects.get(tournament=t, kind=Adjustment.Kind.PENALTY)
    ),
    "tournament_update": lambda t: tournament_update(tournament=t, rounds=3),
}


def database() -> dict[str, list[dict[str, Any]]]:
    return {
        m._meta.label: list(m.objects.order_by("pk").values())
        for m in apps.get_app_config("tournaments").get_models()
    }


@pytest.mark.parametrize("write", sorted(WRITES))
def test_a_finished_tournament_refuses_every_change(finished, write):
    before = database()
    with pytest.raises(ConflictError) as caught:
        WRITES[write](finished)
    assert caught.value.render() == FROZEN and caught.value.field == "non_field_errors"
    assert database() == before


def test_reopening_lifts_the_freeze(finished):
    tournament_reopen(tournament=finished)
    game = _game(finished)
    games.game_correct(game=game, ending="rummikub", racks=_racks(game))
    penalty = Adjustment.objects.get(tournament=finished, kind=Adjustment.Kind.PENALTY)
    adjustments.adjustment_delete(adjustment=penalty)
    entries.entry_check_out(tournament=finished, player_id=_player(finished))
    assert rounds.round_seat_next(tournament=finished).number == 2


def test_a_stale_instance_cannot_write_past_a_finish(finished):
    stale = Tournament.objects.get(pk=finished.pk)
    stale.status = Tournament.Status.RUNNING
    with pytest.raises(ConflictError, match="finished: reopen it"):
        entries.entries_add(tournament=stale, player_ids=[PlayerFactory().pk])
