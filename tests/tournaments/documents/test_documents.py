"""The standings and the final report write their numbers in the tournament's
language, as its pages do: "22,50" in Danish, "22.50" in English, whatever
the language the request asks for."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.printing.engine.pdf import pages_of
from tests.tournaments.documents.rounds import played_with_cents
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _played(language: str) -> tuple[Tournament, Client]:
    owner = UserFactory()
    client = Client()
    client.force_login(owner)
    return played_with_cents(owner=owner, language=language), client


def _text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return "\n".join(page.extract_text() for page in pages_of(response.content))


@pytest.mark.parametrize(("language", "mark"), [("da", ","), ("de", ","), ("en", ".")])
@pytest.mark.parametrize("prefix", ["", "/nl"])  # the tournament's language, not the request's
def test_the_pdfs_write_numbers_in_the_tournaments_language(
    language: str, mark: str, prefix: str
) -> None:
    t, client = _played(language)
    other = "." if mark == "," else ","
    standings = _text(client, f"{prefix}/t/{t.slug}/standings.pdf")
    assert f"22{mark}50" in standings and f"-2{mark}50" in standings  # total, adjustment
    assert f"22{other}50" not in standings and f"-2{other}50" not in standings
    report = _text(client, f"{prefix}/t/{t.slug}/report.pdf")
    # The final table, the match boxes (22.50 and 0.50 over the match) and the adjustment.
    for number in ("22", "0", "-2"):
        assert f"{number}{mark}50" in report and f"{number}{other}50" not in report
