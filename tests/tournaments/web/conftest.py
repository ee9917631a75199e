"""Fixtures of the web tests."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.models import Match


@pytest.fixture
def owner(client: Client):
    def login(match: Match) -> Client:
        client.force_login(match.round.tournament.owner)
        return client

    return login
