"""The first round seated by rating (``seed_by_rating``): swiss groups similar
ratings, balanced spreads them, a player without a rating counts as new, and
the desk shows each player's rating beside their name."""

from __future__ import annotations

from statistics import mean

import pytest
from django.test import Client

from tests.factories import round_play, seated_ids, tournament_entered
from tests.tournaments.api.conftest import client_as
from tournaments.models import Entry, PlayerRating, Tournament
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def _rated(tournament: Tournament, unrated: int = 0) -> dict[int, int]:
    """Ratings 1600, 1625, ... for the entered players by id (the last
    ``unrated`` without one); the ratings given."""
    ids = sorted(tournament.entries.values_list("player_id", flat=True))
    given = {pid: 1600 + 25 * i for i, pid in enumerate(ids[: len(ids) - unrated])}
    PlayerRating.objects.bulk_create(
        PlayerRating(player_id=pid, mu=30.0, sigma=3.0, rating=r, games=25)
        for pid, r in given.items()
    )
    return given


def _tables(round_) -> list[list[int]]:
    return [seated_ids(m) for m in round_.matches.order_by("table")]


def test_swiss_first_round_groups_similar_ratings() -> None:
    t = tournament_entered(players=12, seating="swiss", seed_by_rating=True, games_per_round=1)
    ratings = _rated(t)
    tables = _tables(rounds.round_seat_next(tournament=t))
    best_first = sorted(ratings, key=lambda p: -ratings[p])
    assert [sorted(table) for table in tables] == [
        sorted(best_first[0:4]),
        sorted(best_first[4:8]),
        sorted(best_first[8:12]),
    ]


def test_without_the_setting_ratings_do_not_seat() -> None:
    t = tournament_entered(players=12, seating="swiss", games_per_round=1)
    ratings = _rated(t)
    tables = _tables(rounds.round_seat_next(tournament=t))
    best_first = sorted(ratings, key=lambda p: -ratings[p])
    assert sorted(tables[0]) != sorted(best_first[0:4])


def test_balanced_first_round_spreads_the_ratings() -> None:
    t = tournament_entered(
        players=16, seating="balanced", seed_by_rating=True, rounds=3, games_per_round=1
    )
    ratings = _rated(t, unrated=4)
    tables = _tables(rounds.round_seat_next(tournament=t))
    averages = [mean(ratings.get(p, 1500) for p in table) for table in tables]
    assert max(averages) - min(averages) <= 25
    # The four best open the four tables.
    best = sorted(ratings, key=lambda p: -ratings[p])[:4]
    assert sorted(max(table, key=lambda p: ratings.get(p, 1500)) for table in tables) == sorted(
        best
    )


def test_the_second_round_is_seated_by_standings() -> None:
    t = tournament_entered(players=8, seating="swiss", seed_by_rating=True, games_per_round=1)
    _rated(t)
    first = rounds.round_seat_next(tournament=t)
    round_play(first)
    second = rounds.round_seat_next(tournament=t)
    assert second.number == 2


def test_the_desk_shows_the_ratings(client: Client) -> None:
    t = tournament_entered(players=8, seating="swiss", seed_by_rating=True, games_per_round=1)
    ratings = _rated(t, unrated=1)
    rounds.round_seat_next(tournament=t)
    client.force_login(t.owner)
    html = client.get(f"/t/{t.slug}/organise/").content.decode()
    shown = html.count('class="muted desk-rating"')
    # Each rated player twice: in the players' list and at their table.
    assert shown == 2 * len(ratings)
    for rating in ratings.values():
        assert f">{rating}</span>" in html
    unrated = Entry.objects.filter(tournament=t).exclude(player_id__in=ratings).get()
    assert unrated.player.name in html


def test_the_setting_through_the_api_and_the_settings_form(client: Client) -> None:
    t = tournament_entered(players=4)
    response = client_as(t.owner).patch(
        f"/api/v1/tournaments/{t.pk}/", {"seed_by_rating": True}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["seed_by_rating"] is True
    t.refresh_from_db()
    assert t.seed_by_rating
    client.force_login(t.owner)
    html = client.get(f"/t/{t.slug}/edit/").content.decode()
    assert 'name="seed_by_rating"' in html
    assert "Seat the first round by rating" in html
