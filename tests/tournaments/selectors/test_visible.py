"""What an API request may read: one match, for a user or a match grant."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory, match_seated
from tests.tournaments.web.support import play
from tournaments.api.auth import MatchGrant
from tournaments.models import Match
from tournaments.selectors.visible import match_seen, match_visible

pytestmark = pytest.mark.django_db


def test_a_private_match_is_seen_by_its_organiser_or_its_grant_only() -> None:
    match = match_seated(players=2, public=False)
    owner = match.round.tournament.owner
    assert match_seen(user=owner, grant=None, match_id=match.pk) == match
    assert match_seen(user=UserFactory(), grant=None, match_id=match.pk) is None
    grant = MatchGrant(match_id=match.pk)
    assert match_seen(user=None, grant=grant, match_id=match.pk) == match
    with pytest.raises(Match.DoesNotExist):
        match_visible(user=None, grant=None, match_id=match.pk)


def test_a_match_is_read_with_its_seats_and_games(django_assert_num_queries) -> None:
    match = match_seated(players=3, games_per_round=2)
    play(match, games=2)
    with django_assert_num_queries(4):
        read = match_visible(user=None, grant=None, match_id=match.pk)
        assert len(read.seats.all()) == 3
        assert [len(g.racks.all()) for g in read.games.all()] == [3, 3]
