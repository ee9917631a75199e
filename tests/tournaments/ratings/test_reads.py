"""The rating list (page, exports, club section, API) and a player's history,
in a fixed number of queries."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.ratings.support import tournament_played
from tournaments.models import Club, GameRating, Player, PlayerRating
from tournaments.ratings.engine import shown
from tournaments.selectors.ratings import rating_history, rating_list, ratings_current
from tournaments.services.tournaments import tournament_update
from tournaments.web.ratings import PER_PAGE

pytestmark = pytest.mark.django_db

ROW_KEYS = {
    "rank",
    "player",
    "name",
    "club",
    "club_name",
    "rating",
    "mu",
    "sigma",
    "games",
    "provisional",
}


def rated(name: str, mu: float, sigma: float, games: int, club: Club | None = None) -> Player:
    """A player with a current rating, written straight (the selectors' tests)."""
    player = PlayerFactory(name=name, club=club)
    PlayerRating.objects.create(
        player=player, mu=mu, sigma=sigma, rating=shown(mu, sigma), games=games
    )
    return player


@pytest.fixture
def listed() -> dict[str, Player]:
    club = ClubFactory(name="Vesterbro")
    return {
        "ada": rated("Ada", 30.0, 2.0, 25, club),
        "bo": rated("bo", 28.0, 4.0, 12),
        "cy": rated("Cy", 28.0, 4.0, 40, club),  # equal to bo: same rank
        "di": rated("Di", 20.0, 5.0, 3),
    }


def test_the_list_ranks_by_rating_equal_ratings_sharing_and_names_breaking_ties(listed):
    rows = list(rating_list(user=None))
    assert [(r["rank"], r["name"]) for r in rows] == [(1, "Ada"), (2, "bo"), (2, "Cy"), (4, "Di")]
    club_rows = list(rating_list(user=None, club_id=listed["ada"].club_id))
    assert [(r["rank"], r["name"], r["club_name"]) for r in club_rows] == [
        (1, "Ada", "Vesterbro"),
        (2, "Cy", "Vesterbro"),
    ]


def test_a_private_club_is_named_only_to_those_who_may_see_it():
    owner = UserFactory()
    club = ClubFactory(name="Hidden", public=False, created_by=owner)
    rated("Eve", 25.0, 3.0, 5, club)
    assert list(rating_list(user=None).values_list("club_name", flat=True)) == [None]
    assert list(rating_list(user=owner).values_list("club_name", flat=True)) == ["Hidden"]


def test_current_ratings_and_history_are_one_query_each(django_assert_num_queries):
    t = tournament_played(players=4, rounds=2)
    pid = t.entries.order_by("player_id").first().player_id
    with django_assert_num_queries(1):
        now = ratings_current(player_ids=[pid, 999_999])
    assert set(now) == {pid}
    assert now[pid].games == 4 and now[pid].provisional
    with django_assert_num_queries(1):
        history = rating_history(player_id=pid, user=None)
    assert len(history) == 4
    assert history[-1].rating == now[pid].rating
    assert [p.game for p in history] == sorted(p.game for p in history)


def test_a_tournament_made_private_leaves_the_history():
    owner = UserFactory()
    t = tournament_played(players=4, rounds=1, owner=owner)
    pid = t.entries.order_by("player_id").first().player_id
    assert rating_history(player_id=pid, user=None)
    tournament_update(tournament=t, user=owner, public=False)
    assert rating_history(player_id=pid, user=owner) == []
    assert ratings_current(player_ids=[pid]) == {}


def test_the_page_lists_the_players_in_a_fixed_number_of_queries(
    client: Client, listed, django_assert_num_queries
):
    # The session-less page: the club choices, the rows' count, the page of rows.
    with django_assert_num_queries(3):
        response = client.get("/ratings/")
    assert response.status_code == 200
    text = response.content.decode()
    names = [text.index(f">{n}</a>") for n in ("Ada", "bo", "Cy", "Di")]
    assert names == sorted(names)
    assert 'class="provisional-mark"' in text  # bo and Di
    response = client.get(f"/ratings/?club={listed['ada'].club_id}")
    shown = response.content.decode()
    # The names as links: a bare "Di" is found in one page in sixty, inside the form's token.
    assert ">Ada</a>" in shown and ">Di</a>" not in shown


@pytest.mark.parametrize("club", ["x", "0", "99999", "-1", "1.5"])
def test_a_club_not_listed_is_not_found(client: Client, listed, club):
    assert client.get(f"/ratings/?club={club}").status_code == 404


def test_the_exports_carry_every_row_with_inert_cells(client: Client, listed):
    rated("=HYPERLINK(1)", 10.0, 5.0, 1)
    body = client.get("/ratings/?_export=csv").content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:4] == ["#", "Player", "Club", "Rating"]
    assert [r[1] for r in rows[1:]] == ["Ada", "bo", "Cy", "Di", "'=HYPERLINK(1)"]
    data = json.loads(client.get("/ratings/?_export=json").content)
    assert data[0]["Provisional"] is False and data[1]["Provisional"] is True
    assert data[4]["Player"] == "=HYPERLINK(1)"
    assert data[0]["μ"] == 30.0
    xlsx = client.get("/ratings/?_export=xlsx")
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"


