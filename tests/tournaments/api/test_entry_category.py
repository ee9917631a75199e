"""An entry's category through the API: set on entering and by PATCH, trimmed,
bounded, audited, and who may change it."""

from __future__ import annotations

import pytest

from scoring.rules import CATEGORY_MAX_LENGTH
from tests.factories import PlayerFactory, UserFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tournaments.models import AuditEvent, Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    match = match_seated(players=4, public=True)
    return match.round.tournament, match, seated_ids(match)[0]


@pytest.mark.parametrize(
    ("actor", "status"),
    [
        ("anon", 401),
        ("other", 404),  # public, but not theirs: not found for writing
        ("owner", 200),
        ("co_organiser", 200),
        ("staff", 200),
        ("match_link", 401),
    ],
)
def test_who_may_change_a_category(seated, actor: str, status: int) -> None:
    t, match, pid = seated
    co = UserFactory()
    t.co_organisers.add(co)
    users = {"other": UserFactory(), "owner": t.owner, "co_organiser": co}
    users["staff"] = UserFactory(is_staff=True, is_superuser=True)
    client = (
        client_as(match_token=match.token) if actor == "match_link" else client_as(users.get(actor))
    )
    answer = client.patch(
        f"/api/v1/tournaments/{t.pk}/entries/{pid}/", {"category": "U14"}, format="json"
    )
    stored = Entry.objects.get(tournament=t, player_id=pid).category
    if status == 200:
        assert answer.status_code == 200, answer.content
        assert answer.json()["category"] == "U14" and stored == "U14"
    else:
        assert answer.status_code in (status, 403, 404), answer.content
        assert stored == ""


def test_patch_trims_audits_and_keeps_the_status(seated) -> None:
    t, _match, pid = seated
    client = client_as(t.owner)
    url = f"/api/v1/tournaments/{t.pk}/entries/{pid}/"
    answer = client.patch(url, {"category": "  Senior "}, format="json")
    assert answer.json()["category"] == "Senior" and answer.json()["status"] == "active"
    event = AuditEvent.objects.filter(tournament=t, action=AuditEvent.Action.ENTRY_CHANGED).last()
    assert event is not None and event.new is not None
    assert event.new["players"][0]["category"] == "Senior"
    assert client.patch(url, {"category": ""}, format="json").json()["category"] == ""


def test_a_too_long_category_is_refused_and_nothing_stored(seated) -> None:
    t, _match, pid = seated
    answer = client_as(t.owner).patch(
        f"/api/v1/tournaments/{t.pk}/entries/{pid}/",
        {"category": "x" * (CATEGORY_MAX_LENGTH + 1), "status": "absent"},
        format="json",
    )
    assert answer.status_code == 400 and "category" in str(answer.json())
    entry = Entry.objects.get(tournament=t, player_id=pid)
    assert entry.category == "" and entry.status == "active"


def test_entering_players_with_a_category(seated) -> None:
    t, _match, _pid = seated
    people = PlayerFactory.create_batch(2, created_by=t.owner)
    answer = client_as(t.owner).post(
        f"/api/v1/tournaments/{t.pk}/entries/",
        {"players": [p.pk for p in people], "category": " U14"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert [e["category"] for e in answer.json()] == ["U14", "U14"]
    stored = Entry.objects.filter(tournament=t, player__in=people).values_list(
        "category", flat=True
    )
    assert list(stored) == ["U14", "U14"]
