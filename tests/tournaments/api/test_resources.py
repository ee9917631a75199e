"""Clubs, players and tournaments: fields, validation through the rules engine,
filtering, search, ordering and pagination."""

from __future__ import annotations

import pytest

from tests.factories import (
    ClubFactory,
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
    match_seated,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(as_user, owner):
    return as_user(owner)


def test_pagination_shape_and_page_size(anon):
    shown = TournamentFactory(public=True)  # anonymous lists show a public tournament's
    for player in PlayerFactory.create_batch(7):
        EntryFactory(tournament=shown, player=player)
    first = anon.get("/api/v1/players/?page_size=3").json()
    assert list(first) == ["count", "next", "previous", "results"]
    assert first["count"] == 7 and len(first["results"]) == 3 and first["previous"] is None
    assert "page=2" in first["next"]
    last = anon.get("/api/v1/players/?page_size=3&page=3").json()
    assert len(last["results"]) == 1 and last["next"] is None
    assert anon.get("/api/v1/players/?page=99").status_code == 404
    names = [p["name"] for p in anon.get("/api/v1/players/?page_size=500").json()["results"]]
    assert names == sorted(names)


def test_ordering_is_stable_with_ties(anon):
    shown = TournamentFactory(public=True)
    for _ in range(6):
        EntryFactory(tournament=shown, player=PlayerFactory(name="Same"))
    seen = []
    for page in (1, 2, 3):
        body = anon.get(f"/api/v1/players/?ordering=name&page_size=2&page={page}").json()
        seen += [p["id"] for p in body["results"]]
    assert seen == sorted(seen) and len(set(seen)) == 6
    reverse = anon.get("/api/v1/players/?ordering=-id").json()["results"]
    assert [p["id"] for p in reverse] == sorted(seen, reverse=True)


def test_players_filter_by_club_and_name(anon):
    club = ClubFactory(name="Odense")
    shown = TournamentFactory(public=True)
    for name, of in (("Karen Blixen", club), ("Karl Larsen", None), ("Mette", club)):
        EntryFactory(tournament=shown, player=PlayerFactory(name=name, club=of))
    assert {p["name"] for p in anon.get(f"/api/v1/players/?club={club.pk}").json()["results"]} == {
        "Karen Blixen",
        "Mette",
    }
    assert anon.get("/api/v1/players/?name=kar").json()["count"] == 2
    assert anon.get("/api/v1/players/?search=blix").json()["count"] == 1
    assert anon.get("/api/v1/players/?no_club=true").json()["count"] == 1
    assert anon.get("/api/v1/players/?club=abc").status_code == 400
    assert anon.get(f"/api/v1/players/?club={10**30}").status_code == 400
    one = anon.get(f"/api/v1/players/?club={club.pk}&name=mette").json()["results"][0]
    assert one["club"] == club.pk and one["club_name"] == "Odense"


def test_tournaments_filter_by_club_date_and_status(anon):
    club = ClubFactory()
    TournamentFactory(club=club, date="2026-01-10", status="finished", name="Winter")
    TournamentFactory(date="2026-05-01", status="running", name="Spring")
    TournamentFactory(date="2026-09-01", status="planned", name="Autumn", kind="league")
    names = lambda q: {t["name"] for t in anon.get(f"/api/v1/tournaments/?{q}").json()["results"]}  # noqa: E731
    assert names(f"club={club.pk}") == {"Winter"}
    assert names("date=2026-05-01") == {"Spring"}
    assert names("date_from=2026-04-01") == {"Spring", "Autumn"}
    assert names("date_to=2026-05-01") == {"Winter", "Spring"}
    assert names("status=running") == {"Spring"}
    assert names("kind=league") == {"Autumn"}
    assert names("search=wint") == {"Winter"}
    assert [t["name"] for t in anon.get("/api/v1/tournaments/").json()["results"]] == [
        "Autumn",
        "Spring",
        "Winter",
    ]
    assert anon.get("/api/v1/tournaments/?date=someday").status_code == 400
    assert anon.get("/api/v1/tournaments/?status=over").status_code == 400


def test_create_a_tournament_with_its_rules(api, owner):
    response = api.post(
        "/api/v1/tournaments/",
        {
            "name": "Dutch Cup",
            "joker_penalty": 25,
            "pool_tie": "fewest_tiles",
            "ranking": "table_points",
            "table_points": {"4": [5, 3, 1, 0], "3": [5, 2, 0]},
            "tie_breaks": ["table_points", "head_to_head", "wins"],
            "bye_score": "12.5",
            "owner": "someone-else",  # read-only: ignored
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["owner"] == owner.username and body["slug"] == "dutch-cup"
    assert body["table_points"] == {"2": [4, 0], "3": [5, 2, 0], "4": [5, 3, 1, 0]}
    assert body["tie_breaks"] == ["table_points", "head_to_head", "wins"]
    assert body["bye_score"] == 12.5
    stored = Tournament.objects.get(pk=body["id"])
    assert stored.table_points["4"] == [5, 3, 1, 0] and stored.owner == owner
    assert stored.rules().joker_penalty == 25
    again = api.post("/api/v1/tournaments/", {"name": "Dutch Cup"}, format="json").json()
    assert again["slug"] == "dutch-cup-2"


@pytest.mark.parametrize(
    ("body", "field", "fragment"),
    [
        ({"joker_penalty": -5}, "joker_penalty", "cannot be negative (-5 was given)"),
        ({"pool_tie": "coin_toss"}, "pool_tie", "Unknown tie policy “coin_toss”"),
        ({"table_points": {"4": [1, 3, 0, 0]}}, "table_points", "must not grow"),
        ({"table_points": {"4": [4, 3, 1]}}, "table_points", "need 4 whole numbers"),
        ({"table_points": {"7": [1]}}, "table_points", "2 to 4 players, not “7”"),
        ({"table_points": {"x": [1]}}, "table_points", "not “x”"),
        ({"table_points": [4, 3, 1, 0]}, "table_points", "mapping a table size"),
        ({"table_points": {"2": [10**50, 0]}}, "table_points", "from 0 to 1000"),
        ({"tie_breaks": ["wins", "luck"]}, "tie_breaks", "Unknown tie-break luck"),
        ({"tie_breaks": ["wins", "wins"]}, "tie_breaks", "listed twice"),
        ({"max_table_size": 5}, "max_table_size", "4"),
        ({"games_per_round": 0}, "games_per_round", "1"),
        ({"rounds": 101}, "rounds", "100"),
        ({"club": 10**30}, "club", "does not exist"),
        ({"ranking": "luck"}, "ranking", "not a valid choice"),
        ({"slug": "has spaces"}, "slug", "slug"),
    ],
)
def test_bad_tournament_settings_are_refused(api, body, field, fragment):
    response = api.post("/api/v1/tournaments/", {"name": "Bad", **body}, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]
    assert fragment in " ".join(map(str, response.json()[field]))
    assert not Tournament.objects.exists()


def test_patch_keeps_the_other_rules(api, owner):
    t = TournamentFactory(
        owner=owner,
        joker_penalty=50,
        table_points={"2": [4, 0], "3": [5, 1, 0], "4": [4, 3, 1, 0]},
    )
    response = api.patch(
        f"/api/v1/tournaments/{t.pk}/", {"table_points": {"4": [6, 3, 1, 0]}}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["joker_penalty"] == 50
    assert response.json()["table_points"] == {"2": [4, 0], "3": [5, 1, 0], "4": [6, 3, 1, 0]}
    assert (
        api.patch(f"/api/v1/tournaments/{t.pk}/", {"pool_tie": "x"}, format="json").status_code
        == 400
    )


def test_entries_list_add_check_out_and_withdraw(api, owner):
    t = TournamentFactory(owner=owner)
    a, b, c = PlayerFactory.create_batch(3, created_by=owner)
    assert (
        api.post(
            f"/api/v1/tournaments/{t.pk}/entries/", {"player": a.pk}, format="json"
        ).status_code
        == 201
    )
    added = api.post(
        f"/api/v1/tournaments/{t.pk}/entries/",
        {"players": [b.pk, c.pk], "status": "absent"},
        format="json",
    )
    assert {e["status"] for e in added.json()} == {"absent"}
    listed = api.get(f"/api/v1/tournaments/{t.pk}/entries/").json()
    assert listed["count"] == 3
    url = f"/api/v1/tournaments/{t.pk}/entries/{b.pk}/"
    assert api.patch(url, {"status": "active"}, format="json").json()["status"] == "active"
    assert api.delete(url).json()["status"] == "withdrawn"
    missing = api.delete(f"/api/v1/tournaments/{t.pk}/entries/{PlayerFactory().pk}/")
    # The path names no entry: 404, as for any other path id.
    assert missing.status_code == 404 and set(missing.json()) == {"detail"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "non_field_errors"),
        ({"player": 1, "players": [1]}, "non_field_errors"),
        ({"players": []}, "players"),
        ({"players": [10**30]}, "players"),
        ({"players": "1,2"}, "players"),
        # An unknown player is answered at the key that was sent.
        ({"player": 987654}, "player"),
        ({"players": [987654]}, "players"),
        ({"player": 1, "status": "asleep"}, "status"),
    ],
)
def test_bad_entries_are_refused(api, owner, body, field):
    t = TournamentFactory(owner=owner)
    response = api.post(f"/api/v1/tournaments/{t.pk}/entries/", body, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]
    assert not t.entries.exists()


def test_another_organisers_private_player_cannot_be_entered_by_id(api, owner):
    # An id is no way into someone else's private player: refused as unknown, nothing stored.
    t = TournamentFactory(owner=owner)
    hidden = PlayerFactory()
    own = PlayerFactory(created_by=owner)
    response = api.post(
        f"/api/v1/tournaments/{t.pk}/entries/", {"players": [own.pk, hidden.pk]}, format="json"
    )
    assert response.status_code == 400
    assert str(hidden.pk) in response.json()["players"][0]
    assert not t.entries.exists()


def test_seat_rounds_reseat_and_seat_by_hand(api, owner):
    t = TournamentFactory(owner=owner, rounds=2, games_per_round=1)
    players = PlayerFactory.create_batch(5, created_by=owner)
    api.post(
        f"/api/v1/tournaments/{t.pk}/entries/", {"players": [p.pk for p in players]}, format="json"
    )
    seated = api.post(f"/api/v1/tournaments/{t.pk}/rounds/", {"date": "2026-10-03"}, format="json")
    assert seated.status_code == 201, seated.content
    round_ = seated.json()
    assert round_["date"] == "2026-10-03" and [len(m["players"]) for m in round_["matches"]] == [
        3,
        2,
    ]
    again = api.post(f"/api/v1/tournaments/{t.pk}/rounds/", format="json")
    assert again.status_code == 409 and "not finished" in again.json()["non_field_errors"][0]
    reseated = api.post(f"/api/v1/rounds/{round_['id']}/reseat/")
    assert reseated.status_code == 200
    assert [m["id"] for m in reseated.json()["matches"]] == [m["id"] for m in round_["matches"]]
    ids = [p.pk for p in players]
    by_hand = api.put(
        f"/api/v1/rounds/{round_['id']}/seating/",
        {"tables": [ids[:3], ids[3:4]], "byes": []},
        format="json",
    )
    assert by_hand.status_code == 400, by_hand.content  # a player left out, a table of 1
    by_hand = api.put(
        f"/api/v1/rounds/{round_['id']}/seating/",
        {"tables": [ids[:3]], "byes": ids[3:]},
        format="json",
    )
    assert by_hand.status_code == 200, by_hand.content
    assert by_hand.json()["matches"][0]["players"] == ids[:3]
    assert by_hand.json()["byes"] == ids[3:]
    stage = api.post(
        f"/api/v1/tournaments/{t.pk}/rounds/", {"stage": "quarterfinal"}, format="json"
    )
    assert stage.status_code == 400 and "stage" in stage.json()


def test_seating_a_round_with_too_few_players_is_a_409(api, owner):
    t = TournamentFactory(owner=owner)
    response = api.post(f"/api/v1/tournaments/{t.pk}/rounds/")
    assert response.status_code == 409 and "at least 2" in response.json()["non_field_errors"][0]


def test_adjustments_count_in_the_standings(api, owner, anon):
    match = match_seated(players=2, owner=owner)
    t = match.round.tournament
    a, b = (s.player_id for s in match.seats.order_by("position"))
    url = f"/api/v1/tournaments/{t.pk}/adjustments/"
    made = api.post(url, {"player": a, "points": "-2.50", "reason": "Slow play"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["points"] == -2.5 and made.json()["kind"] == "penalty"
    wrong_sign = api.post(url, {"player": a, "points": 3, "reason": "x"}, format="json")
    assert wrong_sign.status_code == 400 and "negative" in wrong_sign.json()["points"][0]
    no_reason = api.post(url, {"player": a, "points": -3, "reason": " "}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    rows = {
        r["player"]: r for r in anon.get(f"/api/v1/tournaments/{t.pk}/standings/").json()["results"]
    }
    assert rows[a]["score"] == -2.5 and rows[a]["adjustments"] == -2.5 and rows[b]["score"] == 0
    assert anon.get(url).json()["count"] == 1
    assert api.delete(f"{url}{made.json()['id']}/").status_code == 204
    # No final seated: none to ask for (``standings.current.stage_there_check``).
    assert anon.get(f"/api/v1/tournaments/{t.pk}/standings/?stage=final").status_code == 400
    assert anon.get(f"/api/v1/tournaments/{t.pk}/standings/?stage=nope").status_code == 400


def test_clubs_crud(api):
    made = api.post("/api/v1/clubs/", {"name": "Roskilde", "city": "Roskilde"}, format="json")
    assert made.status_code == 201
    assert api.post("/api/v1/clubs/", {"name": "Roskilde"}, format="json").status_code == 400
    assert api.get("/api/v1/clubs/?search=rosk").json()["count"] == 1


def test_attendance_sets_exactly_who_plays_tonight(owner, as_user):
    from tests.factories import tournament_entered

    tournament = tournament_entered(players=3, owner=owner, kind="league")
    players = [e.player for e in tournament.entries.order_by("player__name")]
    url = f"/api/v1/tournaments/{tournament.pk}/attendance/"
    response = as_user(owner).post(url, {"players": [players[0].pk, players[2].pk]}, format="json")
    assert response.status_code == 200, response.json()
    status_of = {e["player"]: e["status"] for e in response.json()}
    assert status_of == {
        players[0].pk: "active",
        players[1].pk: "absent",
        players[2].pk: "active",
    }