def test_the_club_page_shows_its_rating_list(client: Client, listed):
    club = Club.objects.get(name="Vesterbro")
    text = client.get(f"/c/{club.slug}/").content.decode()
    assert 'id="ratings"' in text
    assert text.index("Ada") < text.index("Cy")
    assert f"/ratings/?club={club.pk}" in text


def test_the_api_list_answers_the_design_rows(client: Client, listed, django_assert_num_queries):
    with django_assert_num_queries(2):
        body = client.get("/api/v1/ratings/").json()
    assert body["count"] == 4
    first = body["results"][0]
    assert set(first) == ROW_KEYS
    assert first["player"] == listed["ada"].pk and first["club"] == listed["ada"].club_id
    assert first["mu"] == 30.0 and first["sigma"] == 2.0
    assert first["rating"] == shown(30.0, 2.0) and first["provisional"] is False
    assert [r["rank"] for r in body["results"]] == [1, 2, 2, 4]
    paged = client.get("/api/v1/ratings/?page_size=2&page=2").json()
    assert [r["rank"] for r in paged["results"]] == [2, 4]
    club = client.get(f"/api/v1/ratings/?club={listed['ada'].club_id}").json()
    assert [r["name"] for r in club["results"]] == ["Ada", "Cy"]
    assert client.get("/api/v1/ratings/?club=x").status_code == 400


def test_the_api_history_is_oldest_first_and_hides_an_unseen_player(client: Client):
    t = tournament_played(players=4, rounds=2)
    pid = t.entries.order_by("player_id").first().player_id
    body = client.get(f"/api/v1/players/{pid}/ratings/").json()
    assert [set(p) for p in body] == [{"game", "tournament", "date", "mu", "sigma", "rating"}] * 4
    rows = GameRating.objects.filter(player_id=pid).order_by("game_id")
    assert [p["game"] for p in body] == [r.game_id for r in rows]
    assert body[-1]["rating"] == PlayerRating.objects.get(player_id=pid).rating
    unseen = PlayerFactory(created_by=UserFactory())
    assert client.get(f"/api/v1/players/{unseen.pk}/ratings/").status_code == 404


