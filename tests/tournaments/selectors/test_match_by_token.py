"""selectors.matches.match_by_token: the match a table's token opens, read once
for the whole recording request."""

from __future__ import annotations

import pytest

from tests.factories import MatchFactory, match_seated
from tournaments.models import Match
from tournaments.selectors.matches import SEATS_KEPT, match_by_token

pytestmark = pytest.mark.django_db


def test_a_token_brings_round_tournament_and_seats_in_one_query(django_assert_num_queries):
    match = match_seated(players=3)
    with django_assert_num_queries(1):
        read = match_by_token(match.token)
        assert read is not None
        seats = getattr(read, SEATS_KEPT)
        names = [s.player.name for s in seats]
        tournament = read.round.tournament
    assert all(s.match is read for s in seats)  # one match, not a copy per seat
    orm = match.seats.select_related("player").order_by("position")
    assert [(s.pk, s.position) for s in seats] == [(s.pk, s.position) for s in orm]
    assert names == [s.player.name for s in orm]
    assert tournament == Match.objects.get(pk=match.pk).round.tournament


def test_an_unknown_token_opens_nothing_and_a_bare_match_has_no_seats():
    assert match_by_token("no-such-token") is None
    bare = MatchFactory()
    read = match_by_token(bare.token)
    assert read is not None and read.pk == bare.pk and getattr(read, SEATS_KEPT) == []
