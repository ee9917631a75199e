"""The scene of the hall's page tests: a seated, partly played tournament and who looks at it."""

from __future__ import annotations

from typing import Any

from django.test import Client

from tests.factories import UserFactory, tournament_entered
from tournaments.models import Tournament
from tournaments.services import rounds

ACTORS = ("anon", "other", "owner", "co", "staff")


def tournament_seated(*, players: int = 8, **kwargs: Any) -> Tournament:
    """``players`` entered and seated in round 1."""
    tournament = tournament_entered(players=players, **kwargs)
    rounds.round_seat_next(tournament=tournament)
    return tournament


def client_as(actor: str, tournament: Tournament) -> Client:
    """A client logged in as that actor (``anon``: nobody) for the tournament."""
    client = Client()
    user = {
        "anon": None,
        "other": lambda: UserFactory(),
        "owner": lambda: tournament.owner,
        "co": lambda: _co_organiser(tournament),
        "staff": lambda: UserFactory(is_staff=True),
    }[actor]
    if user is not None:
        client.force_login(user())
    return client


def _co_organiser(tournament: Tournament) -> Any:
    co = UserFactory()
    tournament.co_organisers.add(co)
    return co
