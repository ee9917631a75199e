"""Tournaments looked up by slug, id or ref, as a user may see them."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory, UserFactory
from tournaments.models import Tournament
from tournaments.selectors.tournaments import (
    co_organiser_names,
    tournament_by_ref,
    tournament_visible,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("who", "public", "seen"),
    [("anonymous", True, True), ("anonymous", False, False), ("owner", False, True)],
)
def test_a_tournament_is_found_by_slug_or_id_when_visible(
    who: str, public: bool, seen: bool, django_assert_num_queries
) -> None:
    tournament = TournamentFactory(public=public)
    user = tournament.owner if who == "owner" else None
    with django_assert_num_queries(1):
        by_slug = tournament_visible(user=user, slug=tournament.slug)
    assert (by_slug == tournament) is seen
    assert (tournament_visible(user=user, pk=tournament.pk) == tournament) is seen
    assert tournament_visible(user=user) is None


def test_a_ref_is_a_slug_or_an_id() -> None:
    tournament = TournamentFactory(slug="club-night")
    assert tournament_by_ref(ref="club-night") == tournament
    assert tournament_by_ref(ref=str(tournament.pk)) == tournament
    with pytest.raises(Tournament.DoesNotExist):
        tournament_by_ref(ref="nothing")


def test_co_organisers_are_named_a_to_z(django_assert_num_queries) -> None:
    tournament = TournamentFactory()
    tournament.co_organisers.add(UserFactory(username="zoe"), UserFactory(username="ann"))
    with django_assert_num_queries(1):
        assert co_organiser_names(tournament=tournament) == ["ann", "zoe"]
