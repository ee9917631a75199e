"""One organiser rule: the API's checks over many rows (``access.organised_by``)
answer as ``access.tournament_organiser`` does for each tournament, for every
kind of user, and cost at most one query in all."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import TournamentFactory, UserFactory
from tournaments.access import organised_by, tournament_organiser
from tournaments.actors import ActingUser

pytestmark = pytest.mark.django_db

# (who asks, whether they organise: the owned, the co-organised, the other
# tournament; queries for all three)
WHO = [
    ("owner", (True, False, False), 1),
    ("co-organiser", (False, True, False), 1),
    ("staff", (True, True, True), 0),
    ("stranger", (False, False, False), 1),
    ("anonymous", (False, False, False), 0),
    ("nobody", (False, False, False), 0),
]


def _user(who: str) -> ActingUser:
    if who == "anonymous":
        return AnonymousUser()
    if who == "nobody":
        return None
    return UserFactory(username=who, is_staff=who == "staff")


@pytest.mark.parametrize(("who", "expected", "queries"), WHO, ids=[w[0] for w in WHO])
def test_the_api_checks_organisers_by_the_one_rule(who, expected, queries):
    user = _user(who)
    owned = TournamentFactory(owner=user if who == "owner" else UserFactory())
    co_organised = TournamentFactory()
    if who == "co-organiser":
        co_organised.co_organisers.add(user)
    elsewhere = TournamentFactory()
    tournaments = [owned, co_organised, elsewhere]

    one_by_one = tuple(tournament_organiser(user=user, tournament=t) for t in tournaments)
    with CaptureQueriesContext(connection) as read:
        organises = organised_by(user=user)
        at_once = tuple(organises(t) for t in tournaments)

    assert one_by_one == at_once == expected
    assert len(read.captured_queries) == queries
