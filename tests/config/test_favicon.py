"""The project's icon: every page links it, the projector and the timer too,
and ``/favicon.ico`` (asked for unbidden) leads to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client

from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_favicon_ico_leads_to_the_icon(client: Client) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302 and answer["Location"] == static("icons/app-192.png")
    # A static file of the project (collected, served by whitenoise).
    found = finders.find("icons/app-192.png")
    assert found and Path(found).read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "page", ["/", "/t/{slug}/", "/t/{slug}/screen/", "/timer/", "/calculator/"]
)
def test_every_page_links_the_icon(client: Client, page: str) -> None:
    tournament = TournamentFactory(public=True)
    html = client.get(page.format(slug=tournament.slug)).content.decode()
    assert f'<link rel="icon" href="{static("icons/app.svg")}" type="image/svg+xml">' in html
