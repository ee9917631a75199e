"""Large restores in the background: read and recognised in the request, then
restored by the task worker; their progress (API resource, desk page) for their
starter only, done or refused.

Tasks run in the test process (the immediate backend); one test queues in the
database and drains the queue with the worker's own command, as ``make serve``
runs it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.api.conftest import client_as
from tests.tournaments.backups.conftest import rows_count, standings_json
from tournaments.backups.document import document_text, tournament_document
from tournaments.models import RestoreJob, Tournament

pytestmark = pytest.mark.django_db

IMPORT = "/api/v1/tournaments/import/"
RESTORE = "/t/new/restore/"
IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
DATABASE = {"default": {"BACKEND": "django_tasks.backends.database.DatabaseBackend"}}


@pytest.fixture(autouse=True)
def in_background(settings, restore_limits):
    """Every restore of these tests is large: over 2 games goes to the worker."""
    settings.RACKSCORE_BACKUP_REQUEST_GAMES = 2
    # (django-tasks builds its backends again when the setting changes)
    settings.TASKS = IMMEDIATE


def api_post(user: AbstractBaseUser, document: dict[str, Any] | bytes, slug: str = "") -> Any:
    body = document if isinstance(document, bytes) else document_text(document).encode()
    query = f"?slug={slug}" if slug else ""
    return client_as(user).post(f"{IMPORT}{query}", body, content_type="application/json")


def web_client(user: AbstractBaseUser) -> Client:
    client = Client()
    client.force_login(user)
    return client


def web_post(user: AbstractBaseUser, document: dict[str, Any] | bytes, slug: str = "") -> Any:
    body = document if isinstance(document, bytes) else document_text(document).encode()
    upload = SimpleUploadedFile("cup.json", body, "application/json")
    return web_client(user).post(RESTORE, {"file": upload, "slug": slug})


def test_a_large_backup_through_the_api_answers_202_then_done(played, owner):
    someone = UserFactory(username="someone")
    before = Tournament.objects.count()
    response = api_post(someone, tournament_document(tournament=played), slug="big-copy")
    assert response.status_code == 202, response.content[:300]
    body = response.json()
    job = RestoreJob.objects.get(pk=body["id"])
    assert response["Location"] == f"http://testserver/api/v1/tournaments/imports/{job.pk}/"
    assert (body["state"], body["error"]) == ("done", None)
    copy = Tournament.objects.get(slug="big-copy")
    assert (copy.owner, body["tournament"]) == (someone, copy.pk)
    assert body["tournament_url"] == f"http://testserver/api/v1/tournaments/{copy.pk}/"
    assert Tournament.objects.count() == before + 1
    assert standings_json(copy, someone) == standings_json(played, owner)
    assert bytes(job.document) == b""  # emptied once restored

    progress = client_as(someone).get(f"/api/v1/tournaments/imports/{job.pk}/")
    assert progress.status_code == 200
    assert progress.json() == body
    assert "Retry-After" not in progress


def _with(document: dict[str, Any], head: bytes) -> bytes:
    """The document's file with its version followed by ``head``."""
    return document_text(document).encode().replace(b'"version": 1,', head, 1)


GLANCED, READ = 0, 8  # RACKSCORE_BACKUP_READ_MB: every file only glanced at, or read whole


@pytest.mark.parametrize(
    ("read_mb", "change", "status", "detail"),
    [
        # refused in the request: not JSON, not a backup, another version
        (READ, lambda d: b"{not json", 400, "The file is not valid JSON"),
        (GLANCED, lambda d: b"{not json", 400, "holds no JSON object"),
        (GLANCED, lambda d: b"\xff\xfe{}", 400, "not UTF-8"),
        (GLANCED, lambda d: b"  ", 400, "The file is empty"),
        *[
            (read_mb, change, 400, detail)
            for read_mb in (READ, GLANCED)
            for change, detail in (
                (lambda d: {**d, "format": "other"}, "is not a Rackscore"),
                (lambda d: {**d, "version": 9}, "of version 9"),
            )
        ],
        # refused by the worker: what only reading it whole finds
        (GLANCED, lambda d: b'{"format": 1, not json}', 400, "is not a Rackscore"),
        (GLANCED, lambda d: b'{"games": [], "tournament": {"format": "swiss"}}', 400, "swiss"),
        (GLANCED, lambda d: {k: v for k, v in d.items() if k != "format"}, 400, "not a Rackscore"),
        (
            GLANCED,
            lambda d: b'{"x": 1, "format": "rackscore-tournament", not json}',
            202,
            "The file is not valid JSON",
        ),
        (GLANCED, lambda d: _with(d, b'"version": 1, "x": NaN,'), 202, "number no backup"),
        (READ, lambda d: {**d, "checksum": "0" * 64}, 202, "checksum does not match"),
        (GLANCED, lambda d: {**d, "checksum": "0" * 64}, 202, "checksum does not match"),
        (READ, lambda d: {**d, "games": d["games"][:3]}, 202, "checksum"),
    ],
)
def test_a_refused_large_backup_stores_nothing(
    settings, played, owner, read_mb, change, status, detail
):
    settings.RACKSCORE_BACKUP_READ_MB = read_mb
    document = change(tournament_document(tournament=played))
    before = rows_count()
    response = api_post(owner, document, slug="refused-copy")
    assert response.status_code == status, response.content[:300]
    if status == 202:
        job = response.json()
        assert (job["state"], job["tournament"]) == ("refused", None)
        assert job["error"]["code"] == "backup_refused" and job["error"]["status"] == 400
        assert detail in job["error"]["detail"] and job["error"]["field"] == "document"
    else:
        assert detail in response.json()["document"][0]
    after = rows_count()
    assert after.pop("tournaments.RestoreJob") == before.pop("tournaments.RestoreJob") + (
        status == 202
    )
    assert after == before


