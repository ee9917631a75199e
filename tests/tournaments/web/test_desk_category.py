"""An entry's category on the desk's players list: who may set it, trimmed, bounded,
audited, shown back in the row."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.rules import CATEGORY_MAX_LENGTH
from tests.factories import UserFactory, match_seated, seated_ids
from tournaments.models import AuditEvent, Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated() -> tuple[Tournament, int, str]:
    match = match_seated(players=4, public=True)
    return match.round.tournament, seated_ids(match)[0], match.token


def url(t: Tournament, pid: int) -> str:
    return f"/t/{t.slug}/organise/players/{pid}/category/"


def stored(t: Tournament, pid: int) -> str:
    return Entry.objects.get(tournament=t, player_id=pid).category


@pytest.mark.parametrize(
    ("who", "allowed"),
    [
        ("anonymous", False),
        ("stranger", False),
        ("owner", True),
        ("co", True),
        ("staff", True),
        ("match_link", False),
    ],
)
def test_who_may_set_a_category(client: Client, seated, who: str, allowed: bool) -> None:
    t, pid, token = seated
    if who == "match_link":
        client.get(f"/m/{token}/")  # the match link's holder: no organiser for that
    elif who != "anonymous":
        user = {"owner": t.owner, "stranger": UserFactory(), "co": UserFactory()}.get(who)
        if who == "co":
            t.co_organisers.add(user)
        if who == "staff":
            user = UserFactory(is_staff=True)
        client.force_login(user)
    response = client.post(url(t, pid), {"category": " U14 "})
    if allowed:
        assert response.status_code == 302 and stored(t, pid) == "U14"
        page = client.get(response["Location"]).content.decode()
        assert 'value="U14"' in page and "is in the category U14" in page
    else:
        assert response.status_code in (302, 403, 404) and stored(t, pid) == ""
        if response.status_code == 302:
            assert "login" in response["Location"]


def test_set_audited_cleared_and_refused_when_too_long(client: Client, seated) -> None:
    t, pid, _token = seated
    client.force_login(t.owner)
    client.post(url(t, pid), {"category": "Senior"})
    event = AuditEvent.objects.filter(tournament=t, action=AuditEvent.Action.ENTRY_CHANGED).last()
    assert event is not None and event.new is not None
    assert event.new["players"][0]["category"] == "Senior"
    client.post(url(t, pid), {"category": ""})
    assert stored(t, pid) == ""
    response = client.post(url(t, pid), {"category": "x" * (CATEGORY_MAX_LENGTH + 1)}, follow=True)
    assert stored(t, pid) == "" and "at most" in response.content.decode()
    assert client.get(url(t, pid)).status_code == 405
