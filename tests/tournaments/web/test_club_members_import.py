"""A club's members import on the web: a Danish Excel file previewed with its
Windows-1252 notice, the organiser's own player of no club offered as
themselves with a tick for a new player instead, the help naming the header
in the page's language."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import PlayerFactory, UserFactory
from tournaments.models import Player
from tournaments.services import clubs as club_services

pytestmark = pytest.mark.django_db


def _secretary() -> tuple[Client, Player, str]:
    user = UserFactory(username="secretary")
    club = club_services.club_create(name="Vesterbro RK", created_by=user)
    own = PlayerFactory(name="Lars Eriksen", club=None, created_by=user)
    client = Client()
    client.force_login(user)
    return client, own, club.slug


def test_a_danish_excel_file_is_previewed_with_the_match_offered():
    client, _own, slug = _secretary()
    raw = "Navn;Klub\r\nLars   Eriksen;\r\nMette Sørensen,;\r\n".encode("cp1252")
    page = client.post(
        f"/da/c/{slug}/members/import/", {"file": SimpleUploadedFile("medlemmer.csv", raw)}
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert "Windows-1252" in html
    assert [line.name for line in page.context["preview"].lines] == [
        "Lars Eriksen",
        "Mette Sørensen",
    ]
    assert 'name="new" value="2" form="import-confirm"' in html
    assert 'id="import-confirm"' in html
    assert "navn" in html  # the help names the Danish header


def test_the_match_joins_unless_ticked_new():
    client, own, slug = _secretary()
    text = "Navn\nLars Eriksen\n"
    assert client.post(f"/c/{slug}/members/import/confirm/", {"text": text}).status_code == 302
    own.refresh_from_db()
    assert own.club is not None and own.club.slug == slug
    client.post(f"/c/{slug}/members/{own.pk}/leave/")
    done = client.post(f"/c/{slug}/members/import/confirm/", {"text": text, "new": ["2"]})
    assert done.status_code == 302
    own.refresh_from_db()
    assert own.club is None
    assert Player.objects.filter(name="Lars Eriksen", club__slug=slug).count() == 1
