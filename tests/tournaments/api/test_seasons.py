"""Seasons through the API: a club's seasons, one season, its table; a
tournament's ``season`` and who may set it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tests.tournaments.api.conftest import client_as
from tests.tournaments.season_support import Line, day, plain_table, season_played
from tournaments.demo import round_play
from tournaments.models import Season, Tournament
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

# A current season: it started 30 days ago and ends in 60.
BODY = {"name": "Autumn", "starts": day(-30).isoformat(), "ends": day(60).isoformat()}


def _rows(rows: list[dict[str, Any]]) -> list[Line]:
    return [
        (
            r["rank"],
            r["player"],
            Decimal(str(r["points"])),
            r["evenings"],
            tuple(r["counted"]),
            Decimal(str(r["best"])),
        )
        for r in rows
    ]


def test_the_season_table_through_the_api_matches_a_plain_computation() -> None:
    played = season_played()
    answer = client_as().get(f"/api/v1/seasons/{played.season.pk}/standings/")
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == {"results", "unranked"}
    assert set(body["results"][0]) == {
        "rank",
        "player",
        "name",
        "points",
        "evenings",
        "counted",
        "best",
    }
    ranked, unranked = plain_table(played)
    assert _rows(body["results"]) == ranked
    assert _rows(body["unranked"]) == unranked
    assert all(r["rank"] is None for r in body["unranked"])


def test_a_season_run_through_the_api() -> None:
    organiser = UserFactory()
    club = ClubFactory(created_by=organiser)
    api = client_as(organiser)
    made = api.post(
        f"/api/v1/clubs/{club.pk}/seasons/",
        {
            **BODY,
            "best_of": 2,
            "evening_points": "score",
            "guests": "include",
            "evening_settings": {"rounds": 1, "games_per_round": 1},
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    season = made.json()
    assert season["club"] == club.pk and season["evenings"] == []
    players = [
        api.post("/api/v1/players/", {"name": f"P{n}"}, format="json").json()["id"]
        for n in range(4)
    ]
    evenings = []
    for night in (day(-14).isoformat(), day(-7).isoformat()):
        t = api.post(
            "/api/v1/tournaments/",
            {
                "name": f"Night {night}",
                "date": night,
                "season": season["id"],
                "rounds": 1,
                "games_per_round": 1,
                "seating": "random",
            },
            format="json",
        )
        assert t.status_code == 201, t.json()
        assert t.json()["season"] == season["id"]
        tid = t.json()["id"]
        api.post(f"/api/v1/tournaments/{tid}/entries/", {"players": players}, format="json")
        seated = api.post(f"/api/v1/tournaments/{tid}/rounds/", {}, format="json")
        assert seated.status_code == 201, seated.json()
        round_play(rounds.Round.objects.get(pk=seated.json()["id"]))
        evenings.append(tid)
    read = api.get(f"/api/v1/seasons/{season['id']}/").json()
    assert read["evenings"] == evenings
    table = api.get(f"/api/v1/seasons/{season['id']}/standings/").json()
    scores: dict[int, list[Decimal]] = {}
    for tid in evenings:
        for row in api.get(f"/api/v1/tournaments/{tid}/standings/").json()["results"]:
            scores.setdefault(row["player"], []).append(Decimal(str(row["score"])))
    expected = {p: max(s) + min(s) for p, s in scores.items()}  # best 2 of 2: both count
    assert {r["player"]: Decimal(str(r["points"])) for r in table["results"]} == expected
    assert (
        api.patch(f"/api/v1/seasons/{season['id']}/", {"best_of": 1}, format="json").json()[
            "best_of"
        ]
        == 1
    )
    table = api.get(f"/api/v1/seasons/{season['id']}/standings/").json()
    assert {r["player"]: Decimal(str(r["points"])) for r in table["results"]} == {
        p: max(s) for p, s in scores.items()
    }
    listed = api.get(f"/api/v1/clubs/{club.pk}/seasons/").json()
    assert [s["id"] for s in listed["results"]] == [season["id"]]
    assert api.delete(f"/api/v1/seasons/{season['id']}/").status_code == 204
    assert Tournament.objects.filter(pk__in=evenings, season__isnull=True).count() == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**BODY, "ends": day(-31).isoformat()}, "ends"),
        ({**BODY, "best_of": 400}, "best_of"),
        ({**BODY, "evening_points": "wins"}, "evening_points"),
        ({**BODY, "evening_settings": {"owner": 3}}, "evening_settings"),
        # Settings no evening could start with are refused now, never stored.
        ({**BODY, "evening_settings": {"format": ["club_night"]}}, "evening_settings"),
        ({**BODY, "evening_settings": {"format": {"a": 1}}}, "evening_settings"),
        ({**BODY, "evening_settings": {"rounds": "many"}}, "evening_settings"),
        ({**BODY, "evening_settings": {"rounds": -1}}, "evening_settings"),
        ({**BODY, "evening_settings": {"joker_penalty": -5}}, "evening_settings"),
        ({**BODY, "evening_settings": {"language": "xx"}}, "evening_settings"),
        ({**BODY, "evening_settings": {"semifinal_players": 5}}, "evening_settings"),
        ({**BODY, "name": ""}, "name"),
    ],
)
def test_bad_seasons_are_400_at_their_field(body: dict[str, Any], field: str) -> None:
    organiser = UserFactory()
    club = ClubFactory(created_by=organiser)
    answer = client_as(organiser).post(f"/api/v1/clubs/{club.pk}/seasons/", body, format="json")
    assert answer.status_code == 400
    assert field in answer.json()
    assert not Season.objects.exists()


def test_who_reads_and_writes_seasons() -> None:
    organiser, stranger = UserFactory(), UserFactory()
    public = ClubFactory(created_by=organiser)
    private = ClubFactory(created_by=organiser, public=False)
    for club, seen in ((public, True), (private, False)):
        made = client_as(organiser).post(f"/api/v1/clubs/{club.pk}/seasons/", BODY, format="json")
        sid = made.json()["id"]
        for client in (client_as(), client_as(stranger)):
            for url in (
                f"/api/v1/seasons/{sid}/",
                f"/api/v1/seasons/{sid}/standings/",
                f"/api/v1/clubs/{club.pk}/seasons/",
            ):
                assert client.get(url).status_code == (200 if seen else 404), url
        assert (
            client_as().post(f"/api/v1/clubs/{club.pk}/seasons/", BODY, format="json").status_code
            == 401
        )
        assert client_as(stranger).post(
            f"/api/v1/clubs/{club.pk}/seasons/", BODY, format="json"
        ).status_code == (403 if seen else 404)
        assert client_as(stranger).patch(
            f"/api/v1/seasons/{sid}/", {"name": "Mine"}, format="json"
        ).status_code == (403 if seen else 404)
        assert client_as(stranger).delete(f"/api/v1/seasons/{sid}/").status_code == (
            403 if seen else 404
        )
    assert Season.objects.filter(name="Mine").count() == 0


def test_a_stranger_cannot_attach_a_tournament_to_someone_elses_season() -> None:
    organiser, stranger = UserFactory(), UserFactory()
    club = ClubFactory(created_by=organiser, public=False)
    sid = (
        client_as(organiser)
        .post(f"/api/v1/clubs/{club.pk}/seasons/", BODY, format="json")
        .json()["id"]
    )
    own = TournamentFactory(owner=stranger)
    api = client_as(stranger)
    answer = api.patch(f"/api/v1/tournaments/{own.pk}/", {"season": sid}, format="json")
    assert answer.status_code == 400 and "season" in answer.json()
    made = api.post("/api/v1/tournaments/", {"name": "Sneaky", "season": sid}, format="json")
    assert made.status_code == 400 and "season" in made.json()
    # Nor is the private season read through the stranger's tournament.
    assert api.get(f"/api/v1/seasons/{sid}/standings/").status_code == 404
    own.refresh_from_db()
    assert own.season is None
    # A co-organiser of the club may attach their tournament; and detach it.
    club.co_organisers.add(stranger)
    assert (
        api.patch(f"/api/v1/tournaments/{own.pk}/", {"season": sid}, format="json").json()["season"]
        == sid
    )
    club.co_organisers.remove(stranger)
    # Kept when named already, and cleared.
    assert (
        api.patch(
            f"/api/v1/tournaments/{own.pk}/", {"season": sid, "name": "Renamed"}, format="json"
        ).status_code
        == 200
    )
    assert (
        api.patch(f"/api/v1/tournaments/{own.pk}/", {"season": None}, format="json").json()[
            "season"
        ]
        is None
    )


def test_the_league_kind_is_chosen_through_the_api() -> None:
    user = UserFactory()
    made = client_as(user).post(
        "/api/v1/tournaments/", {"name": "League", "kind": "league"}, format="json"
    )
    assert made.status_code == 201 and made.json()["kind"] == "league"


def test_a_finished_season_days(db: None) -> None:
    # dates as ISO text both ways
    organiser = UserFactory()
    club = ClubFactory(created_by=organiser)
    made = client_as(organiser).post(f"/api/v1/clubs/{club.pk}/seasons/", BODY, format="json")
    assert made.json()["starts"] == BODY["starts"]
    assert Season.objects.get().ends == dt.date.fromisoformat(BODY["ends"])


def test_a_tournament_named_an_evening_belongs_to_the_seasons_club() -> None:
    organiser = UserFactory()
    club = ClubFactory(created_by=organiser)
    other = ClubFactory(created_by=organiser)
    api = client_as(organiser)
    sid = api.post(f"/api/v1/clubs/{club.pk}/seasons/", BODY, format="json").json()["id"]
    # No club: it takes the season's.
    made = api.post("/api/v1/tournaments/", {"name": "Night", "season": sid}, format="json")
    assert made.status_code == 201, made.json()
    assert (made.json()["season"], made.json()["club"]) == (sid, club.pk)
    # Another club: refused at the season, nothing stored.
    refused = api.post(
        "/api/v1/tournaments/",
        {"name": "Elsewhere", "club": other.pk, "season": sid},
        format="json",
    )
    assert refused.status_code == 400 and set(refused.json()) == {"season"}
    assert not Tournament.objects.filter(name="Elsewhere").exists()
    theirs = TournamentFactory(owner=organiser, club=other)
    refused = api.patch(f"/api/v1/tournaments/{theirs.pk}/", {"season": sid}, format="json")
    assert refused.status_code == 400 and set(refused.json()) == {"season"}
    theirs.refresh_from_db()
    assert (theirs.season, theirs.club) == (None, other)
    # An evening keeps its season's club.
    night = made.json()["id"]
    refused = api.patch(f"/api/v1/tournaments/{night}/", {"club": other.pk}, format="json")
    assert refused.status_code == 400 and set(refused.json()) == {"club"}
    assert Tournament.objects.get(pk=night).club == club


def test_an_ended_season_takes_no_new_evening_through_the_api() -> None:
    organiser = UserFactory()
    club = ClubFactory(created_by=organiser)
    api = client_as(organiser)
    ended = {**BODY, "starts": day(-90).isoformat(), "ends": day(-1).isoformat()}
    sid = api.post(f"/api/v1/clubs/{club.pk}/seasons/", ended, format="json").json()["id"]
    refused = api.post("/api/v1/tournaments/", {"name": "Tonight", "season": sid}, format="json")
    assert refused.status_code == 409 and set(refused.json()) == {"season"}
    assert "start a new season" in refused.json()["season"][0]
    assert not Tournament.objects.filter(name="Tonight").exists()
    # An evening played within it may still be added.
    played = api.post(
        "/api/v1/tournaments/",
        {"name": "Played", "season": sid, "date": day(-8).isoformat()},
        format="json",
    )
    assert played.status_code == 201, played.json()
