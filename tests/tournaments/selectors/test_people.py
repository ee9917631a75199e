"""Players, clubs and accounts as a user may see and pick them."""

from __future__ import annotations

import pytest

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.selectors.people import (
    clubs_visible,
    player_names,
    player_visible,
    players_not_entered_found,
    user_named,
    users_named,
)

pytestmark = pytest.mark.django_db


def test_a_player_is_visible_to_their_creator_only(django_assert_num_queries) -> None:
    creator = UserFactory()
    player = PlayerFactory(created_by=creator, club=ClubFactory())
    with django_assert_num_queries(1):
        assert player_visible(user=creator, player_id=player.pk) == player
    assert player_visible(user=UserFactory(), player_id=player.pk) is None
    assert player_visible(user=None, player_id=player.pk) is None


@pytest.mark.parametrize(
    ("query", "found"),
    [("ann", ["Anna"]), ("ROVERS", ["Anna", "Bo"]), ("zed", [])],
)
def test_a_search_keeps_players_not_entered_by_name_or_club(
    query: str, found: list[str], django_assert_num_queries
) -> None:
    tournament = TournamentFactory()
    user = tournament.owner
    club = ClubFactory(name="Rovers")
    PlayerFactory(name="Anna", club=club, created_by=user)
    PlayerFactory(name="Bo", club=club, created_by=user)
    EntryFactory(tournament=tournament, player=PlayerFactory(name="Annie", created_by=user))
    with django_assert_num_queries(1):
        players = players_not_entered_found(tournament=tournament, user=user, query=query, limit=5)
    assert [p.name for p in players] == found


def test_names_and_accounts_are_read_at_once(django_assert_num_queries) -> None:
    players = PlayerFactory.create_batch(3)
    with django_assert_num_queries(0):
        assert player_names(ids=[]) == {}
    with django_assert_num_queries(1):
        assert player_names(ids=[p.pk for p in players] + [999999]) == {
            p.pk: p.name for p in players
        }
    ann = UserFactory(username="ann")
    with django_assert_num_queries(1):
        assert users_named(usernames=["ann", "nobody"]) == {"ann": ann}
    assert user_named(username="ann") == ann and user_named(username="nobody") is None


def test_clubs_visible_are_by_name() -> None:
    user = UserFactory()
    ClubFactory(name="Zebras", created_by=user)
    ClubFactory(name="Aces", created_by=user)
    ClubFactory(name="Hidden", public=False)
    assert [c.name for c in clubs_visible(user=user)] == ["Aces", "Zebras"]
