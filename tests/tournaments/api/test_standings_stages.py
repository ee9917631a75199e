"""The standings endpoint's ``?stage=``: only a stage the tournament has (a 400
naming those there are, translated, otherwise), and ``?category=`` caching only
the categories players carry."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import match_seated
from tests.tournaments.services.test_stages import qualified
from tests.tournaments.web.support import play
from tournaments.api import standings as standings_api
from tournaments.models import Entry
from tournaments.services import stages

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seat", "asked", "status", "named"),
    [
        ((), "qualifying", 200, ""),
        ((), "semifinal", 400, "the stages there are: qualifying."),
        ((), "final", 400, "the stages there are: qualifying."),
        (("semifinal",), "semifinal", 200, ""),
        (("semifinal",), "final", 400, "the stages there are: qualifying, semifinal."),
        (("final",), "final", 200, ""),
    ],
)
def test_a_stage_is_asked_of_a_tournament_that_has_it(
    anon: APIClient, seat: tuple[str, ...], asked: str, status: int, named: str
) -> None:
    t, _order = qualified(semis=8 if "semifinal" in seat else 0)
    t.public = True
    t.save(update_fields=["public"])
    for stage in seat:
        stages.stage_seat(tournament=t, stage=stage)
    answer = anon.get(f"/api/v1/tournaments/{t.pk}/standings/", {"stage": asked})
    assert answer.status_code == status, answer.content
    if status == 400:
        message = answer.json()["stage"][0]
        assert message == f"This tournament has no {asked} stage; {named}"
        assert "ETag" not in answer
    else:
        assert answer.json()["stage"] == asked


def test_the_refusal_is_translated(anon: APIClient) -> None:
    match = match_seated(players=4, public=True)
    url = f"/api/v1/tournaments/{match.round.tournament_id}/standings/?stage=final"
    answer = anon.get(url, HTTP_ACCEPT_LANGUAGE="da")
    assert answer.status_code == 400
    message = answer.json()["stage"][0]
    assert "qualifying" in message and "This tournament" not in message


def test_only_a_category_players_carry_makes_a_cache_entry(
    anon: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the standings page: a category nobody carries answers no rows, built
    afresh, so free text makes no cache entry."""
    match = match_seated(players=4, public=True)
    play(match, games=1)
    t = match.round.tournament
    Entry.objects.filter(tournament=t).update(category="U14")
    kept: list[str] = []
    real = standings_api.cached

    def spy(**kwargs: Any) -> Any:
        kept.append(kwargs["key"])
        return real(**kwargs)

    monkeypatch.setattr(standings_api, "cached", spy)
    url = f"/api/v1/tournaments/{t.pk}/standings/"
    for n in range(5):
        answer = anon.get(url, {"category": f"made up {n}"})
        assert answer.status_code == 200 and answer.json()["results"] == []
    assert kept == []
    assert len(anon.get(url, {"category": "U14"}).json()["results"]) == 4
    assert len(kept) == 1