@pytest.mark.parametrize("read_mb", [READ, GLANCED])
def test_glanced_or_read_a_large_backup_restores_alike(settings, played, owner, read_mb):
    settings.RACKSCORE_BACKUP_READ_MB = read_mb
    for client, slug in ((api_post, "by-api"), (web_post, "by-desk")):
        response = client(owner, tournament_document(tournament=played), slug=slug)
        assert response.status_code == 202
        copy = Tournament.objects.get(slug=slug)
        assert standings_json(copy, owner) == standings_json(played, owner)


@pytest.mark.parametrize("read_mb", [READ, GLANCED])
@pytest.mark.parametrize("given", [True, False])
def test_a_slug_in_use_is_refused_in_the_request_as_a_small_restore_is(
    settings, played, owner, read_mb, given
):
    settings.RACKSCORE_BACKUP_READ_MB = read_mb
    document = tournament_document(tournament=played)
    slug = played.slug if given else ""
    if read_mb == GLANCED and not given:
        # Its own slug is known only once read whole: the worker refuses it.
        job = api_post(owner, document, slug=slug).json()
        assert (job["state"], job["error"]["status"]) == ("refused", 409)
        return
    before = rows_count()
    english = api_post(owner, document, slug=slug)
    assert english.status_code == 409, english.content[:300]
    assert "exists already" in english.json()["slug"][0]
    german = client_as(owner).post(
        f"{IMPORT}?slug={slug}" if slug else IMPORT,
        document_text(document).encode(),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert german.status_code == 409
    assert german.json()["slug"] != english.json()["slug"]
    desk = web_post(owner, document, slug=slug)
    assert desk.status_code == 400
    assert "exists already" in desk.context["form"].errors["slug"][0]
    assert rows_count() == before  # no restore job either


@pytest.mark.parametrize("read_mb", [READ, GLANCED])
@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (b'{"games": [], "checksum": "x"}', "not a Rackscore"),
        (b'{"format": "other", "games": []}', "“other”"),
    ],
)
def test_the_desk_refuses_a_large_file_that_is_no_backup_in_the_request(
    settings, played, owner, read_mb, body, detail
):
    settings.RACKSCORE_BACKUP_READ_MB = read_mb
    before = rows_count()
    response = web_post(owner, body, slug="no-copy")
    assert response.status_code == 400
    assert detail in response.context["form"].errors["file"][0]
    assert rows_count() == before


@pytest.mark.parametrize(
    ("who", "api", "web"),
    [
        ("anonymous", 401, 302),
        ("stranger", 404, 404),
        ("staff", 404, 404),
        ("co-organiser", 404, 404),
        ("starter", 200, 200),
    ],
)
def test_only_the_starter_sees_a_restores_progress(played, owner, co, who, api, web):
    starter = UserFactory(username="starter")
    job_id = api_post(starter, tournament_document(tournament=played), slug="x").json()["id"]
    user = {
        "anonymous": None,
        "stranger": UserFactory(),
        "staff": UserFactory(is_staff=True),
        "co-organiser": co,
        "starter": starter,
    }[who]
    api_client = client_as(user) if user is not None else client_as()
    assert api_client.get(f"/api/v1/tournaments/imports/{job_id}/").status_code == api
    web_answer = (web_client(user) if user is not None else Client()).get(f"{RESTORE}{job_id}/")
    assert web_answer.status_code == web
    assert client_as(starter).get("/api/v1/tournaments/imports/999999/").status_code == 404


