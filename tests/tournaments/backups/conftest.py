"""A tournament with something of everything a backup holds, and helpers to
compare two backups (or two standings) modulo the ids of the database."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import AnonymousUser

from scoring.rules import RackIn
from tests.factories import ClubFactory, PlayerFactory, UserFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tournaments.backups.ids import ids_translated
from tournaments.models import Adjustment, Tournament
from tournaments.services.adjustments import adjustment_add
from tournaments.services.games import game_delete
from tournaments.services.matches import match_token_regenerate
from tournaments.services.results import game_enter

ID_LISTS = ("players", "entries", "rounds", "matches", "games", "adjustments")
KIND_LIST = {"game": "games", "adjustment": "adjustments", "match": "matches", "round": "rounds",
             "seats": "rounds", "entry": "entries"}  # fmt: skip


def points(*pts: int) -> list[tuple[int, int]]:
    return list(enumerate(pts))


def racks(seated: list[int], *pts: int) -> list[RackIn]:
    return [RackIn(player=p, points=x) for p, x in zip(seated, pts, strict=True)]


@pytest.fixture(autouse=True)
def restore_limits(settings):
    """The limits these tests were written for: a 10 MB file, 800 games, all
    restored within the request (test_background sets its own)."""
    settings.RACKSCORE_BACKUP_MAX_MB = 10
    settings.RACKSCORE_BACKUP_GAMES_MAX = 800
    settings.RACKSCORE_BACKUP_REQUEST_MB = 10
    settings.RACKSCORE_BACKUP_REQUEST_GAMES = 800


@pytest.fixture
def owner():
    return UserFactory(username="owner")


@pytest.fixture
def co():
    return UserFactory(username="co")


@pytest.fixture
def played(owner, co) -> Tournament:
    """Two rounds under double entry: confirmed, entered, disputed and deleted
    games, racks as tiles and as points, a penalty and a bye, a co-organiser."""
    tournament = match_seated(
        players=4,
        owner=owner,
        club=ClubFactory(name="Home club", city="Odense"),
        confirmation=Tournament.Confirmation.DOUBLE_ENTRY,
        table_points={"2": [3, 0], "3": [5, 2, 0], "4": [6, 3, 1, 0]},
        tie_breaks=["table_points", "wins"],
        joker_penalty=25,
    ).round.tournament
    tournament.co_organisers.add(co)
    first = tournament.round_set.get()
    match = first.matches.get()
    seated = seated_ids(match)
    link = AnonymousUser()
    tiles = [RackIn(player=seated[0], tiles=""), RackIn(player=seated[1], tiles="R7 R8 J")]
    tiles += racks(seated[2:], 12, 3)
    for user in (link, owner):  # entered twice alike: confirmed
        game_enter(match=match, ending="rummikub", racks=tiles, number=1, user=user)
    game_enter(
        match=match, ending="rummikub", racks=racks(seated, 0, 5, 9, 14), number=2, user=link
    )
    game_enter(match=match, ending="rummikub", racks=racks(seated, 0, 5, 9, 15), number=2, user=co)
    gone = game_enter(match=match, ending="rummikub", racks=racks(seated, 5, 0, 1, 2), user=owner)
    game_delete(game=gone.game, user=owner)
    game_enter(
        match=match, ending="pool_exhausted", racks=racks(seated, 4, 4, 9, 20), number=3, user=link
    )
    second = match_seated(players=3, tournament=tournament)
    game_enter(
        match=second, ending="rummikub", racks=racks(seated_ids(second), 7, 0, 30), user=owner
    )
    adjustment_add(tournament=tournament, player_id=seated[2], points=-5, reason="Late", user=co)
    Adjustment.objects.create(
        tournament=tournament,
        player_id=seated[3],
        round=second.round,
        kind="bye",
        points=10,
        reason="Bye",
    )
    return tournament


@pytest.fixture
def victim() -> dict[str, Any]:
    """Dave's private tournament: a private player in a private club, a replaced link."""
    dave = UserFactory(username="dave")
    club = ClubFactory(name="Dave Hidden Club", created_by=dave, public=False)
    match = match_seated(players=2, owner=dave, public=False)
    secret = PlayerFactory(name="Secret Sam", club=club, created_by=dave)
    seat = match.seats.get(position=1)
    seat.player = secret
    seat.save()
    match.round.tournament.entries.filter(player_id__in=[seat.player_id]).update(player=secret)
    old = match.token
    match_token_regenerate(match=match, user=dave)
    match.refresh_from_db()
    return {"dave": dave, "club": club, "secret": secret, "old_token": old, "match": match}


def normal(document: dict[str, Any], *, tokens: bool = False) -> dict[str, Any]:
    """A backup with its source ids replaced by their places in the file, and
    without what differs on every export (time, checksum, slug, match tokens)."""
    doc = copy.deepcopy(document)
    maps = {name: {row["id"]: i for i, row in enumerate(doc[name])} for name in ID_LISTS}
    players, matches = maps["players"], maps["matches"]
    for name in ID_LISTS:
        for row in doc[name]:
            row["id"] = maps[name][row["id"]]
    for row in doc["entries"] + doc["adjustments"] + doc["seats"]:
        row["player"] = players[row["player"]]
    for row in doc["seats"]:
        row["match"] = matches[row["match"]]
    for game in doc["games"]:
        game["match"] = matches[game["match"]]
        game["second_entry"] = ids_translated(game["second_entry"], players)
        for rack in game["racks"]:
            rack["player"] = players[rack["player"]]
    for event in doc["audit"]:
        kind = event["action"].split(".")[0]
        found = maps.get(KIND_LIST.get(kind, ""), {})
        if kind in ("tournament", "settings"):
            event["object_id"] = "T" if event["object_id"] is not None else None
        else:
            event["object_id"] = found.get(event["object_id"])
        event["match"] = matches.get(event["match"])
        # The account: a restore keeps the file's authors as names only (``username``).
        event.pop("user")
        event["old"] = ids_translated(event["old"], players)
        event["new"] = ids_translated(event["new"], players)
    for name in ("exported_at", "checksum"):
        doc.pop(name, None)
    doc["tournament"].pop("slug")
    if not tokens:
        for match in doc["matches"]:
            match.pop("token")
    return doc


def standings_json(tournament: Tournament, user: Any) -> list[dict[str, Any]]:
    """The standings as the API answers them, without player ids."""
    response = client_as(user).get(f"/api/v1/tournaments/{tournament.pk}/standings/")
    assert response.status_code == 200, response.content
    rows: list[dict[str, Any]] = response.json()["results"]
    for row in rows:
        row.pop("player")
    return rows


def rows_count() -> dict[str, int]:
    """How many rows every model of the app holds: a refused import adds none."""
    return {
        m._meta.label: m.objects.count() for m in apps.get_app_config("tournaments").get_models()
    }
