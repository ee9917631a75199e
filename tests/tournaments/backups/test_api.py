"""``GET /tournaments/{id}/export/`` and ``POST /tournaments/import/``: who may,
and what they answer."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.api.conftest import client_as
from tests.tournaments.backups.big import big_document
from tests.tournaments.backups.conftest import normal, rows_count, standings_json
from tournaments.backups.checks import file_max, games_max
from tournaments.backups.document import checksum_of, tournament_document
from tournaments.models import Game, Tournament

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


IMPORT = "/api/v1/tournaments/import/"


def test_an_existing_slug_answers_409_naming_it(played, owner):
    document = tournament_document(tournament=played)
    before = rows_count()
    response = client_as(owner).post(IMPORT, json.dumps(document), content_type="application/json")
    assert response.status_code == 409, response.content
    assert f"“{played.slug}” exists already" in response.json()["slug"][0]
    assert rows_count() == before


@pytest.mark.parametrize(
    ("query", "change", "field", "reason"),
    [
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
    document["checksum"] = checksum_of(document)
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
        assert response.json()["document"]


def test_an_empty_body_is_named_so(owner):
    response = client_as(owner).post(IMPORT, b"", content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json() == {"document": ["The file is empty."]}


def test_a_body_with_a_byte_order_mark_restores(played, owner):
    body = b"\xef\xbb\xbf" + json.dumps(tournament_document(tournament=played)).encode()
    response = client_as(owner).post(
        f"{IMPORT}?slug=bom", body, content_type="application/json; charset=utf-8"
    )
    assert response.status_code == 201, response.content
    assert Tournament.objects.filter(slug="bom").exists()


def test_a_body_over_the_limit_answers_413_naming_it(owner):
    before = rows_count()
    response = client_as(owner).post(
        IMPORT, b" " * (file_max() + 1), content_type="application/json"
    )
    assert response.status_code == 413, response.content[:200]
    assert response.json() == {
        "document": ["The file is too large: a backup can be at most 10 MB."]
    }
    assert rows_count() == before


def test_the_largest_backup_taken_restores_once_under_an_idempotency_key(owner):
    """As many games as one restore takes, above Django's limit for request
    bodies (2.5 MB), below the backup's; the Idempotency-Key fingerprints the
    body the view reads."""
    body = json.dumps(big_document(players=200, rounds=4, games=4, events=True), indent=4)
    assert len(body) > 2_500_000
    client = client_as(owner)
    answers = [
        client.post(
            f"{IMPORT}?slug=nationals-copy",
            body,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY="restore-1",
        )
        for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [201, 201], answers[0].content[:300]
    assert answers[1]["Idempotent-Replayed"] == "true"
    assert answers[1].json() == answers[0].json()
    copy = Tournament.objects.get(slug="nationals-copy")
    assert Game.objects.filter(match__round__tournament=copy).count() == games_max() == 800


def test_more_games_than_one_restore_takes_answer_413_naming_the_cap(owner):
    """A thousand players' event waits for background work: refused, translated, nothing stored."""
    before = rows_count()
    body = json.dumps(big_document(players=1000, rounds=3, games=4))
    response = client_as(owner).post(
        f"{IMPORT}?slug=nationals", body, content_type="application/json"
    )
    assert response.status_code == 413, response.content[:300]
    assert response.json() == {
        "document": [
            "The backup is too large to restore at once: it holds 3000 games and 0 audit "
            "events; at most 800 games (and 1600 events) are restored in one go."
        ]
    }
    assert rows_count() == before
    german = client_as(owner).post(
        IMPORT, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert german.status_code == 413
    assert "3000" in german.json()["document"][0]
    assert "too large" not in german.json()["document"][0]


def test_anonymous_imports_are_refused(played):
    document = tournament_document(tournament=played)
    response = APIClient().post(
        "/api/v1/tournaments/import/?slug=anon",
        json.dumps(document),
        content_type="application/json",
    )
    assert response.status_code == 401
    assert not Tournament.objects.filter(slug="anon").exists()
