"""Every API 404 says one translated sentence that names no model: whatever
raised it (``get_object_or_404``, ``Http404``, DRF's ``NotFound``, no URL at
all), a client learns nothing of what the server keeps."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory, match_seated
from tests.tournaments.api.conftest import client_as

pytestmark = pytest.mark.django_db

MISSING = 987654


def _paths(tournament: int, match: int) -> list[tuple[str, str]]:
    return [
        ("post", f"/api/v1/invitations/{MISSING}/accept/"),  # get_object_or_404
        ("get", f"/api/v1/invitations/{MISSING}/"),
        ("post", f"/api/v1/games/{MISSING}/confirm/"),
        ("get", f"/api/v1/tournaments/{MISSING}/"),
        ("get", f"/api/v1/tournaments/{MISSING}/standings/"),
        ("get", f"/api/v1/players/{MISSING}/"),
        ("get", f"/api/v1/clubs/{MISSING}/"),
        ("get", f"/api/v1/matches/{MISSING}/games/"),
        ("get", f"/api/v1/matches/{match}/games/{MISSING}/"),
        ("delete", f"/api/v1/tournaments/{tournament}/adjustments/{MISSING}/"),
        ("get", "/api/v1/no-such-thing/"),  # no URL matched
    ]


@pytest.mark.parametrize(("language", "sentence"), [("en", "Not found."), ("da", "Ikke fundet.")])
def test_every_404_says_one_translated_sentence_naming_no_model(language, sentence):
    match = match_seated(players=2)
    tournament = match.round.tournament
    client = client_as(tournament.owner)
    for method, path in _paths(tournament.pk, match.pk):
        answer = getattr(client, method)(path, HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 404, (path, answer.status_code)
        assert answer.json() == {"detail": sentence}, path
    # A refusal that says what is missing in its own words (NotFoundError): translated too.
    own = client.delete(
        f"/api/v1/tournaments/{tournament.pk}/invitations/nobody/", HTTP_ACCEPT_LANGUAGE=language
    )
    assert own.status_code == 404 and "Invitation" not in own.json()["detail"]
    assert ("waits for an answer" in own.json()["detail"]) == (language == "en")


def test_a_private_tournament_answers_as_one_that_does_not_exist():
    match = match_seated(players=2, public=False)
    answer = client_as(UserFactory()).get(f"/api/v1/tournaments/{match.round.tournament_id}/")
    missing = client_as(UserFactory()).get(f"/api/v1/tournaments/{MISSING}/")
    assert answer.status_code == missing.status_code == 404
    assert answer.json() == missing.json() == {"detail": "Not found."}


@pytest.mark.parametrize(
    ("racks", "language", "ending"),
    [
        (1, "en", "; 1 was given."),
        (5, "en", "; 5 were given."),
        (1, "da", "angivet 1 brikholder."),
        (5, "da", "angivet 5 brikholdere."),
        (1, "de", "; 1 wurde angegeben."),
        (5, "de", "; 5 wurden angegeben."),
    ],
)
def test_a_refusal_that_counts_says_the_numbers_own_form(racks, language, ending):
    """The rulebook's messages that count are translated with ngettext."""
    body = {"ending": "rummikub", "racks": [{"player": f"P{n}", "points": n} for n in range(racks)]}
    answer = client_as().post("/api/v1/score/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 400
    assert answer.json()["racks"][0].endswith(ending)
