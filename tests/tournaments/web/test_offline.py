"""The match page as an installable app: the service worker at the root, one
table's manifest, and the offline queue's settings on the match page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from scoring import tiles
from tests.factories import match_seated, seated_ids
from tests.tournaments.web.support import play
from tournaments.models import Game, Match, Tournament
from tournaments.services.matches import match_token_regenerate

pytestmark = pytest.mark.django_db


def _config(client: Client, url: str) -> dict[str, Any]:
    text = client.get(url).content.decode()
    start = text.index('<script id="offline-config" type="application/json">')
    body = text[start:].split(">", 1)[1].split("</script>", 1)[0]
    config: dict[str, Any] = json.loads(body)
    return config


def test_service_worker_is_served_from_the_root_with_its_precache(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    config = json.loads(body.split("self.RACKSCORE_SW = ", 1)[1].split(";\n", 1)[0])
    assert "/static/css/site.css" in config["precache"]
    assert "/static/js/offline.js" in config["precache"]
    assert config["static"] == "/static/"
    assert 'importScripts("/static/js/sw.js")' in body


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_service_worker_answers_only_get(client: Client, method: str) -> None:
    assert getattr(client, method)("/sw.js").status_code == 405


def test_service_worker_is_not_under_a_language(client: Client) -> None:
    assert client.get("/de/sw.js").status_code == 404


def test_manifest_makes_the_table_installable(client: Client) -> None:
    match = match_seated(players=3)
    response = client.get(f"/m/{match.token}/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == f"/m/{match.token}/"
    assert manifest["scope"] == f"/m/{match.token}/"
    assert manifest["display"] == "standalone"
    assert manifest["short_name"] == "Table 1"
    assert match.round.tournament.name in manifest["name"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes


def test_manifest_in_german_starts_at_the_german_page(client: Client) -> None:
    match = match_seated(players=2)
    manifest = json.loads(client.get(f"/de/m/{match.token}/manifest.webmanifest").content)
    assert manifest["start_url"] == f"/de/m/{match.token}/"
    assert manifest["lang"] == "de"
    assert manifest["short_name"] == "Tisch 1"


@pytest.mark.parametrize("token", ["not-a-token", "x" * 40])
def test_manifest_of_an_unknown_link_is_404(client: Client, token: str) -> None:
    assert client.get(f"/m/{token}/manifest.webmanifest").status_code == 404


def test_manifest_of_a_replaced_link_is_404(client: Client) -> None:
    match = match_seated(players=2)
    old = match.token
    match_token_regenerate(match=match, user=match.round.tournament.owner)
    assert client.get(f"/m/{old}/manifest.webmanifest").status_code == 404


def test_match_page_links_its_manifest_and_script(client: Client) -> None:
    match = match_seated(players=3)
    text = client.get(f"/m/{match.token}/").content.decode()
    assert f'<link rel="manifest" href="/m/{match.token}/manifest.webmanifest">' in text
    assert "/static/js/offline.js" in text
    assert 'id="offline-queue"' in text
    assert "data-offline-form" in text


def test_offline_config_names_the_api_seats_and_recorded_games(client: Client) -> None:
    match = match_seated(players=3)
    play(match, games=1)
    config = _config(client, f"/m/{match.token}/")
    assert config["api"] == f"/api/v1/matches/{match.pk}/games/"
    assert config["token"] == match.token
    assert config["page"] == f"/m/{match.token}/"
    assert config["worker"] == "/sw.js"
    assert config["organiser"] is False
    assert config["taken"] == [1]
    assert config["planned"] == match.round.games_per_match
    assert [s["player"] for s in config["seats"]] == seated_ids(match)
    assert "time_up" in config["endings"]
    assert config["words"]["waiting"] == "Game {number}: waiting to send"


def test_offline_config_hands_the_queue_exactly_the_engines_tile_aliases(client: Client) -> None:
    """A kept tile list is compared with the stored one as the engine reads it."""
    match = match_seated(players=2)
    aliases = _config(client, f"/m/{match.token}/")["aliases"]
    assert aliases == dict(tiles.COLOUR_ALIASES)
    assert {"Y", "G", "S", "Z"} <= set(aliases)
    script = (settings.BASE_DIR / "static" / "js" / "offline.js").read_text()
    assert "config.aliases" in script and "/Y/g" not in script  # no letters of its own


def test_offline_config_is_translated(client: Client) -> None:
    match = match_seated(players=2, language="de")
    config = _config(client, f"/de/m/{match.token}/")
    assert config["page"] == f"/de/m/{match.token}/"
    assert config["words"]["record"] == "Spiel {number} eintragen"


def test_offline_config_says_when_an_organiser_enters(client: Client) -> None:
    match = match_seated(players=2)
    client.force_login(match.round.tournament.owner)
    assert _config(client, f"/m/{match.token}/")["organiser"] is True


def test_scripts_hold_no_words_of_their_own(client: Client) -> None:
    """Every word the queue shows comes from the page, so it is translated."""
    from django.conf import settings

    match = match_seated(players=2)
    words = _config(client, f"/m/{match.token}/")["words"]
    static = settings.BASE_DIR / "static" / "js"
    source = "".join((static / name).read_text() for name in ("offline.js", "offline-view.js"))
    for word in words.values():
        longest = max(re.split(r"\{\w+\}", word), key=len).strip()
        assert len(longest) < 8 or longest not in source, word


def _double_entry_match() -> Match:
    return match_seated(players=3, confirmation=Tournament.Confirmation.DOUBLE_ENTRY)


def test_a_game_sent_by_the_queue_is_marked_as_entered_on_this_phone(client: Client) -> None:
    match = _double_entry_match()
    url = f"/m/{match.token}/"
    other = Client()
    other.get(url)  # another phone at the table, since before the game
    client.get(url)
    play(match, games=1)  # as the queue sends it: through the API, which knows no phone
    before = _config(client, url)
    assert (before["mine"], before["awaiting"]) == ([], [1])
    assert before["mark"] == f"/m/{match.token}/mine/"
    assert "on this phone" in before["words"]["own"]
    assert client.post(f"{url}mine/", {"number": "1"}).status_code == 204
    assert _config(client, url)["mine"] == [1]
    # The game keeps this phone's session among its sources: it cannot second it either.
    assert Game.objects.get().entry_sources[-1]["marked"] is True
    # The page no longer offers this phone the game's second entry.
    assert "Record game 2" in client.get(url).content.decode()
    # The other phone is still offered it.
    assert "Record game 2" not in other.get(url).content.decode()


@pytest.mark.parametrize("number", ["", "x", "0", "-1", "1.5", "99999999"])
def test_marking_refuses_a_number_that_is_no_game_number(client: Client, number: str) -> None:
    match = _double_entry_match()
    play(match, games=1)
    assert client.post(f"/m/{match.token}/mine/", {"number": number}).status_code == 400


def test_marking_a_game_not_recorded_or_an_unknown_link_is_404(client: Client) -> None:
    match = _double_entry_match()
    assert client.post(f"/m/{match.token}/mine/", {"number": "1"}).status_code == 404
    assert client.post("/m/not-a-token/mine/", {"number": "1"}).status_code == 404
    assert client.get(f"/m/{match.token}/mine/").status_code == 405


def test_marking_needs_the_page_csrf_token() -> None:
    match = _double_entry_match()
    play(match, games=1)
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(f"/m/{match.token}/mine/", {"number": "1"}).status_code == 403
