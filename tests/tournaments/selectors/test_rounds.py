"""A tournament's rounds: by number, the last, its byes, its tables' count."""

from __future__ import annotations

import pytest

from tests.factories import AdjustmentFactory, TournamentFactory, match_seated
from tournaments.models import Adjustment
from tournaments.selectors.rounds import (
    round_bye_ids,
    round_last,
    round_numbered,
    round_tables_count,
    rounds_seated,
)

pytestmark = pytest.mark.django_db


def test_a_tournament_without_rounds() -> None:
    tournament = TournamentFactory()
    assert round_last(tournament=tournament) is None
    assert round_numbered(tournament=tournament, number=1) is None
    assert rounds_seated(tournament=tournament) is False


def test_rounds_by_number_and_the_last(django_assert_num_queries) -> None:
    first = match_seated(players=2)
    tournament = first.round.tournament
    second = match_seated(players=2, tournament=tournament)
    match_seated(players=2, tournament=TournamentFactory())  # another tournament's round 1
    with django_assert_num_queries(1):
        found = round_numbered(tournament=tournament, number=1)
        assert found == first.round and found.tournament == tournament
    assert round_last(tournament=tournament) == second.round
    assert rounds_seated(tournament=tournament) is True
    with django_assert_num_queries(1):
        assert round_tables_count(round=second.round) == 1


def test_a_rounds_byes_are_its_bye_adjustments_only(django_assert_num_queries) -> None:
    match = match_seated(players=2)
    round_ = match.round
    byes = [
        AdjustmentFactory(
            tournament=round_.tournament, round=round_, kind=Adjustment.Kind.BYE, points=10
        )
        for _ in range(2)
    ]
    AdjustmentFactory(tournament=round_.tournament, round=round_)  # a penalty: no bye
    with django_assert_num_queries(1):
        assert round_bye_ids(round=round_) == sorted(b.player_id for b in byes)
