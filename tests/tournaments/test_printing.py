"""Printable files, read back with pypdf: score sheets (a page per match, names,
game rows, the entry link and its QR code), the blank pad, standings, the
final report, who may print what, and the command. PDF renders cost 0.1–0.5 s
each, so the tests are few and each checks much."""

from __future__ import annotations

import datetime
import io
import re
import subprocess
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from pypdf import PageObject, PdfReader

from tests.factories import (
    AdjustmentFactory,
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments import printing
from tournaments.models import Match, Round, Seat, Tournament
from tournaments.services import RackEntry, game_record

pytestmark = pytest.mark.django_db


def round_with_tables(
    tournament: Tournament, *, sizes: tuple[int, ...], games: int, number: int = 1
) -> Round:
    """A round with a table per size, players seated in order, names with letters
    from every rulebook language."""
    round_ = RoundFactory(tournament=tournament, number=number, games_per_match=games)
    for table, size in enumerate(sizes, start=1):
        match = MatchFactory(round=round_, table=table)
        for seat in range(1, size + 1):
            player = PlayerFactory(name=f"Åse Ørsted-Müller {table}.{seat}")
            EntryFactory(tournament=tournament, player=player)
            Seat.objects.create(match=match, round=round_, player=player, position=seat)
    return round_


def pages_of(pdf: bytes) -> list[PageObject]:
    assert pdf.startswith(b"%PDF-")
    return list(PdfReader(io.BytesIO(pdf)).pages)


def game_rows(text: str) -> int:
    """The game numbers down the grid: the run 1, 2, 3 … after the last column labels."""
    tail = text.rsplit("Score", 1)[1].split()
    count = 0
    while count < len(tail) and tail[count] == str(count + 1):
        count += 1
    return count


def qr_matrix_drawn(page: PageObject) -> list[list[bool]]:
    """The QR code's modules as drawn on the page (the rectangles of its last stream)."""
    contents: Any = page["/Contents"]
    data = contents[-1].get_object().get_data().decode()
    rects = [
        tuple(float(v) for v in m.groups())
        for m in re.finditer(r"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re", data)
    ]
    left = min(r[0] for r in rects)
    top = max(r[1] + r[3] for r in rects)
    module = min(r[2] for r in rects)  # a one-module run
    size = round((max(r[0] + r[2] for r in rects) - left) / module)
    grid = [[False] * size for _ in range(size)]
    for x, y, w, _h in rects:
        row = round((top - y) / module) - 1
        for col in range(round((x - left) / module), round((x + w - left) / module)):
            grid[row][col] = True
    return grid


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
        code = printing.qr_code(url)
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
    assert stranger.get(f"/t/{public.slug}/report.pdf").status_code == 403
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
            racks=[RackEntry(player=p, points=0 if i == winner else 7) for i, p in enumerate(ids)],
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


def test_large_sets_render_in_workers_in_table_order(monkeypatch):
    monkeypatch.setattr(printing, "PARALLEL_MIN_PAGES", 2)
    sheets: list[printing.Sheet] = [
        {
            "tournament": "Open",
            "round": 2,
            "stage": "",
            "table": table,
            "date": None,
            "players": [{"seat": s, "name": f"P{table}-{s}", "club": ""} for s in (1, 2)],
            "games": 3,
            "joker_penalty": 30,
            "url": f"https://example.org/m/t{table}/",
            "paper": "A4",
        }
        for table in range(1, 6)
    ]
    sheet_set: printing.SheetSet = {
        "language": "en",
        "paper": "A4",
        "title": "Open",
        "sheets": sheets,
    }
    done: list[int] = []

    pdf = printing.sheets_pdf(sheet_set=sheet_set, workers=2, chunk_pages=2, progress=done.append)

    pages = pages_of(pdf)
    assert [p.extract_text().count(f"P{i}-1") for i, p in enumerate(pages, start=1)] == [1] * 5
    assert done == [2, 4, 5]
    # The plain render of the same sheets says the same words.
    whole = pages_of(printing.sheets_pdf_whole(sheet_set=sheet_set))
    assert sorted(pages[2].extract_text().split()) == sorted(whole[2].extract_text().split())


def test_print_selectors_plan_their_queries(
    django_assert_num_queries, django_assert_max_num_queries
):
    t = TournamentFactory(paper="Letter")
    round_ = round_with_tables(t, sizes=(4, 3, 2), games=4)
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    with django_assert_num_queries(2):
        data = printing.scoresheets_data(round_=round_, base_url="https://x.org/")
    with django_assert_max_num_queries(16):
        report = printing.report_data(tournament=t)
    assert [len(m.players) for m in report.rounds[0].matches] == [4, 3, 2]
    assert [len(s["players"]) for s in data["sheets"]] == [4, 3, 2]
    assert data["sheets"][0]["url"].startswith("https://x.org/m/")
    assert data["paper"] == "Letter" and data["sheets"][0]["games"] == 4


def test_print_scoresheets_command(tmp_path, monkeypatch):
    t = TournamentFactory()
    round_with_tables(t, sizes=(2, 2), games=2)
    monkeypatch.setenv("RACKSCORE_BASE_URL", "https://club.example/")
    out = tmp_path / "sheets.pdf"

    call_command("print_scoresheets", t.slug, "1", "--out", str(out), stdout=io.StringIO())

    pages = pages_of(out.read_bytes())
    assert len(pages) == 2
    assert "https://club.example/m/" in pages[1].extract_text()
    with pytest.raises(CommandError, match="no round 3"):
        call_command("print_scoresheets", t.slug, "3", "--out", str(out))
    with pytest.raises(CommandError, match="No tournament"):
        call_command("print_scoresheets", "nope", "1", "--out", str(out))


def test_qr_code_decodes_to_the_entry_link(tmp_path):
    """Decoded from the printed page at 100 dpi, when a decoder is installed
    (zxing-cpp is not among the project's dependencies: skipped otherwise)."""
    zxingcpp = pytest.importorskip("zxingcpp")
    image = pytest.importorskip("PIL.Image")
    url = "https://rackscore.example.org/m/Zq3x-9kLmN0pQrStUvWxYz12/"
    sheet_set: printing.SheetSet = {
        "language": "en",
        "paper": "A4",
        "title": "Open",
        "sheets": [
            {
                "tournament": "Open",
                "round": 1,
                "stage": "",
                "table": 7,
                "date": None,
                "players": [{"seat": s, "name": f"P{s}", "club": ""} for s in (1, 2, 3)],
                "games": 4,
                "joker_penalty": 30,
                "url": url,
                "paper": "A4",
            }
        ],
    }
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(printing.sheets_pdf(sheet_set=sheet_set))
    subprocess.run(["pdftoppm", "-png", "-r", "100", str(pdf), str(tmp_path / "p")], check=True)
    (png,) = tmp_path.glob("p*.png")
    assert [b.text for b in zxingcpp.read_barcodes(image.open(png))] == [url]
