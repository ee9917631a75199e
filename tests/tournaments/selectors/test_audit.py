"""The audit trail's reads: by kind, the deletions to restore, the rows a value names."""

from __future__ import annotations

import pytest

from tests.factories import ClubFactory, TournamentFactory, UserFactory, match_seated
from tests.tournaments.web.support import play
from tournaments.models import AuditEvent, Club
from tournaments.selectors.audit import (
    audit_of,
    event_value_named,
    game_deleted_visible,
    game_deletion_in,
)
from tournaments.services.games import game_delete

pytestmark = pytest.mark.django_db


@pytest.fixture
def deleted():
    match = match_seated(players=2, confirmation="none", games_per_round=2)
    play(match, games=2)
    game = match.games.get(number=1)
    game_delete(game=game, user=None)
    return match, game.pk


@pytest.mark.parametrize(("kind", "count"), [(None, 3), ("game", 3), ("round", 0)])
def test_the_trail_narrows_to_a_kind(deleted, kind, count) -> None:
    match, _game_id = deleted
    assert audit_of(tournament=match.round.tournament, kind=kind).count() == count


def test_a_deleted_game_is_found_for_who_may_see_it_while_it_is_gone(
    deleted, django_assert_num_queries
) -> None:
    match, game_id = deleted
    tournament = match.round.tournament
    owner = tournament.owner
    with django_assert_num_queries(2):
        event = game_deleted_visible(user=owner, game_id=game_id)
    assert event is not None and event.match == match
    kept = match.games.get(number=2).pk
    assert game_deleted_visible(user=tournament.owner, game_id=kept) is None
    tournament.public = False
    tournament.save()
    assert game_deleted_visible(user=UserFactory(), game_id=game_id) is None


def test_a_deletion_event_is_found_in_its_tournament_only(deleted) -> None:
    match, _game_id = deleted
    event = AuditEvent.objects.get(action=AuditEvent.Action.GAME_DELETED)
    assert game_deletion_in(tournament=match.round.tournament, event_id=event.pk) == event
    assert game_deletion_in(tournament=TournamentFactory(), event_id=event.pk) is None
    recorded = AuditEvent.objects.filter(action=AuditEvent.Action.GAME_RECORDED).first()
    assert game_deletion_in(tournament=match.round.tournament, event_id=recorded.pk) is None


def test_a_value_names_a_row_or_nothing() -> None:
    club = ClubFactory(name="Rovers")
    assert event_value_named(model=Club, pk=club.pk) == "Rovers"
    assert event_value_named(model=Club, pk=999999) is None
