"""The standings page's ``?category=``: the choice of categories, one category's rows
ranked among themselves, its exports and its PDF, and the caches kept apart."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client

from tests.factories import match_seated, seated_ids
from tests.printing.engine.pdf import pages_of
from tests.tournaments.web.support import play
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup() -> Tournament:
    match = match_seated(players=4, slug="cat-cup", public=True)
    play(match, games=3)
    a, b, c, _d = seated_ids(match)
    Entry.objects.filter(player_id__in=[a, c]).update(category="U14")
    Entry.objects.filter(player_id=b).update(category="Senior ü")
    return match.round.tournament


def test_the_page_offers_each_category_and_ranks_one_among_itself(client: Client, cup) -> None:
    everyone = client.get("/t/cat-cup/standings/")
    html = everyone.content.decode()
    assert "?category=U14" in html and "?category=Senior%20%C3%BC" in html
    rows = everyone.context["table"].data
    u14 = client.get("/t/cat-cup/standings/?category=U14")
    chosen = list(u14.context["table"].data)
    assert [r.player_id for r in chosen] == [r.player_id for r in rows if r.category == "U14"]
    assert chosen[0].rank == 1 and len(chosen) == 2
    assert 'aria-current="page">U14<' in u14.content.decode()
    # the whole page is not served the category's cached body, nor the other way round
    others = [r.name for r in rows if r.category != "U14"]
    assert all(name not in u14.content.decode() for name in others)
    again = client.get("/t/cat-cup/standings/").content.decode()
    assert all(name in again for name in others)


def test_a_category_nobody_carries_shows_no_rows(client: Client, cup) -> None:
    response = client.get("/t/cat-cup/standings/?category=Nobody")
    assert response.status_code == 200
    assert list(response.context["table"].data) == []
    long = client.get("/t/cat-cup/standings/?category=" + "x" * 500)
    assert long.status_code == 200 and list(long.context["table"].data) == []


def test_a_category_nobody_carries_is_said_to_be_none_of_the_tournament(
    client: Client, cup
) -> None:
    html = client.get("/t/cat-cup/standings/?category=Nobody").content.decode()
    assert "This tournament has no category “Nobody”." in html
    assert "No players have entered yet." not in html
    assert "Players of the category Nobody" not in html
    # The categories there are stay offered, and everyone one click away.
    assert "?category=U14" in html and ">everyone</a>" in html
    german = client.get("/de/t/cat-cup/standings/?category=Nobody").content.decode()
    assert "Dieses Turnier hat keine Kategorie „Nobody“." in german
    marked = client.get("/t/cat-cup/standings/", {"category": "<b>x</b>"}).content.decode()
    assert "no category “&lt;b&gt;x&lt;/b&gt;”" in marked


def test_a_tournament_without_categories_says_the_one_asked_for_is_none(client: Client) -> None:
    match = match_seated(players=4, slug="plain-cup", public=True)
    play(match, games=1)
    html = client.get("/t/plain-cup/standings/?category=U14").content.decode()
    assert "This tournament has no category “U14”." in html
    everyone = client.get("/t/plain-cup/standings/").content.decode()
    assert "No players have entered yet." not in everyone and "no category" not in everyone


def test_exports_carry_the_category(client: Client, cup) -> None:
    response = client.get("/t/cat-cup/standings/?category=U14&_export=csv")
    assert 'filename="cat-cup-standings-u14.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert len(rows) == 1 + 2 and rows[1][0] == "1"
    data = json.loads(client.get("/t/cat-cup/standings/?category=U14&_export=json").content)
    assert len(data) == 2
    whole = client.get("/t/cat-cup/standings/?_export=csv")
    assert len(list(csv.reader(io.StringIO(whole.content.decode())))) == 1 + 4


def test_the_pdf_carries_the_category(client: Client, cup) -> None:
    response = client.get("/t/cat-cup/standings.pdf?category=U14")
    assert response.status_code == 200
    assert "cat-cup-standings-u14.pdf" in response["Content-Disposition"]
    text = "".join(p.extract_text() for p in pages_of(response.content))
    assert "U14" in text
    names = dict(Entry.objects.filter(tournament=cup).values_list("player__name", "category"))
    for name, category in names.items():
        assert (name in text) == (category == "U14")


def test_the_pdf_of_a_category_nobody_carries_says_so(client: Client, cup) -> None:
    response = client.get("/t/cat-cup/standings.pdf?category=Nobody")
    assert response.status_code == 200
    text = " ".join("".join(p.extract_text() for p in pages_of(response.content)).split())
    assert "This tournament has no category “Nobody”." in text
    assert "No players have entered yet." not in text


def test_a_categorys_file_names_are_in_plain_letters(client: Client, cup) -> None:
    Entry.objects.filter(tournament=cup, category="").update(category="Øvede")
    response = client.get("/t/cat-cup/standings/?category=Øvede&_export=csv")
    assert 'filename="cat-cup-standings-ovede.csv"' in response["Content-Disposition"]
    pdf = client.get("/t/cat-cup/standings.pdf?category=Øvede")
    assert "cat-cup-standings-ovede.pdf" in pdf["Content-Disposition"]
