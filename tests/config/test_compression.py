"""config.compression: textual answers leave gzip-compressed, those that carry a
secret (a match token, an API key) do not; the CSRF token is masked per answer."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.conf import settings
from django.http import FileResponse, HttpResponse, JsonResponse
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from config.compression import carries_secret, compressible, tag_suffixed
from tests.tournaments.web.support import tournament_played
from tournaments.models import Game, Match, Tournament

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
LONG = "x" * 400  # over GZipMiddleware's 200 bytes


@pytest.mark.parametrize(
    ("path", "headers", "body", "secret"),
    [
        ("/t/club-night/standings/", {}, b"<table>" + LONG.encode(), False),
        ("/m/AbC_12-xyz/", {}, LONG.encode(), True),
        ("/de/m/AbC_12-xyz/timer/", {}, LONG.encode(), True),
        ("/api/v1/matches/by-token/", {"HTTP_X_MATCH_TOKEN": "AbC_12"}, LONG.encode(), True),
        ("/t/club-night/", {}, b'<a href="/m/AbC_12-xyz/">Enter results</a>', True),
        ("/t/club-night/", {}, b'<a href="/en/m/AbC_12-xyz/">', True),
        ("/api/v1/rounds/3/", {}, b'{"matches":[{"id":1,"token":"AbC_12-xyz"}]}', True),
        ("/api/v1/rounds/3/", {}, b'{"matches":[{"id":1,"token":null}]}', False),
        ("/api/v1/auth/token/", {}, b'{"token": "9944b09199c62bcf9418ad846dd"}', True),
        ("/t/club-night/", {}, b'<a href="/media/x/">media</a><p>m/</p>', False),
        ("/matches/", {}, b'<a href="/api/v1/matches/12/">', False),
    ],
)
def test_an_answer_carries_a_secret_when_its_request_or_body_names_one(
    rf: RequestFactory, path, headers, body, secret
):
    request = rf.get(path, **headers)
    assert carries_secret(request, HttpResponse(body)) is secret


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        (HttpResponse(LONG), True),
        (HttpResponse(LONG, content_type="text/css"), True),
        (JsonResponse({"text": LONG}), True),
        (HttpResponse(LONG, content_type="application/manifest+json"), True),
        (HttpResponse(LONG, content_type="image/svg+xml"), True),
        (HttpResponse(LONG.encode(), content_type="application/pdf"), False),
        (HttpResponse(LONG.encode(), content_type="image/png"), False),
        (FileResponse(iter([LONG.encode()]), content_type="text/csv"), False),
    ],
)
def test_only_whole_textual_answers_are_compressed(rf: RequestFactory, response, expected):
    assert compressible(rf.get("/t/club-night/"), response) is expected


def _compressed(response: HttpResponse) -> bool:
    return response.get("Content-Encoding") == "gzip"


@pytest.mark.django_db
def test_a_public_standings_page_leaves_compressed_and_says_it_varies(client: Client):
    tournament = tournament_played(tables=2)
    url = f"/t/{tournament.slug}/standings/"
    plain = client.get(url)
    packed = client.get(url, **GZIP)
    assert packed.status_code == 200
    assert _compressed(packed)
    assert "Accept-Encoding" in packed["Vary"]
    assert not _compressed(plain)
    html = gzip.decompress(packed.content).decode()
    assert tournament.name in html
    assert len(packed.content) < len(plain.content) / 3


def _match(tournament: Tournament) -> Match:
    match = Match.objects.filter(round__tournament=tournament).first()
    assert match is not None
    return match


@pytest.mark.django_db
def test_answers_with_a_match_token_stay_uncompressed(client: Client):
    tournament = tournament_played(tables=2)
    match = _match(tournament)
    pages = [("en", f"/m/{match.token}/"), ("da", f"/da/m/{match.token}/")]
    for language, url in [*pages, ("en", f"/m/{match.token}/timer/")]:
        # The visitor's own language: a table's page then answers in it, not redirected.
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.get(url, **GZIP)
        assert response.status_code == 200, url
        assert match.token in response.content.decode(), url
        assert not _compressed(response), url
    api = client.get("/api/v1/matches/by-token/", HTTP_X_MATCH_TOKEN=match.token, **GZIP)
    assert api.status_code == 200
    assert api.json()["token"] == match.token
    assert not _compressed(api)


@pytest.mark.django_db
def test_the_tournament_page_is_compressed_for_visitors_not_for_its_organiser(client: Client):
    tournament = tournament_played(tables=2)
    url = f"/t/{tournament.slug}/"
    visitor = client.get(url, **GZIP)
    assert _compressed(visitor)
    assert "/m/" not in gzip.decompress(visitor.content).decode()
    client.force_login(tournament.owner)
    organiser = client.get(url, **GZIP)
    assert organiser.status_code == 200
    assert f"/m/{_match(tournament).token}/" in organiser.content.decode()
    assert not _compressed(organiser)


@pytest.mark.django_db
def test_a_form_is_compressed_its_csrf_token_masked_anew_in_every_answer(client: Client):
    field = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    tokens = []
    for _ in range(2):
        response = client.get("/accounts/login/", **GZIP)
        assert _compressed(response)
        tokens.append(field.findall(gzip.decompress(response.content).decode()))
    assert tokens[0] and tokens[1]
    assert tokens[0] != tokens[1]


@pytest.mark.django_db
def test_a_pdf_is_not_compressed_again(client: Client):
    response = client.get("/scoresheet.pdf?players=4", **GZIP)
    assert response.status_code == 200
    assert not _compressed(response)


@pytest.mark.parametrize(
    ("tag", "suffixed"),
    [('"3"', '"3-gzip"'), ('W/"3"', 'W/"3"'), ('"a1b2"', '"a1b2-gzip"'), ("junk", "junk")],
)
def test_a_compressed_representation_gets_a_strong_tag_of_its_own(tag, suffixed):
    assert tag_suffixed(tag) == suffixed


@pytest.mark.django_db
def test_a_client_that_accepts_gzip_corrects_a_game_with_the_tag_it_was_given():
    """A weakened tag would answer 412 to every If-Match: the compressed
    answer's tag is strong, and the view sees its own tag back."""
    tournament = tournament_played(tables=1)
    game = Game.objects.filter(match__round__tournament=tournament).order_by("pk").first()
    assert game is not None
    api = APIClient()
    api.force_authenticate(tournament.owner)
    url = f"/api/v1/games/{game.pk}/"
    read = api.get(url, **GZIP)
    assert _compressed(read)
    tag = read["ETag"]
    assert tag.endswith('-gzip"') and not tag.startswith("W/")
    racks = [
        {"player": r.player_id, "tiles": ""}
        if r.winner
        else {"player": r.player_id, "points": r.points, "jokers": r.jokers}
        for r in game.racks.order_by("position")
    ]
    body = {"ending": "rummikub", "racks": racks}
    changed = api.put(url, body, format="json", HTTP_IF_MATCH=tag, **GZIP)
    assert changed.status_code == 200, changed.content[:300]
    stale = api.put(url, body, format="json", HTTP_IF_MATCH=tag, **GZIP)
    assert stale.status_code == 412


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/v1/", "/api/v1/no-such-thing/", "/api/v1/tournaments/999999/"]
)
def test_an_api_error_rewritten_as_json_is_compressed_after_it_is_written(client: Client, path):
    """The JSON errors' bodies are written before the compression: an answer
    that says gzip is gzip, and one that is not says nothing."""
    response = client.get(path, HTTP_ACCEPT="text/html", **GZIP)
    assert response.status_code == 404
    body = gzip.decompress(response.content) if _compressed(response) else response.content
    if response["Content-Type"].startswith("application/json"):
        assert json.loads(body) == {"detail": "Not found."}
    else:  # the browsable API's own page for a known route
        assert b"Not found." in body
