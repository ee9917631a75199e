"""config.body_limits: a page refuses a body over its limit unread (413), the
visitor's small, a signed-in user's larger, the upload pages' their files'."""

from __future__ import annotations

import inspect

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.test import Client, override_settings
from django.urls import resolve

from apikit.middleware import ApiJsonErrorsMiddleware
from config.body_limits import FORM_ROOM, PLAYERS_FILE_MAX, body_max
from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

KB = 1024
MB = 1024 * KB


def _upload(size: int, name: str = "junk.bin") -> dict[str, object]:
    return {"username": "a", "password": "b", "file": SimpleUploadedFile(name, b"x" * size)}


@pytest.fixture
def nothing_spooled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails the test if an upload reaches a temporary file."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the body was read and spooled to disk")

    monkeypatch.setattr(TemporaryFileUploadHandler, "new_file", refused)


@pytest.mark.parametrize(
    "path", ["/accounts/login/", "/da/accounts/login/", "/i18n/setlang/", "/m/abc/", "/t/x/"]
)
def test_a_visitor_posting_a_large_body_is_refused_unread(client: Client, path, nothing_spooled):
    # The attack measured: 100 MB spooled to disk from /accounts/login/ in half a second.
    response = client.post(path, _upload(3 * MB))
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert "css/plain.css" in response.content.decode()  # the plain page, no layout


def test_the_refusal_comes_before_the_csrf_check_reads_the_form(nothing_spooled):
    client = Client(enforce_csrf_checks=True)
    assert client.post("/accounts/login/", _upload(100 * KB)).status_code == 413
    assert client.post("/accounts/login/", {"username": "a"}).status_code == 403  # small: read


def test_a_visitor_form_under_the_limit_is_read(client: Client):
    response = client.post("/accounts/login/", {"username": "a", "password": "b" * 1000})
    assert response.status_code == 200  # the form again, with its error


@override_settings(RACKSCORE_VISITOR_BODY_MAX=1 * KB)
def test_the_visitor_limit_is_a_setting(client: Client, nothing_spooled):
    assert client.post("/accounts/login/", {"username": "a" * 2 * KB}).status_code == 413


def test_a_signed_in_user_may_post_more_but_not_without_bound(client: Client, nothing_spooled):
    client.force_login(UserFactory())
    assert client.post("/i18n/setlang/", {"language": "da", "x": "y" * 200 * KB}).status_code == 302
    assert client.post("/i18n/setlang/", _upload(3 * MB)).status_code == 413


def test_a_players_list_upload_takes_its_file_size(client: Client):
    tournament = TournamentFactory()
    client.force_login(tournament.owner)
    url = f"/t/{tournament.slug}/organise/players/import/"
    small = client.post(url, {"file": SimpleUploadedFile("p.csv", b"Ada\n" * 100)})
    assert small.status_code != 413
    assert client.post(url, {"file": SimpleUploadedFile("p.csv", b"x" * 2 * MB)}).status_code == 413


@override_settings(RACKSCORE_BACKUP_MAX_MB=1)
def test_a_backup_upload_takes_the_backups_own_limit(client: Client):
    client.force_login(UserFactory())
    url = "/t/new/restore/"
    taken = client.post(url, {"file": SimpleUploadedFile("b.json", b" " * (MB - 100 * KB))})
    assert taken.status_code != 413
    too_large = client.post(url, {"file": SimpleUploadedFile("b.json", b" " * (MB + 100 * KB))})
    assert too_large.status_code == 413
    # a visitor gets the visitor's limit there too
    client.logout()
    assert (
        client.post(url, {"file": SimpleUploadedFile("b.json", b" " * 100 * KB)}).status_code == 413
    )


def test_the_api_is_judged_by_its_own_rule(client: Client):
    # apikit.middleware: the view's limit (DATA_UPLOAD_MAX_MEMORY_SIZE), answered as JSON.
    body = '{"racks": "' + "x" * 100 * KB + '"}'
    response = client.post("/api/v1/score/", body, content_type="application/json")
    assert response.status_code == 400
    huge = '{"racks": "' + "x" * 3 * MB + '"}'
    response = client.post("/api/v1/score/", huge, content_type="application/json")
    assert response.status_code == 413 and response.json()["detail"]


@pytest.mark.parametrize(
    ("path", "signed_in", "limit"),
    [
        ("/api/v1/score/", False, "DATA_UPLOAD_MAX_MEMORY_SIZE"),
        ("/api/v1/score/", True, "DATA_UPLOAD_MAX_MEMORY_SIZE"),
        ("/api/v1/tournaments/import/", True, None),  # the backup parser judges it
        ("/accounts/login/", False, "RACKSCORE_VISITOR_BODY_MAX"),
        ("/t/new/restore/", False, "RACKSCORE_VISITOR_BODY_MAX"),
        ("/i18n/setlang/", True, "DATA_UPLOAD_MAX_MEMORY_SIZE"),
        ("/t/new/restore/", True, "backup"),
        ("/t/x/organise/players/import/", True, "players"),
    ],
)
def test_one_rule_says_which_address_takes_how_much(rf, settings, path, signed_in, limit):
    request = rf.post(path)
    request.user = UserFactory.build() if signed_in else AnonymousUser()
    match = resolve(path)
    request.resolver_match = match
    expected = {
        None: None,
        "backup": settings.RACKSCORE_BACKUP_MAX_MB * MB + FORM_ROOM,
        "players": PLAYERS_FILE_MAX + FORM_ROOM,
    }.get(limit, getattr(settings, limit or "", None))
    assert body_max(request, match.func) == expected


def test_the_api_refusal_is_the_same_rules_in_json_and_the_clients_language(client: Client):
    huge = '{"racks": "' + "x" * 3 * MB + '"}'
    response = client.post(
        "/api/v1/score/", huge, content_type="application/json", HTTP_ACCEPT_LANGUAGE="da"
    )
    assert response.status_code == 413
    assert response.json() == {"detail": "Forespørgslens indhold er for stort."}
    # The API's own middleware judges no body: the one rule above does.
    assert not hasattr(ApiJsonErrorsMiddleware, "body_max")
    assert "CONTENT_LENGTH" not in inspect.getsource(ApiJsonErrorsMiddleware)
