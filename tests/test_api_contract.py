"""The API keeps its contract: schemathesis against the OpenAPI document.

Vocabulary: the *document* is ``/api/v1/schema/``; a *case* is one request
schemathesis generates from it (valid data, and deliberately invalid data);
a *check* judges the answer against the document (status declared, body and
headers in their declared shapes, content type, invalid data refused, valid
data accepted, no 500s, auth not ignored). Every operation runs in-process
against the WSGI application, as the organiser of a small seated tournament,
with every check schemathesis offers, a fixed seed and a bounded number of
examples.

Each operation is its own test with its own database (rolled back after
it), so a case deleting the tournament cannot starve the next operation.
Ids restart with every test's database, so the fixture's objects carry the
small ids generated cases hit first. *Scenarios* then chain calls through the
links schemathesis infers (an id answered feeds the next path), so the checks
that need a chain run as well: a deleted object stays gone, a created one can
be read back.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.cache import caches
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, seed, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import CHECKS
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.factories import (
    AdjustmentFactory,
    ClubFactory,
    UserFactory,
    match_seated,
)

# Not an xdist_group: schemathesis' items share one node id, and xdist's
# loadgroup scheduling runs one of them for all; under plain load each
# operation is one item, spread over the workers like any other test.
pytestmark = pytest.mark.django_db

EXAMPLES = 8

# Settings are checked together and against the state (slug unique, tie-breaks, no
# fewer rounds than seated; the status follows play and is not set by hand); the
# club and co-organisers named must exist. Semi-finals fill whole tables of 4, two
# or more: 0 or 8, 12, … (a document can say "a multiple of 4" but not "except 4").
TOURNAMENT_SETTINGS_RULES = {
    "slug",
    "club",
    "season",  # a season of a club the caller organises
    "tie_breaks",
    "table_points",
    "co_organisers",
    "rounds",
    "status",
    "semifinal_players",
}

# Valid by the document, refused by a rule no schema can state (it depends on
# what is stored): the fields such a 400 may name, by operation. Any other 400
# to valid data is still a failure.
RULES_BEYOND_THE_DOCUMENT: dict[str, set[str]] = {
    # Credentials that are well formed but wrong: DRF's token login answers 400.
    "POST /api/v1/auth/token/": {"non_field_errors"},
    # A club's name and slug are unique: the generated "0" is taken by the first example.
    # A player's club must be one the caller may see.
    "POST /api/v1/clubs/": {"name", "slug"},
    "PUT /api/v1/clubs/{id}/": {"name", "slug"},
    "PATCH /api/v1/clubs/{id}/": {"name", "slug"},
    # A member added is a player of the caller's; a name in use is a new player.
    "POST /api/v1/clubs/{club_id}/members/": {"player", "non_field_errors"},
    # The creator organises the club already.
    "POST /api/v1/clubs/{club_id}/invitations/": {"co_organisers"},
    "POST /api/v1/players/": {"club"},
    "PUT /api/v1/players/{id}/": {"club"},
    "PATCH /api/v1/players/{id}/": {"club"},
    # The rulebook judges tiles, winners and who sits at the table.
    "POST /api/v1/score/": {"racks", "ending", "rules"},
    "POST /api/v1/matches/{match_id}/games/": {"racks", "ending", "number"},
    "PUT /api/v1/games/{id}/": {"racks", "ending"},
    # Seating must seat every active player exactly once.
    "PUT /api/v1/rounds/{id}/seating/": {"tables", "byes"},
    "POST /api/v1/tournaments/": TOURNAMENT_SETTINGS_RULES,
    "PUT /api/v1/tournaments/{id}/": TOURNAMENT_SETTINGS_RULES,
    "PATCH /api/v1/tournaments/{id}/": TOURNAMENT_SETTINGS_RULES,
    # A season ends on or after its first day; its evenings' settings name
    # tournament settings; its name is not blank once trimmed.
    "POST /api/v1/clubs/{club_id}/seasons/": {"ends", "evening_settings", "name"},
    "PUT /api/v1/seasons/{id}/": {"ends", "evening_settings", "name"},
    "PATCH /api/v1/seasons/{id}/": {"ends", "evening_settings", "name"},
    # Players must exist.
    "POST /api/v1/tournaments/{tournament_id}/entries/": {"player", "players"},
    "POST /api/v1/tournaments/{tournament_id}/attendance/": {"players"},
    # A round and a player must belong to the tournament; the service judges sign,
    # size (at most 2 decimals) and reason together, by kind.
    "POST /api/v1/tournaments/{tournament_id}/adjustments/": {
        "player",
        "round",
        "points",
        "reason",
    },
    # A backup carries a checksum of its contents: generated documents fail it.
    "POST /api/v1/tournaments/import/": {"document"},
    # A semi-final or final is asked of only once the tournament has it.
    "GET /api/v1/tournaments/{tournament_id}/standings/": {"stage"},
}


def positive_data_acceptance_within_rules(ctx: Any, response: Any, case: Any) -> bool | None:
    """schemathesis' ``positive_data_acceptance``, except for the refusals above."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        allowed = RULES_BEYOND_THE_DOCUMENT.get(case.operation.label, set())
        body = response.json() if response.status_code == 400 else None
        if isinstance(body, dict) and body and set(body) <= allowed:
            return None
        raise


