"""A tournament's entries and adjustments, one at a time."""

from __future__ import annotations

import pytest

from tests.factories import AdjustmentFactory, EntryFactory, TournamentFactory
from tournaments.selectors.entries import adjustment_of, entry_of

pytestmark = pytest.mark.django_db


def test_an_entry_is_read_with_its_player_and_club_in_one_query(
    django_assert_num_queries,
) -> None:
    entry = EntryFactory()
    with django_assert_num_queries(1):
        found = entry_of(tournament=entry.tournament, player_id=entry.player_id)
        assert found == entry and found.player.club is None
    assert entry_of(tournament=TournamentFactory(), player_id=entry.player_id) is None


def test_an_adjustment_is_found_in_its_tournament_only(django_assert_num_queries) -> None:
    adjustment = AdjustmentFactory()
    with django_assert_num_queries(1):
        found = adjustment_of(tournament=adjustment.tournament, adjustment_id=adjustment.pk)
        assert found == adjustment and found.player.name
    assert adjustment_of(tournament=TournamentFactory(), adjustment_id=adjustment.pk) is None
