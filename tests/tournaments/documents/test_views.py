"""Printable files over HTTP, read back with pypdf: a round's score sheets (a page
per match, names, game rows, the entry link and its QR code), the blank pad and
its refusals, standings, the final report, and who may print what. PDF renders
cost 0.1–0.5 s each, so the tests are few and each checks much."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.test import Client

from printing.qr import qr_code
from scoring.rules import RackIn
from tests.factories import AdjustmentFactory, TournamentFactory, UserFactory
from tests.printing.engine.pdf import game_rows, pages_of, qr_matrix_drawn
from tests.tournaments.documents.rounds import round_with_tables
from tournaments.models import Match, Tournament
from tournaments.services.games import game_record

pytestmark = pytest.mark.django_db


def test_round_scoresheets_a_page_per_match_with_names_rows_and_entry_link():
    owner = UserFactory()
    t: Tournament = TournamentFactory(
        owner=owner, joker_penalty=25, date=datetime.date(2026, 11, 21)
    )
    round_ = round_with_tables(t, sizes=(4, 4, 3), games=5)
    client = Client()
    client.force_login(owner)

    response = client.get(f"/t/{t.slug}/rounds/1/scoresheets.pdf")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pages = pages_of(response.content)
    matches = list(Match.objects.filter(round=round_).order_by("table"))
    assert len(pages) == len(matches) == 3
    for page, match in zip(pages, matches, strict=True):
        text = page.extract_text()
        url = f"http://testserver/m/{match.token}/"
        assert f"Table {match.table}" in text
        assert t.name in text and "Round 1" in text and "a joker 25" in text
        for seat in match.seats.select_related("player"):
            assert seat.player.name in text
        assert game_rows(text) == 5
        assert url in text
        links = [a.get_object()["/A"]["/URI"] for a in page["/Annots"]]
        assert links == [url]
        # The drawn modules are those of the QR code of this page's link.
        code = qr_code(url)
        assert code.error == "M"
        assert qr_matrix_drawn(page) == [[bool(v) for v in row] for row in code.matrix]
    # Other tables' players are not on this table's page.
    assert "Åse Ørsted-Müller 2.1" not in pages[0].extract_text()


def test_who_may_print_what():
    owner, other = UserFactory(), UserFactory()
    public = TournamentFactory(owner=owner)
    private = TournamentFactory(owner=owner, public=False)
    for t in (public, private):
        round_with_tables(t, sizes=(2,), games=1)
    anonymous, stranger = Client(), Client()
    stranger.force_login(other)

    # The sheets carry every match's private entry link: organisers only.
    sheets = f"/t/{public.slug}/rounds/1/scoresheets.pdf"
    assert anonymous.get(sheets).status_code == 302
    assert stranger.get(sheets).status_code == 403
    # The final report is public with its tournament, as the standings are.
    for client in (anonymous, stranger):
        answer = client.get(f"/t/{public.slug}/report.pdf")
        assert answer.status_code == 200
        assert answer["Content-Type"] == "application/pdf"
    assert anonymous.get(f"/t/{private.slug}/report.pdf").status_code == 404
    for url in (
        f"/t/{private.slug}/rounds/1/scoresheets.pdf",
        f"/t/{private.slug}/standings.pdf",
        f"/t/{private.slug}/report.pdf",
        "/t/no-such-tournament/standings.pdf",
    ):
        assert stranger.get(url).status_code == 404, url
    assert anonymous.get(f"/t/{private.slug}/standings.pdf").status_code == 404
    organiser = Client()
    organiser.force_login(owner)
    for number in ("2", "0", "99999999999999999999"):
        url = f"/t/{public.slug}/rounds/{number}/scoresheets.pdf"
        assert organiser.get(url).status_code == 404, url


def test_blank_pad_with_names_and_rows():
    response = Client().get("/scoresheet.pdf?players=3&games=12&name=Anna&name=Bjørn&paper=Letter")

    assert response.status_code == 200
    (page,) = pages_of(response.content)
    text = page.extract_text()
    assert "Anna" in text and "Bjørn" in text
    assert game_rows(text) == 12
    assert "Rummikub score sheet" in text
    assert "http" not in text and "/Annots" not in page  # no entry link on a blank pad
    assert float(page.mediabox.width) == pytest.approx(612, abs=1)  # Letter
    # The fonts the project installs (scripts/install-system.sh), embedded: not a fallback.
    assert b"/BaseFont /" in response.content
    assert all(b"DejaVu-Sans" in f for f in re.findall(rb"/BaseFont /\S+", response.content))


@pytest.mark.parametrize(
    "query",
    [
        "players=1",
        "players=5",
        "players=x",
        "games=0",
        "games=31",
        "games=",
        "games=1e3",
        "lang=xx",
        "paper=A0",
        "players=2&names=a,b,c",
    ],
)
def test_blank_pad_bad_parameters_answer_400_page(query):
    if query == "games=":  # empty means the default: not an error
        assert Client().get(f"/scoresheet.pdf?{query}").status_code == 200
        return
    response = Client().get(f"/scoresheet.pdf?{query}")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert b"Cannot print this" in response.content


def test_standings_and_final_report_contain_what_they_should():
    owner = UserFactory()
    t: Tournament = TournamentFactory(owner=owner)
    round_ = round_with_tables(t, sizes=(3,), games=2)
    match = round_.matches.get()
    ids = list(match.seats.order_by("position").values_list("player_id", flat=True))
    for winner in (0, 2):
        game_record(
            match=match,
            ending="rummikub",
            racks=[RackIn(player=p, points=0 if i == winner else 7) for i, p in enumerate(ids)],
        )
    AdjustmentFactory(tournament=t, player_id=ids[1], points=Decimal(-5), reason="Late for round 1")
    client = Client()
    client.force_login(owner)

    standings = pages_of(client.get(f"/t/{t.slug}/standings.pdf").content)
    text = "".join(p.extract_text() for p in standings)
    assert "Standings" in text and t.name in text
    for name in ("Åse Ørsted-Müller 1.1", "Åse Ørsted-Müller 1.2", "Åse Ørsted-Müller 1.3"):
        assert name in text
    assert "-19" in text  # seat 2: -7 twice, -5 adjusted

    report = pages_of(client.get(f"/t/{t.slug}/report.pdf").content)
    text = "".join(p.extract_text() for p in report)
    assert "Final report" in text and "Round 1" in text and "Table 1" in text
    assert "Late for round 1" in text and "2 games" in text


def test_a_bonus_leagues_sheets_state_its_cap_and_bonuses():
    owner = UserFactory()
    t = TournamentFactory(owner=owner, loss_cap=25, winner_bonus=50, runner_up_bonus=5)
    plain = TournamentFactory(owner=owner)
    for tournament in (t, plain):
        round_with_tables(tournament, sizes=(4,), games=4)
    client = Client()
    client.force_login(owner)
    text = pages_of(client.get(f"/t/{t.slug}/rounds/1/scoresheets.pdf").content)[0].extract_text()
    flat = " ".join(text.split())
    assert "a loss counts at most 25 points" in flat
    assert "the winner +50, the lowest rack among the others +5" in flat
    other = pages_of(client.get(f"/t/{plain.slug}/rounds/1/scoresheets.pdf").content)[0]
    assert "This event" not in other.extract_text()
