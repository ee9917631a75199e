"""The bounds of a tournament's event variants, stages and hall settings, at
their limits and one past them through the API: accepted at the limit, a 400
naming the field one past it, nothing stored. ``VARIANT_LIMITS`` joins the
other settings' limits (``test_bounds.SETTING_LIMITS``) that the OpenAPI
document, the backup format and the settings form declare."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import rules
from tests.factories import TournamentFactory
from tests.tournaments.api.conftest import client_as
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

VARIANT_LIMITS = {
    "loss_cap": (1, rules.LOSS_CAP_MAX),
    "winner_bonus": (0, rules.BONUS_MAX),
    "runner_up_bonus": (0, rules.BONUS_MAX),
    "semifinal_games": (rules.GAMES_PER_ROUND_MIN, rules.GAMES_PER_ROUND_MAX),
    "final_games": (rules.GAMES_PER_ROUND_MIN, rules.GAMES_PER_ROUND_MAX),
    "final_first_to": (0, rules.FINAL_FIRST_TO_MAX),
    "round_minutes": (0, rules.ROUND_MINUTES_MAX),
}

# (field, value at the limit, value one past it): both ends of each range, and the
# column's smallint overflow.
ROWS: list[tuple[str, Any, Any]] = [
    *((name, high, high + 1) for name, (_low, high) in VARIANT_LIMITS.items()),
    *((name, low, low - 1) for name, (low, _high) in VARIANT_LIMITS.items()),
    ("loss_cap", 1, 32768),
    ("turn_seconds", 120, 121),
    ("turn_seconds", 40, 39),
]


def _stored(tournament: Tournament) -> dict[str, Any]:
    return {
        f.name: getattr(tournament, f.name)
        for f in Tournament._meta.concrete_fields
        if f.name != "created"
    }


@pytest.mark.parametrize(("name", "limit", "past"), ROWS, ids=lambda v: str(v)[:24])
def test_a_variant_at_its_limit_and_past_it(name, limit, past):
    tournament = TournamentFactory(owner__password=None)
    client = client_as(tournament.owner)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    before = _stored(Tournament.objects.get(pk=tournament.pk))

    refused = client.patch(url, {name: past}, format="json")
    assert refused.status_code == 400, refused.content
    assert list(refused.json()) == [name]
    assert _stored(Tournament.objects.get(pk=tournament.pk)) == before

    accepted = client.patch(url, {name: limit}, format="json")
    assert accepted.status_code == 200, accepted.content
    assert getattr(Tournament.objects.get(pk=tournament.pk), name) == limit


def test_a_new_tournament_past_a_variant_limit_is_not_created():
    tournament = TournamentFactory(owner__password=None)
    client = client_as(tournament.owner)
    for name, _limit, past in ROWS:
        response = client.post("/api/v1/tournaments/", {"name": "Cup", name: past}, format="json")
        assert response.status_code == 400, (name, response.content)
        assert name in response.json()
    assert Tournament.objects.count() == 1