CHECKS_ALL = [check for check in CHECKS.get_all() if check is not positive_data_acceptance] + [
    positive_data_acceptance_within_rules
]


@pytest.fixture(autouse=True)
def _connection_kept() -> Iterator[None]:
    # The WSGI application closes the database connection when a request ends,
    # as a server should; inside a test's transaction that would end the test's
    # database on PostgreSQL. Django's test client keeps it open the same way.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def organiser_headers(db: Any) -> dict[str, str]:
    """An organiser's token, and a tournament of theirs with a seated round,
    a recorded game, an adjustment and a club: ids 1 wherever it matters."""
    organiser = UserFactory(username="organiser", password=None)
    match = match_seated(players=4, owner=organiser)
    ClubFactory()
    AdjustmentFactory(tournament=match.round.tournament, player=match.seats.first().player)
    key = Token.objects.create(user=organiser).key
    return {"Authorization": f"Token {key}", "X-Match-Token": match.token}


# Loaded at collection (the document needs no database): schemathesis' lazy
# fixture loader does not run under this pytest.
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", get_wsgi_application())


@schema.parametrize()
@seed(11)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_keeps_the_contract(case: Any, organiser_headers: dict[str, str]) -> None:
    if case.headers and "Idempotency-Key" in case.headers:
        # A key names one request: generated keys repeat ("0"), and a key sent again
        # with another request is refused by design (422, declared).
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
    case.call_and_validate(headers=organiser_headers, checks=CHECKS_ALL)


# ----------------------------------------------------------------------------- stateful

# A *scenario* is a chain of calls: an answer's ids (its body, its ``Location``)
# feed the next call's path or body, as schemathesis infers from the document;
# the checks that need a chain run too (a deleted object answers 404 afterwards,
# a created one can be read back). Each scenario starts from the fixture's state.
SCENARIOS = 30
STEPS = 10


class Scenarios(schema.as_state_machine()):
    headers: dict[str, str] = {}

    def setup(self) -> None:
        # Ids restart when a scenario's writes are rolled back: so must the caches
        # keyed by them.
        self.savepoint = transaction.savepoint()
        for alias in ("default", "files"):
            caches[alias].clear()

    def teardown(self) -> None:
        transaction.savepoint_rollback(self.savepoint)
        super().teardown()

    def before_call(self, case: Any) -> None:
        if case.headers and "Idempotency-Key" in case.headers:
            case.headers["Idempotency-Key"] = str(uuid.uuid4())

    def get_call_kwargs(self, case: Any) -> dict[str, Any]:
        return {"headers": self.headers}

    def validate_response(self, response: Any, case: Any, *args: Any, **kwargs: Any) -> None:
        case.validate_response(
            response,
            checks=CHECKS_ALL,
            transport_kwargs=kwargs or None,
            headers=self.headers,
            recorder=self.recorder,
        )


def test_scenarios_keep_the_contract(organiser_headers: dict[str, str]) -> None:
    Scenarios.headers = organiser_headers
    Scenarios.run(
        settings=settings(
            max_examples=SCENARIOS,
            stateful_step_count=STEPS,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
    )