def test_the_desk_answers_a_progress_page_that_shows_the_result(played, owner):
    response = web_post(owner, tournament_document(tournament=played), slug="desk-copy")
    assert response.status_code == 202
    job = RestoreJob.objects.get(user=owner)
    assert response["Location"] == f"{RESTORE}{job.pk}/"
    page = response.content.decode()
    copy = Tournament.objects.get(slug="desk-copy")
    assert "restored from the backup" in page and f"/t/{copy.slug}/organise/" in page
    assert 'http-equiv="refresh"' not in page  # finished: nothing to wait for


def test_the_desk_shows_a_refusal_on_the_progress_page(played, owner):
    document = {**tournament_document(tournament=played), "checksum": "0" * 64}
    response = web_post(owner, document, slug="bad-copy")
    assert response.status_code == 202
    page = response.content.decode()
    assert "Nothing was restored" in page and "checksum does not match" in page
    assert not Tournament.objects.filter(slug="bad-copy").exists()


@pytest.mark.django_db(transaction=True)
def test_a_queued_restore_refreshes_until_the_worker_has_run_it(settings, played, owner):
    """The database backend: the request only queues; ``db_worker --batch`` runs it
    (committed transactions: the worker takes its queue's lock, as in production)."""
    settings.TASKS = DATABASE
    response = web_post(owner, tournament_document(tournament=played), slug="queued-copy")
    assert response.status_code == 202
    page = response.content.decode()
    job = RestoreJob.objects.get(user=owner)
    assert job.state == RestoreJob.State.QUEUED and job.document
    assert f'http-equiv="refresh" content="3;url={RESTORE}{job.pk}/"' in page
    api = client_as(owner).get(f"/api/v1/tournaments/imports/{job.pk}/")
    assert (api.json()["state"], api["Retry-After"]) == ("queued", "5")
    assert not Tournament.objects.filter(slug="queued-copy").exists()

    call_command("db_worker", batch=True, reload=False, startup_delay=False, verbosity=0)

    job.refresh_from_db()
    assert (job.state, bytes(job.document)) == (RestoreJob.State.DONE, b"")
    assert job.tournament == Tournament.objects.get(slug="queued-copy", owner=owner)
    page = web_client(owner).get(f"{RESTORE}{job.pk}/").content.decode()
    assert "restored from the backup" in page and 'http-equiv="refresh"' not in page


def test_small_backups_still_restore_within_the_request(settings, played, owner):
    settings.RACKSCORE_BACKUP_REQUEST_GAMES = 800
    response = api_post(owner, tournament_document(tournament=played), slug="small-copy")
    assert response.status_code == 201
    assert not RestoreJob.objects.exists()


def test_a_job_runs_once(played, owner):
    """A task retried for a job already run changes nothing."""
    from tournaments.services.restore_jobs import restore_job_run

    api_post(owner, tournament_document(tournament=played), slug="once")
    job = RestoreJob.objects.get()
    assert restore_job_run(job_id=job.pk) is None
    assert Tournament.objects.filter(slug__startswith="once").count() == 1


def test_the_document_is_data_only(played, owner):
    """The file's owner and co-organisers are names, not accounts: the starter owns the copy."""
    document = tournament_document(tournament=played)
    assert document["tournament"]["owner"] == "owner"
    stranger = UserFactory(username="stranger")
    body = api_post(stranger, document, slug="data-only").json()
    copy = Tournament.objects.get(pk=body["tournament"])
    assert copy.owner == stranger and not copy.co_organisers.exists()
    assert json.loads(json.dumps(body))["state"] == "done"


@pytest.mark.parametrize(("asked", "mapped"), [("on", True), ("", False)])
def test_the_desk_uses_own_players_of_the_same_name_in_the_background(played, owner, asked, mapped):
    document = tournament_document(tournament=played)
    mine = PlayerFactory(name=document["players"][0]["name"], created_by=owner)
    theirs = PlayerFactory(name=document["players"][1]["name"])  # someone else's: never used
    upload = SimpleUploadedFile("cup.json", document_text(document).encode(), "application/json")
    answer = web_client(owner).post(RESTORE, {"file": upload, "slug": "n", "same_names": asked})
    assert answer.status_code == 202
    copy = Tournament.objects.get(slug="n")
    assert copy.entries.filter(player=mine).exists() is mapped
    assert not copy.entries.filter(player=theirs).exists()
