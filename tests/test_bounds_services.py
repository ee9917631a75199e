"""The services hold every bounded setting to the rules engine's constants
themselves (``services.setting_bounds``), whatever path called them: at its
limit a setting is stored, one past it is a ``UserError`` naming the field and
saying both ends in words, with nothing stored."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import UserError
from tests.factories import TournamentFactory
from tests.test_bounds import SETTING_LIMITS
from tournaments.models import Tournament
from tournaments.services.setting_bounds import PLAN_BOUNDS
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db

# (setting, value at the limit, value one past it): both ends of every bound.
ROWS: list[tuple[str, int, int]] = [
    *((name, high, high + 1) for name, (_low, high, _message) in PLAN_BOUNDS.items()),
    *((name, low, low - 1) for name, (low, _high, _message) in PLAN_BOUNDS.items()),
]


def test_the_bounds_are_the_rules_engines():
    assert {name: (low, high) for name, (low, high, _message) in PLAN_BOUNDS.items()} == {
        name: SETTING_LIMITS[name] for name in PLAN_BOUNDS
    }


def _stored(pk: int) -> dict[str, Any]:
    tournament = Tournament.objects.get(pk=pk)
    return {f.name: getattr(tournament, f.name) for f in Tournament._meta.concrete_fields}


@pytest.mark.parametrize(("name", "limit", "past"), ROWS, ids=lambda v: str(v))
def test_a_service_takes_a_setting_at_its_limit_and_refuses_it_past(name, limit, past):
    tournament = TournamentFactory()
    before = _stored(tournament.pk)

    with pytest.raises(UserError) as refused:
        tournament_update(tournament=tournament, **{name: past})
    assert refused.value.field == name
    low, high, _message = PLAN_BOUNDS[name]
    said = refused.value.render()
    assert all(str(number) in said for number in (low, high, past)), said
    assert _stored(tournament.pk) == before

    tournament_update(tournament=tournament, **{name: limit})
    assert getattr(Tournament.objects.get(pk=tournament.pk), name) == limit
