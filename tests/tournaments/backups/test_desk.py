"""The desk's "Download a backup" and the "Restore from a backup" page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.backups.conftest import normal, rows_count
from tournaments.backups.document import checksum_of, document_text, tournament_document
from tournaments.backups.restore import tournament_import
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db

RESTORE = "/t/new/restore/"


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def backup_url(tournament: Tournament) -> str:
    return reverse("web:desk-backup", args=[tournament.slug])


def upload(document: dict[str, Any], name: str = "backup.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, document_text(document).encode(), "application/json")


def test_organisers_download_a_backup(played, owner, co):
    staff = UserFactory(username="staff", is_staff=True)
    for user in (owner, co, staff):
        response = client_for(user).get(backup_url(played))
        assert response.status_code == 200
        assert response["Content-Disposition"].startswith(f'attachment; filename="{played.slug}-')
        document = json.loads(response.content)
        assert normal(document, tokens=True) == normal(
            tournament_document(tournament=played), tokens=True
        )
    assert (
        f'href="{backup_url(played)}"'
        in client_for(owner).get(reverse("web:organise", args=[played.slug])).content.decode()
    )


def test_nobody_else_does(played):
    response = client_for().get(backup_url(played))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client_for(UserFactory()).get(backup_url(played)).status_code == 403
    played.public = False
    played.save(update_fields=["public"])
    assert client_for(UserFactory()).get(backup_url(played)).status_code == 404
    assert client_for(UserFactory()).post(backup_url(played)).status_code in (404, 405)


def test_the_restore_page_needs_a_login_and_is_linked_from_the_new_tournament_page():
    response = client_for().get(RESTORE)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    user = UserFactory()
    assert client_for(user).get(RESTORE).status_code == 200
    assert f'href="{RESTORE}"' in client_for(user).get("/t/new/").content.decode()


def test_a_restored_backup_becomes_a_new_tournament_of_whoever_uploads_it(played):
    someone = UserFactory(username="someone")
    document = tournament_document(tournament=played)
    client = client_for(someone)
    response = client.post(RESTORE, {"file": upload(document, "cup.json"), "slug": "cup-copy"})
    assert response.status_code == 302
    assert response["Location"] == reverse("web:organise", args=["cup-copy"])
    copy = Tournament.objects.get(slug="cup-copy")
    assert copy.owner == someone
    assert copy.audit.filter(action="tournament.imported", new__file="cup.json").exists()
    page = client.get(response["Location"]).content.decode()
    assert "restored from the backup" in page


@pytest.mark.parametrize(
    ("slug", "change", "reason"),
    [
        ("", None, "exists already"),
        ("x", lambda d: d["games"][0]["racks"][1].update(score="3.00"), "games[0].racks[1].score"),
        ("x", lambda d: d.update(format="else"), "not a Rackscore tournament backup"),
    ],
)
def test_a_refused_file_shows_the_reason_and_stores_nothing(played, owner, slug, change, reason):
    document = tournament_document(tournament=played, checksum=False)
    if change:
        change(document)
    document["checksum"] = checksum_of(document)
    before = rows_count()
    response = client_for(owner).post(RESTORE, {"file": upload(document), "slug": slug})
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert rows_count() == before


def test_a_file_that_is_no_json_is_refused(owner):
    file = SimpleUploadedFile("notes.json", b"{oops", "application/json")
    response = client_for(owner).post(RESTORE, {"file": file})
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()
    response = client_for(owner).post(RESTORE, {})
    assert response.status_code == 400


def test_an_existing_slug_is_named_at_the_slug_field(played, owner):
    document = tournament_document(tournament=played)
    response = client_for(owner).post(RESTORE, {"file": upload(document)})
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert f"“{played.slug}” exists already" in errors["slug"][0] and "file" not in errors


def test_a_file_with_a_byte_order_mark_restores(played, owner):
    data = b"\xef\xbb\xbf" + document_text(tournament_document(tournament=played)).encode()
    file = SimpleUploadedFile("bom.json", data, "application/json")
    response = client_for(owner).post(RESTORE, {"file": file, "slug": "bom"})
    assert response.status_code == 302
    assert Tournament.objects.filter(slug="bom").exists()


def test_a_blank_file_is_named_empty(owner):
    file = SimpleUploadedFile("blank.json", b"\n\n", "application/json")
    response = client_for(owner).post(RESTORE, {"file": file})
    assert response.status_code == 400
    assert response.context["form"].errors["file"] == ["The file is empty."]


def test_the_confirm_page_of_a_restored_tournament_names_the_original_entries(played, owner):
    """A restore keeps who entered a game as text: the games to confirm name
    the original's organiser (never an account) and the table's link as such."""
    mallory = UserFactory(username="mallory")
    copy = tournament_import(
        document=tournament_document(tournament=played), owner=mallory, slug="copy"
    )
    waiting = Game.objects.filter(match__round__tournament=copy, state="entered")
    by_round = {g.match.round.number: g for g in waiting.select_related("match__round")}
    assert [s["via"] for s in by_round[1].entry_sources] == ["link_api"]
    assert by_round[2].entry_sources == [
        {"via": "user", "user": None, "original_user": "owner", "session": "", "key": ""}
    ]
    page = client_for(mallory).get(reverse("web:desk-confirm", args=["copy"])).content.decode()
    to_confirm = page.split('id="h-entered"')[1]
    captions = re.findall(r"<caption>([^<]*?) <span", to_confirm)
    assert captions == ["Entered at the table", "Entered by owner (in the original)"]
    # The copy's owner is not the original's "owner": both are theirs to confirm.
    assert to_confirm.count('action="/t/copy/organise/games/') == 2
