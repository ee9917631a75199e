"""The tournament's language at its tables (tournaments.web.table_language):
its match page, the match's timer, the screen and find my table open in the
tournament's language whatever the phone asks for; a language the visitor
picked with the switcher wins over it; printed and shown links carry the prefix."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import match_seated
from tournaments.models import Match
from tournaments.selectors.print_data import scoresheets_data
from tournaments.services.matches import match_token_regenerate

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME

# A table's page by its English address (no prefix), for a match.
PAGES = {
    "match": lambda m: f"/m/{m.token}/",
    "timer": lambda m: f"/m/{m.token}/timer/",
    "screen": lambda m: f"/t/{m.round.tournament.slug}/screen/",
    "tables": lambda m: f"/t/{m.round.tournament.slug}/tables/",
}


def prefixed(path: str, language: str) -> str:
    return path if language == "en" else f"/{language}{path}"


def phone(accept: str = "en-GB,en;q=0.9", chosen: str | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=accept)
    if chosen is not None:
        client.cookies[COOKIE] = chosen
    return client


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize(
    # (tournament's language, the address's, the visitor's own choice, the language answered)
    ("language", "asked", "chosen", "answered"),
    [
        ("da", "en", None, "da"),
        ("da", "da", None, "da"),
        ("da", "de", None, "da"),
        ("en", "da", None, "en"),
        ("en", "en", None, "en"),
        ("da", "da", "en", "en"),
        ("da", "en", "en", "en"),
        ("en", "en", "sv", "sv"),
        ("da", "en", "xx", "da"),  # a cookie naming no language of the site is no choice
    ],
)
def test_a_tables_page_opens_in_the_language_wanted(
    page: str, language: str, asked: str, chosen: str | None, answered: str
) -> None:
    match = match_seated(language=language, public=True)
    english = PAGES[page](match)
    client = phone(accept="en-GB,en;q=0.9" if asked != "de" else "de", chosen=chosen)
    response = client.get(prefixed(english, asked))
    if asked == answered:
        assert response.status_code == 200
    else:
        assert response.status_code == 302
        assert response["Location"] == prefixed(english, answered)
        assert "Cookie" in response["Vary"] and "no-cache" in response["Cache-Control"]
        response = client.get(response["Location"])
        assert response.status_code == 200
    assert f'<html lang="{answered}"' in response.content.decode()


def test_the_query_is_kept() -> None:
    match = match_seated(language="da")
    slug = match.round.tournament.slug
    response = phone().get(f"/t/{slug}/tables/?q=an")
    assert response["Location"] == f"/da/t/{slug}/tables/?q=an"


def test_a_form_posted_is_taken_in_its_addresss_language() -> None:
    match = match_seated(language="da", players=2)
    response = phone().post(f"/m/{match.token}/", {"number": "1"})
    assert response.status_code in {200, 400}
    assert '<html lang="en"' in response.content.decode()


def test_a_replaced_link_still_says_so() -> None:
    match = match_seated(language="da")
    old = match.token
    match_token_regenerate(match=match, user=match.round.tournament.owner)
    assert phone().get(f"/m/{old}/").status_code == 410


def test_a_private_tournaments_screen_is_not_told_by_a_redirect() -> None:
    match = match_seated(language="da", public=False)
    assert phone().get(f"/t/{match.round.tournament.slug}/screen/").status_code == 404


def test_the_switcher_keeps_the_choice_and_it_wins_next_time() -> None:
    match = match_seated(language="da")
    client = phone()
    assert client.get(f"/m/{match.token}/")["Location"] == f"/da/m/{match.token}/"
    # The switcher on the Danish page posts the unprefixed address (base.html).
    response = client.post("/i18n/setlang/", {"language": "en", "next": f"/m/{match.token}/"})
    assert response["Location"] == f"/m/{match.token}/"
    kept = response.cookies[COOKIE]
    assert kept.value == "en" and int(kept["max-age"]) >= 30 * 24 * 60 * 60
    again = client.get(f"/da/m/{match.token}/")
    assert again["Location"] == f"/m/{match.token}/"
    assert '<html lang="en"' in client.get(f"/m/{match.token}/").content.decode()


@pytest.mark.parametrize(("language", "path"), [("da", "/da/m/"), ("en", "/m/"), ("nl", "/nl/m/")])
def test_the_score_sheets_qr_link_carries_the_prefix(language: str, path: str) -> None:
    match = match_seated(language=language)
    sheets = scoresheets_data(round_=match.round, base_url="https://scores.example/")
    assert sheets["sheets"][0]["url"] == f"https://scores.example{path}{match.token}/"


def test_the_screen_shows_find_my_table_in_the_tournaments_language() -> None:
    match = match_seated(language="sv")
    slug = match.round.tournament.slug
    page = phone().get(f"/sv/t/{slug}/screen/").content.decode()
    assert f"http://testserver/sv/t/{slug}/tables/" in page
    page = phone(chosen="en").get(f"/t/{slug}/screen/").content.decode()
    assert f"http://testserver/sv/t/{slug}/tables/" in page


def test_match_state_and_manifest_are_not_moved() -> None:
    match: Match = match_seated(language="da")
    assert phone().get(f"/m/{match.token}/state/").status_code == 200
    assert phone().get(f"/m/{match.token}/manifest.webmanifest").status_code == 200


def test_the_redirect_reads_only_the_match(django_assert_num_queries) -> None:
    """The match as the page reads it (the match, its seats, its games), nothing more."""
    match = match_seated(language="da")
    client = phone()
    with django_assert_num_queries(3):
        response = client.get(f"/m/{match.token}/")
    assert response.status_code == 302


def test_the_sign_up_page_reads_nothing(client: Client, django_assert_num_queries) -> None:
    with django_assert_num_queries(0):
        assert client.get("/accounts/signup/").status_code == 200
