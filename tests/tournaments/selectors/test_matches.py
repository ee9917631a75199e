"""One match, found among a tournament's."""

from __future__ import annotations

import pytest

from tests.factories import match_seated
from tournaments.selectors.matches import match_in

pytestmark = pytest.mark.django_db


def test_a_match_is_found_in_its_tournament_only(django_assert_num_queries) -> None:
    match = match_seated(players=2)
    other = match_seated(players=2)
    with django_assert_num_queries(1):
        found = match_in(tournament=match.round.tournament, match_id=match.pk)
        assert found == match and found.round.number == 1
    assert match_in(tournament=match.round.tournament, match_id=other.pk) is None
