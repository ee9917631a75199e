"""The ``rated`` setting as an organiser changes it: the settings page and the API."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.ratings.support import assert_ratings_are_openskills, tournament_played
from tournaments.models import PlayerRating, Tournament

pytestmark = pytest.mark.django_db


def test_the_api_reads_and_changes_rated_and_the_ratings_follow() -> None:
    tournament = tournament_played(players=8, rounds=2)
    assert PlayerRating.objects.count() == 8
    client = APIClient()
    client.force_authenticate(tournament.owner)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    assert client.get(url).json()["rated"] is True
    answer = client.patch(url, {"rated": False}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["rated"] is False
    assert not PlayerRating.objects.exists()
    assert client.patch(url, {"rated": "sometimes"}, format="json").status_code == 400
    assert Tournament.objects.get(pk=tournament.pk).rated is False
    client.patch(url, {"rated": True}, format="json")
    assert assert_ratings_are_openskills() > 0


def test_the_settings_page_offers_rated(client: Client) -> None:
    tournament = tournament_played(players=8, rounds=1)
    client.force_login(tournament.owner)
    page = client.get(f"/t/{tournament.slug}/edit/")
    assert page.status_code == 200
    assert b'name="rated"' in page.content
