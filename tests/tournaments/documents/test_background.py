"""Large sets of score sheets, drawn by the task worker: the link answers 202
"being prepared" (a page refreshing itself, or plain text for other clients)
until the file is in the files cache, then serves it; concurrent requests
queue the work once; small sets are drawn in the request as before.

Tasks run in the test process (the immediate backend) except where the
database backend queues them and ``db_worker --batch`` drains the queue."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django_tasks.backends.database.models import DBTaskResult

from tests.factories import TournamentFactory, UserFactory
from tests.printing.engine.pdf import pages_of
from tests.tournaments.documents.rounds import round_with_tables
from tournaments.documents import files
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
DATABASE = {"default": {"BACKEND": "django_tasks.backends.database.DatabaseBackend"}}
HTML = "text/html,application/xhtml+xml"


@pytest.fixture(autouse=True)
def large_from_three(settings):
    """A set of more than two sheets is large; tasks run in process unless a test says."""
    settings.RACKSCORE_SHEETS_REQUEST_PAGES = 2
    settings.TASKS = IMMEDIATE


def _event(sizes: tuple[int, ...]) -> tuple[Tournament, Any, str]:
    owner = UserFactory()
    t = TournamentFactory(owner=owner)
    round_with_tables(t, sizes=sizes, games=2)
    return t, owner, f"/t/{t.slug}/rounds/1/scoresheets.pdf"


def _as(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("sizes", [(4, 4), (4, 4, 3)])
def test_with_tasks_in_process_the_first_request_serves_the_file(monkeypatch, sizes):
    """(``make run``): small sets in the request, large ones by the task, at once."""
    queued: list[int] = []
    real = files.scoresheets_claimed

    def claimed(**kwargs: Any) -> bool:
        queued.append(1)
        return real(**kwargs)

    monkeypatch.setattr(files, "scoresheets_claimed", claimed)
    _t, owner, url = _event(sizes)
    response = _as(owner).get(url, HTTP_ACCEPT=HTML)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert len(pages_of(response.content)) == len(sizes)
    assert len(queued) == (len(sizes) > 2)


@pytest.mark.django_db(transaction=True)
def test_a_large_set_is_prepared_once_then_served(settings):
    settings.TASKS = DATABASE
    _t, owner, url = _event((4, 4, 3))
    client = _as(owner)

    pages = [client.get(url, HTTP_ACCEPT=HTML) for _ in range(2)]
    plain = client.get(url, HTTP_ACCEPT="application/pdf")
    for page in pages:
        assert page.status_code == 202 and page["Retry-After"] == "3"
        html = page.content.decode()
        assert "being prepared" in html and 'http-equiv="refresh" content="3"' in html
    assert plain.status_code == 202 and plain["Content-Type"].startswith("text/plain")
    assert DBTaskResult.objects.count() == 1  # three asks, one task

    call_command("db_worker", batch=True, reload=False, startup_delay=False, verbosity=0)

    served = client.get(url, HTTP_ACCEPT=HTML)
    assert served.status_code == 200 and served["Content-Type"] == "application/pdf"
    assert len(pages_of(served.content)) == 3
    assert DBTaskResult.objects.count() == 1  # served from the files cache


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("stranger", 403), ("staff", 202), ("owner", 202), ("co", 202)],
)
def test_who_may_ask_for_a_large_set(settings, who, status):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    t, owner, url = _event((2, 2, 2))
    co = UserFactory()
    t.co_organisers.add(co)
    user = {
        "anonymous": None,
        "stranger": UserFactory(),
        "staff": UserFactory(is_staff=True),
        "owner": owner,
        "co": co,
    }[who]
    assert _as(user).get(url, HTTP_ACCEPT=HTML).status_code == status
