"""The role matrix: every page, file and API operation, asked by every role, in
every scope its entry names, against the expectation table.

Vocabulary: see ``tests.role_world`` (roles, scopes, the world, the
fingerprint), ``tests.role_routes`` (routes, keys, requests) and
``tests.role_expectations`` (outcomes, known mismatches, the table).

A route of the URL conf or of the OpenAPI document without an entry in the
table fails ``test_every_route_has_an_entry`` ("add an entry for …"); an entry
naming no route fails it too. Each cell is one test: the request is sent in a
savepoint of the world built once for the module, its answer is classed, and a
request not allowed (refused, hidden, or any exact status) must leave the
database's fingerprint as it was. A known mismatch is an ``xfail(strict=True)``
naming its finding. Every page and file a GET asks for (the API's operations
aside) is asked with HEAD too, in every scope, by a visitor and by the
organiser: the same answer as the GET, without its body.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.core.cache import caches
from django.db import transaction
from django.http import HttpResponse, StreamingHttpResponse
from django.urls import reverse

from tests.conftest import cache_of_this_process
from tests.role_expectations import (
    ALLOWED,
    HIDDEN,
    IGNORED,
    REFUSED,
    TABLE,
    Cell,
    Known,
    Outcome,
)
from tests.role_routes import (
    API_PREFIX,
    api_methods_answered,
    key_parts,
    openapi_operations,
    openapi_path,
    request_for,
    route_keys,
    url_routes,
)
from tests.role_world import ROLES, World, fingerprint, invitation_service, world_build

if TYPE_CHECKING:
    from django.http import HttpResponseBase

# The answers a write may get once its rights check let it through: a minimal
# body is invalid (400), conflicts with the state (409), lacks or misses a
# precondition (428, 412), or is refused as unprocessable (422).
WRITE_ANSWERS_AFTER_RIGHTS = {400, 409, 412, 413, 422, 428}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
# The parts of the fingerprint only the owner's rights change.
OWNERS_RIGHTS = ("tournaments", "co_organisers", "invitations")
INVITATIONS_PENDING = (
    "pending: no co-organiser invitation service in tournaments/services yet, "
    "so the invited-not-accepted role cannot be set up"
)


# ----------------------------------------------------------------------------- the world


@pytest.fixture(autouse=True)
def _empty_caches(settings: Any, tmp_path_factory: Any) -> None:
    """The project's caches, emptied once for the module (``world``) rather than
    before every test as elsewhere: every test starts from the same world, so a
    page or file cached by its tournament's version in one test is the same in
    the next, and the matrix renders each once instead of once per role."""
    # A folder of the module's own, or this process's Redis database.
    settings.CACHES = {
        **settings.CACHES,
        "files": cache_of_this_process(
            settings.CACHES["files"],
            folder=tmp_path_factory.getbasetemp() / "role-matrix-files-cache",
        ),
    }


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """The world, built once for the module in a transaction rolled back at its end
    (each test's own transaction is a savepoint inside it)."""
    for alias in ("default", "files"):
        caches[alias].clear()
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield world_build()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


# ----------------------------------------------------------------------------- coverage


def test_every_route_has_an_entry() -> None:
    routes = route_keys()
    missing = [
        f"add an entry for {key!r} ({origin}) to tests/role_expectations.py"
        for key, origin in sorted(routes.items())
        if key not in TABLE
    ]
    stale = [
        f"no route answers {key!r}: remove or rename its entry in tests/role_expectations.py"
        for key in sorted(TABLE)
        if "{} {}".format(*key_parts(key)[:2]) not in routes
    ]
    assert not missing + stale, "\n".join(missing + stale)


def test_every_entry_names_every_role() -> None:
    incomplete = [
        f"{key} [{scope}]: {sorted(set(ROLES) - set(row))}"
        for key, rows in TABLE.items()
        for scope, row in rows.items()
        if set(row) != set(ROLES)
    ]
    assert not incomplete, "\n".join(incomplete)


def test_api_views_answer_the_documented_methods() -> None:
    """The OpenAPI document names every method an API view answers (so the
    matrix, built from it, asks every one)."""
    documented: dict[str, set[str]] = {}
    for method, path in openapi_operations().values():
        documented.setdefault(path, set()).add(method)
    differ = [
        f"{route.name} /{route.path}: answers {sorted(api_methods_answered(route))}, "
        f"documented {sorted(documented[openapi_path(route)])}"
        for route in url_routes()
        if route.path.startswith(API_PREFIX)
        and openapi_path(route) in documented
        and api_methods_answered(route) != documented[openapi_path(route)]
    ]
    assert not differ, "\n".join(differ)


# ----------------------------------------------------------------------------- the matrix


def _to_login(response: HttpResponse) -> bool:
    location = response.get("Location", "")
    return any(
        location.startswith(login) for login in (reverse("web:login"), reverse("admin:login"))
    )


def outcome_of(response: HttpResponse, *, method: str) -> Outcome:
    """The class of an answer (see ``tests.role_expectations``), or its status."""
    status = response.status_code
    if status in (401, 403) or (300 <= status < 400 and _to_login(response)):
        return REFUSED
    if status == 404:
        return HIDDEN
    if 200 <= status < 400:
        return ALLOWED
    if method not in SAFE_METHODS and status in WRITE_ANSWERS_AFTER_RIGHTS:
        return ALLOWED
    return status


def _cases() -> Iterator[Any]:
    for key, rows in TABLE.items():
        for scope, row in rows.items():
            for role in ROLES:
                cell: Cell = row[role]
                marks = []
                if isinstance(cell, Known):
                    marks.append(pytest.mark.xfail(strict=True, reason=cell.finding))
                    cell = cell.outcome
                yield pytest.param(key, scope, role, cell, id=f"{key}|{scope}|{role}", marks=marks)


def _send(world: World, key: str, scope: str, role: str) -> HttpResponse:
    request = request_for(key, world, role, scope)
    if request.api:
        client: Any = world.api_client(role, scope)
        if request.method in SAFE_METHODS:
            return client.generic(request.method, request.path)  # type: ignore[no-any-return]
        return client.generic(  # type: ignore[no-any-return]
            request.method,
            request.path,
            json.dumps(request.data if request.data is not None else {}),
            content_type="application/json",
        )
    client = world.web_client(role)
    if request.method == "POST":
        return client.post(request.path, request.data or {})  # type: ignore[no-any-return]
    return client.generic(request.method, request.path)  # type: ignore[no-any-return]


@pytest.mark.django_db
@pytest.mark.parametrize(("key", "scope", "role", "expected"), list(_cases()))
def test_role_gets_what_the_table_says(
    world: World, key: str, scope: str, role: str, expected: Outcome
) -> None:
    if role == "invited" and world.invited_pending:
        pytest.skip(INVITATIONS_PENDING)
    response = _send(world, key, scope, role)
    method = key_parts(key)[1]
    got = outcome_of(response, method=method)
    if expected == IGNORED:
        assert got == ALLOWED, f"{key} as {role} in {scope}: {response.status_code} ({got})"
        after = fingerprint()
        for part in OWNERS_RIGHTS:
            assert after[part] == world.baseline[part], (
                f"{key} as {role} in {scope} changed what only the owner may ({part})"
            )
        return
    if isinstance(expected, int):
        assert response.status_code == expected, (
            f"{key} as {role} in {scope}: {response.status_code}, expected {expected}"
        )
    else:
        assert got == expected, (
            f"{key} as {role} in {scope}: {response.status_code} ({got}), expected {expected}"
        )
    if expected != ALLOWED:
        # Every test starts from the world as built (each runs in its own savepoint).
        assert fingerprint() == world.baseline, f"{key} as {role} in {scope} changed the database"


def test_invited_role_is_set_up_when_invitations_exist(world: World) -> None:
    """The invited-not-accepted column is asked as soon as the service exists."""
    assert world.invited_pending == (invitation_service() is None)


# ----------------------------------------------------------------------------- HEAD

# The two a page's decorators tell apart: a visitor (a table's link is a
# visitor with the token in the address) and a logged-in user, here the
# organiser, who reaches every page of their tournament. Who may see a page
# is the GET's matrix above; HEAD only follows it.
HEAD_ROLES = ("anonymous", "owner")


def _page_reads() -> Iterator[Any]:
    """Every GET of a page or file (the API's operations aside), in each scope, by
    each of the ``HEAD_ROLES``."""
    for key, rows in TABLE.items():
        name, method, _variant = key_parts(key)
        if method != "GET" or name in openapi_operations():
            continue
        for scope in rows:
            for role in HEAD_ROLES:
                yield pytest.param(key, scope, role, id=f"{key}|{scope}|{role}")


def _body(response: HttpResponseBase) -> bytes:
    if isinstance(response, StreamingHttpResponse):
        return b"".join(response.streaming_content)
    assert isinstance(response, HttpResponse)
    return response.content


@pytest.mark.django_db
@pytest.mark.parametrize(("key", "scope", "role"), list(_page_reads()))
def test_a_head_request_answers_as_the_get_without_its_body(
    world: World, key: str, scope: str, role: str
) -> None:
    request = request_for(key, world, role, scope)
    got = world.web_client(role).get(request.path)
    headed = world.web_client(role).head(request.path)
    assert headed.status_code == got.status_code, (
        f"HEAD {request.path} as {role}: {headed.status_code}, GET {got.status_code}"
    )
    assert headed.get("Content-Type") == got.get("Content-Type")
    assert _body(headed) == b""