def test_the_api_list_of_a_club_one_may_not_see_is_empty(client: Client):
    # The rows do not name a private club; its members are not listed by its id
    # either (as for a club that does not exist), but to its organisers.
    owner = UserFactory()
    club = ClubFactory(name="Hidden", public=False, created_by=owner)
    rated("Eve", 25.0, 3.0, 5, club)
    rated("Finn", 26.0, 3.0, 5)
    assert client.get(f"/api/v1/ratings/?club={club.pk}").json()["count"] == 0
    assert client.get("/api/v1/ratings/?club=999999").json()["count"] == 0
    client.force_login(UserFactory())
    assert client.get(f"/api/v1/ratings/?club={club.pk}").json()["count"] == 0
    client.force_login(owner)
    body = client.get(f"/api/v1/ratings/?club={club.pk}").json()
    assert [(r["name"], r["club_name"]) for r in body["results"]] == [("Eve", "Hidden")]


def test_the_pages_of_a_long_list_are_named_in_the_visitors_language(client: Client):
    for i in range(PER_PAGE + 1):
        rated(f"P{i:03d}", 25.0 + i / 100, 3.0, 5)
    text = client.get("/da/ratings/?page=2").content.decode()
    assert '<a href="?page=1" rel="prev">Forrige side</a>' in text
    assert "Side 2 af 2" in text
    assert "previous" not in text and 'class="pagination"' not in text
    text = client.get("/ratings/").content.decode()
    assert '<a href="?page=2" rel="next">Next page</a>' in text and "Page 1 of 2" in text


@pytest.mark.parametrize(
    ("query", "number", "rows"),
    [
        ("page=abc", 1, PER_PAGE),
        ("page=", 1, PER_PAGE),
        ("page=1.5", 1, PER_PAGE),
        ("page=-1", 1, PER_PAGE),
        ("page=0", 1, PER_PAGE),
        ("page=3", 2, 1),  # past the last: the last
        ("page=99999999999999999999", 2, 1),
        ("per_page=-5", 1, 1),
        ("per_page=0", 1, PER_PAGE),
        ("per_page=100000", 1, PER_PAGE + 1),  # 1,000 at most
        ("per_page=x", 1, PER_PAGE),
        ("per_page=1&page=103", PER_PAGE + 1, 1),
        ("per_page=x&page=y", 1, PER_PAGE),
    ],
)
def test_a_page_asked_oddly_is_the_nearest_there_is(client: Client, query, number, rows):
    """As the standings: a page that is not a number is the first, one out of
    range the nearest; never a 404 or a 500."""
    for i in range(PER_PAGE + 1):
        rated(f"P{i:03d}", 25.0, 3.0, 5)
    response = client.get(f"/ratings/?{query}")
    assert response.status_code == 200
    page = response.context["table"].page
    assert (page.number, len(page.object_list)) == (number, rows)
    assert 1 <= page.paginator.per_page <= 1000


def test_a_page_asked_oddly_of_an_empty_list_is_its_only_page(client: Client):
    for query in ("page=abc", "page=2", "per_page=x"):
        response = client.get(f"/ratings/?{query}")
        assert response.status_code == 200
        assert "No rated games yet." in response.content.decode()


def test_the_pages_that_are_there_are_shown(client: Client):
    assert client.get("/ratings/?page=1").status_code == 200  # an empty list has its page
    for i in range(PER_PAGE + 1):
        rated(f"P{i:03d}", 25.0, 3.0, 5)
    assert client.get("/ratings/?page=2").status_code == 200
    assert client.get("/ratings/?per_page=1000").status_code == 200
    assert client.get("/ratings/?per_page=1&page=101&_export=csv").status_code == 200


def test_the_page_writes_mu_and_sigma_in_its_language_and_the_exports_plainly(
    client: Client, listed
):
    rated("Ed", 24.5, 3.25, 30)
    danish = client.get("/da/ratings/").content.decode()
    assert ">24,50<" in danish and ">3,25<" in danish and ">24.50<" not in danish
    assert ">24.50<" in client.get("/ratings/").content.decode()
    rows = json.loads(client.get("/da/ratings/?_export=json").content)
    assert {(row["μ"], row["σ"]) for row in rows} >= {(24.5, 3.25)}
