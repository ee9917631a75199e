"""``GET /tournaments/{id}/export/`` and ``POST /tournaments/import/``: who may,
and what they answer."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.api.conftest import client_as
from tournaments.backups.document import tournament_document
from tournaments.models import Tournament

from .conftest import normal, rows_count, standings_json

pytestmark = pytest.mark.django_db


def export_url(tournament: Tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/export/"


def test_organisers_download_the_backup(played, owner, co):
    staff = UserFactory(username="staff", is_staff=True)
    for user in (owner, co, staff):
        response = client_as(user).get(export_url(played))
        assert response.status_code == 200, (user, response.content[:200])
        assert response["Content-Type"] == "application/json"
        document = response.json()
        assert document["format"] == "rackscore-tournament" and document["version"] == 1
        assert normal(document, tokens=True) == normal(
            tournament_document(tournament=played), tokens=True
        )


def test_nobody_else_does(played):
    assert APIClient().get(export_url(played)).status_code == 401
    assert client_as(UserFactory()).get(export_url(played)).status_code == 403
    played.public = False
    played.save(update_fields=["public"])
    assert client_as(UserFactory()).get(export_url(played)).status_code == 404
    assert client_as(UserFactory()).get("/api/v1/tournaments/999999/export/").status_code == 404


def test_any_logged_in_user_restores_a_backup_and_owns_it(played, owner):
    document = client_as(owner).get(export_url(played)).json()
    someone = UserFactory(username="someone")
    response = client_as(someone).post(
        "/api/v1/tournaments/import/?slug=mine",
        json.dumps(document),
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    copy = Tournament.objects.get(pk=body["id"])
    assert (copy.slug, copy.owner) == ("mine", someone)
    assert standings_json(copy, someone) == standings_json(played, owner)
    event = copy.audit.order_by("-at", "-id")[0]
    assert (event.action, event.username, (event.new or {})["file"]) == (
        "tournament.imported",
        "someone",
        "api",
    )


@pytest.mark.parametrize(
    ("query", "change", "field", "reason"),
    [
        ("", None, "slug", "exists already"),
        ("?slug=no%20way", None, "slug", "is not valid"),
        ("?slug=x", lambda d: d.update(format="other"), "document", "its format is “other”"),
        ("?slug=x", lambda d: d.update(version=7), "document", "version 7"),
        (
            "?slug=x",
            lambda d: d["games"][0]["racks"][0].update(score="1.00"),
            "document",
            "games[0]",
        ),
    ],
)
def test_a_refused_backup_answers_400_with_the_reason(played, owner, query, change, field, reason):
    document = tournament_document(tournament=played, checksum=False)
    if change:
        change(document)
    before = rows_count()
    response = client_as(owner).post(
        f"/api/v1/tournaments/import/{query}", json.dumps(document), content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert reason in response.json()[field][0]
    assert rows_count() == before


def test_a_body_that_is_no_document_is_refused(owner):
    client = client_as(owner)
    for body in ("[1, 2]", '"text"', "{not json"):
        response = client.post("/api/v1/tournaments/import/", body, content_type="application/json")
        assert response.status_code == 400, (body, response.content)


def test_anonymous_imports_are_refused(played):
    document = tournament_document(tournament=played)
    response = APIClient().post(
        "/api/v1/tournaments/import/?slug=anon",
        json.dumps(document),
        content_type="application/json",
    )
    assert response.status_code == 401
    assert not Tournament.objects.filter(slug="anon").exists()
