"""Printed files kept by tournament version: a second request is served from the
files cache without drawing; any write through the services (a game recorded,
a setting changed) makes a new version and so a new file; the language, the
paper and (for score sheets) the site's address are part of the key."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.rules import RackIn
from tests.factories import TournamentFactory, UserFactory
from tests.printing.engine.pdf import pages_of
from tests.tournaments.documents.rounds import round_with_tables
from tournaments.documents import documents, files
from tournaments.models import Tournament
from tournaments.services.games import game_record
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """Counts the documents actually drawn (a cache hit draws none)."""
    calls: list[str] = []
    for name in ("standings_document", "report_document"):
        real = getattr(documents, name)

        def counting(*, tournament, _real=real, _name=name, **kwargs):
            calls.append(_name)
            return _real(tournament=tournament, **kwargs)

        monkeypatch.setattr(files, name, counting)
    return calls


def _played(t: Tournament) -> None:
    match = t.round_set.get().matches.get()
    ids = list(match.seats.order_by("position").values_list("player_id", flat=True))
    game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=p, points=0 if i == 0 else 7) for i, p in enumerate(ids)],
    )


def test_second_request_is_served_from_the_cache_until_a_game_is_recorded(drawn):
    owner = UserFactory()
    t: Tournament = TournamentFactory(owner=owner)
    round_with_tables(t, sizes=(3,), games=2)
    client = Client()
    client.force_login(owner)

    first = client.get(f"/t/{t.slug}/standings.pdf").content
    second = client.get(f"/t/{t.slug}/standings.pdf").content
    assert drawn == ["standings_document"]
    assert first == second  # the very same file, its "printed" time the first render's

    _played(t)
    third = client.get(f"/t/{t.slug}/standings.pdf").content
    assert drawn == ["standings_document"] * 2
    text = "".join(p.extract_text() for p in pages_of(third))
    assert "After 1 round" in text and "     14" in text and "     -7" in text

    client.get(f"/t/{t.slug}/report.pdf")
    client.get(f"/t/{t.slug}/report.pdf")
    assert drawn.count("report_document") == 1


def test_a_changed_setting_makes_a_new_file_in_its_language_and_paper(drawn):
    owner = UserFactory()
    t: Tournament = TournamentFactory(owner=owner, language="en", paper="A4")
    round_with_tables(t, sizes=(2,), games=1)

    english = files.standings_pdf(tournament=t)
    t = tournament_update(tournament=t, user=owner, language="da", paper="Letter")
    danish = files.standings_pdf(tournament=t)

    assert drawn == ["standings_document"] * 2
    (page,) = pages_of(danish)
    assert float(page.mediabox.width) == pytest.approx(612, abs=1)  # Letter
    assert float(pages_of(english)[0].mediabox.width) == pytest.approx(595, abs=1)  # A4
    assert b"/Lang <FEFF00640061>" in danish  # "da", as the document's language


def test_the_key_holds_the_language_and_paper():
    t: Tournament = TournamentFactory(language="da", paper="Letter")
    keys = []
    original = files.tournament_key

    def spy(**kwargs):
        keys.append(kwargs)
        return original(**kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(files, "tournament_key", spy)
        files.standings_pdf(tournament=t)
    assert keys[0]["what"] == "standings.pdf" and keys[0]["parts"] == ("da", "Letter", "")


def test_score_sheets_are_cached_by_the_sites_address(monkeypatch):
    t: Tournament = TournamentFactory()
    round_ = round_with_tables(t, sizes=(2,), games=1)
    rendered: list[str] = []
    real = files.sheets_pdf

    def counting(*, sheet_set, **kwargs):
        rendered.append(sheet_set["sheets"][0]["url"])
        return real(sheet_set=sheet_set, **kwargs)

    monkeypatch.setattr(files, "sheets_pdf", counting)
    for site in ("https://a.example", "https://a.example", "https://b.example"):
        files.scoresheets_pdf(round_=round_, base_url=site)
    assert [url.split("/m/")[0] for url in rendered] == ["https://a.example", "https://b.example"]


def test_only_a_category_players_carry_is_kept(drawn):
    """As the standings page: a category nobody carries (free text) is drawn
    every time, with no rows, and never kept; one players carry is kept."""
    owner = UserFactory()
    t: Tournament = TournamentFactory(owner=owner)
    round_with_tables(t, sizes=(3,), games=2)
    t.entries.update(category="U14")
    client = Client()
    client.force_login(owner)
    for n in (1, 2, 1):
        assert client.get(f"/t/{t.slug}/standings.pdf", {"category": f"x{n}"}).status_code == 200
    assert drawn == ["standings_document"] * 3
    for _time in range(2):
        assert client.get(f"/t/{t.slug}/standings.pdf", {"category": "U14"}).status_code == 200
    assert drawn == ["standings_document"] * 4
