"""Every write path of the API refuses bad data cleanly: a 4xx, never a 500, and
nothing stored.

The write paths are read from the OpenAPI document (every POST, PUT, PATCH and
DELETE operation), so a new write endpoint without bad cases here fails
``test_every_write_operation_has_bad_cases``. Each case is sent by an organiser
of the tournament (who may make the change), so the refusal comes from the
input or the state, not from the permissions, and the whole database (every
tournament model, users and tokens) must be unchanged afterwards.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from scoring.rules import RackIn
from tests.factories import (
    AdjustmentFactory,
    ClubFactory,
    PlayerFactory,
    TournamentFactory,
    match_seated,
    seated_ids,
)
from tests.tournaments.api.conftest import client_as
from tournaments.backups.document import tournament_document
from tournaments.models import Adjustment, AuditEvent, Tournament
from tournaments.racks_entered import game_racks_entered
from tournaments.services.adjustments import adjustment_add
from tournaments.services.games import game_delete, game_record
from tournaments.services.seasons import season_create

pytestmark = pytest.mark.django_db

WRITE_METHODS = {"post", "put", "patch", "delete"}
NO_SUCH_ID = 999_999_999


@dataclass
class World:
    """One organiser's tournament in the middle of its first round."""

    ids: dict[str, int | str]  # path parameters and bodies' ids (or usernames), by name
    seated: list[int]
    slug: str
    other_slug: str
    club_name: str

    def path(self, template: str, **params: str) -> str:
        return template.format(**{k: self.ids[v] for k, v in params.items()})


@pytest.fixture
def world(owner, other) -> World:
    club = ClubFactory()
    tournament = TournamentFactory(owner=owner, club=club, games_per_round=4)
    match = match_seated(players=4, tournament=tournament)
    seated = seated_ids(match)
    game = game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=seated[0], tiles="")]
        + [RackIn(player=p, points=5) for p in seated[1:]],
    )
    penalty = adjustment_add(
        tournament=tournament, player_id=seated[1], points=-2, reason="Late", user=owner
    )
    bye = AdjustmentFactory(
        tournament=tournament, player=PlayerFactory(), round=match.round, kind=Adjustment.Kind.BYE
    )
    foreign = TournamentFactory(owner=other, club=ClubFactory())
    foreign_match = match_seated(players=2, tournament=foreign)
    # A game deleted, its number recorded again since: restoring it is a conflict.
    second = game_record(
        match=match, ending=game.ending, racks=game_racks_entered(racks=game.racks.all())
    )
    game_delete(game=second, user=owner)
    game_record(match=match, ending=game.ending, racks=game_racks_entered(racks=game.racks.all()))
    # The owner's own club, with a season: what a club organiser writes to.
    own_club = ClubFactory(created_by=owner)
    season = season_create(
        club=own_club,
        user=owner,
        name="Autumn",
        starts=dt.date(2026, 9, 1),
        ends=dt.date(2026, 12, 1),
    )
    return World(
        ids={
            "tournament": tournament.pk,
            "club": club.pk,
            "foreign_club": foreign.club_id,
            "foreign_tournament": foreign.pk,
            "player": seated[0],
            "free_player": PlayerFactory().pk,
            "round": match.round_id,
            "match": match.pk,
            "game": game.pk,
            "deleted_game": second.pk,
            "foreign_match": foreign_match.pk,
            "penalty": penalty.pk,
            "bye": bye.pk,
            "none": NO_SUCH_ID,
            "own_club": own_club.pk,
            "season": season.pk,
            "nobody": "nobody-here",
        },
        seated=seated,
        slug=tournament.slug,
        other_slug=foreign.slug,
        club_name=ClubFactory().name,
    )


@dataclass
class Bad:
    """One refused request: where (path parameters by world id name), what, which headers."""

    params: dict[str, str] = field(default_factory=dict)
    body: Callable[[World], Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)


def racks(*entries: tuple[int, str]) -> Callable[[World], Any]:
    """A game body from (seat index, tiles) pairs; index -1 is a player seated elsewhere."""

    def body(w: World) -> dict[str, Any]:
        return {
            "ending": "rummikub",
            "racks": [
                {"player": w.seated[i] if i >= 0 else w.ids["free_player"], "tiles": tiles}
                for i, tiles in entries
            ],
        }

    return body


FULL_GAME_BAD_TILE = racks((0, ""), (1, "R14"), (2, "R5"), (3, "K3"))
TWO_EMPTY_RACKS = racks((0, ""), (1, ""), (2, "R5"), (3, "K3"))
A_STRANGER = racks((0, ""), (1, "R5"), (2, "R6"), (-1, "K3"))
TAKEN_GAME = racks((0, ""), (1, "R5"), (2, "R6"), (3, "K3"))
CURRENT = {"If-Match": "*"}
STALE = {"If-Match": '"999"'}


def backup_of(slug: str) -> dict[str, Any]:
    return tournament_document(tournament=Tournament.objects.get(slug=slug))


def const(value: Any) -> Callable[[World], Any]:
    return lambda w: value


# (method, path template) -> its bad cases
CASES: dict[tuple[str, str], list[Bad]] = {
    ("post", "/api/v1/auth/token/"): [
        Bad(body=const({"username": "owner", "password": "wrong"})),
        Bad(body=const({"username": "owner"})),
    ],
    ("post", "/api/v1/score/"): [
        Bad(body=const({"ending": "rummikub", "racks": [{"player": "A", "tiles": "R14"}]})),
        Bad(body=const({"ending": "draw", "racks": []})),
    ],
    ("post", "/api/v1/clubs/"): [
        Bad(body=const({"name": ""})),
        Bad(body=const({"name": "   "})),
        Bad(body=lambda w: {"name": w.club_name}),
        Bad(body=const({"name": "x" * 500})),
    ],
    ("put", "/api/v1/clubs/{id}/"): [
        Bad({"id": "club"}, const({"name": ""})),
        Bad({"id": "club"}, lambda w: {"name": w.club_name, "city": "Aarhus"}),
        Bad({"id": "foreign_club"}, const({"name": "Mine now"})),
    ],
    ("patch", "/api/v1/clubs/{id}/"): [
        Bad({"id": "club"}, const({"name": "  "})),
        Bad({"id": "club"}, const({"city": "x" * 500})),
        Bad({"id": "none"}, const({"city": "Aarhus"})),
    ],
    ("delete", "/api/v1/clubs/{id}/"): [
        Bad({"id": "foreign_club"}),
        Bad({"id": "none"}),
    ],
    ("post", "/api/v1/clubs/{club_id}/members/"): [
        Bad({"club_id": "own_club"}, const({})),
        Bad({"club_id": "own_club"}, const({"name": "  "})),
        Bad({"club_id": "own_club"}, const({"name": "Ann", "player": NO_SUCH_ID})),
        Bad({"club_id": "own_club"}, const({"player": NO_SUCH_ID})),
        Bad({"club_id": "foreign_club"}, const({"name": "Ann"})),
    ],
    ("delete", "/api/v1/clubs/{club_id}/members/{player_id}/"): [
        Bad({"club_id": "own_club", "player_id": "free_player"}),
        Bad({"club_id": "foreign_club", "player_id": "player"}),
        Bad({"club_id": "own_club", "player_id": "none"}),
    ],
    ("post", "/api/v1/clubs/{club_id}/invitations/"): [
        Bad({"club_id": "own_club"}, const({"username": ""})),
        Bad({"club_id": "own_club"}, const({"username": "x" * 500})),
        Bad({"club_id": "own_club"}, const({"username": "owner"})),
        Bad({"club_id": "foreign_club"}, const({"username": "someone"})),
    ],
    ("delete", "/api/v1/clubs/{club_id}/invitations/{username}/"): [
        Bad({"club_id": "own_club", "username": "nobody"}),
        Bad({"club_id": "foreign_club", "username": "nobody"}),
    ],
    ("delete", "/api/v1/clubs/{club_id}/co-organisers/{username}/"): [
        Bad({"club_id": "own_club", "username": "nobody"}),
        Bad({"club_id": "foreign_club", "username": "nobody"}),
    ],
    ("post", "/api/v1/club-invitations/{id}/accept/"): [Bad({"id": "none"})],
    ("post", "/api/v1/club-invitations/{id}/decline/"): [Bad({"id": "none"})],
    ("post", "/api/v1/clubs/{club_id}/seasons/"): [
        Bad({"club_id": "own_club"}, const({"name": ""})),
        Bad(
            {"club_id": "own_club"},
            const({"name": "Back", "starts": "2026-09-01", "ends": "2026-08-01"}),
        ),
        Bad(
            {"club_id": "own_club"},
            const({"name": "Odd", "starts": "2026-09-01", "ends": "2026-12-01", "best_of": -1}),
        ),
        Bad(
            {"club_id": "own_club"},
            const({"name": "Odd", "starts": "2026-02-30", "ends": "2026-12-01"}),
        ),
        Bad(
            {"club_id": "foreign_club"},
            const({"name": "Theirs", "starts": "2026-09-01", "ends": "2026-12-01"}),
        ),
    ],
    ("put", "/api/v1/seasons/{id}/"): [
        Bad({"id": "season"}, const({"name": "Only a name"})),
        Bad({"id": "none"}, const({"name": "X", "starts": "2026-09-01", "ends": "2026-12-01"})),
    ],
    ("patch", "/api/v1/seasons/{id}/"): [
        Bad({"id": "season"}, const({"ends": "2020-01-01"})),
        Bad({"id": "season"}, const({"evening_points": "goals"})),
        Bad({"id": "season"}, const({"min_evenings": 100000})),
        Bad({"id": "none"}, const({"name": "X"})),
    ],
    ("delete", "/api/v1/seasons/{id}/"): [Bad({"id": "none"})],
    ("post", "/api/v1/players/"): [
        Bad(body=const({"name": ""})),
        Bad(body=const({"name": "  "})),
        Bad(body=const({"name": "Ann", "club": NO_SUCH_ID})),
        Bad(body=const({"name": "x" * 500})),
    ],
    ("put", "/api/v1/players/{id}/"): [
        Bad({"id": "player"}, const({"name": ""})),
        Bad({"id": "player"}, const({"name": "Ann", "club": "abc"})),
    ],
    ("patch", "/api/v1/players/{id}/"): [
        Bad({"id": "player"}, const({"name": "   "})),
        Bad({"id": "player"}, const({"club": NO_SUCH_ID})),
        Bad({"id": "free_player"}, const({"name": "Not yours"})),
    ],
    ("delete", "/api/v1/players/{id}/"): [
        Bad({"id": "player"}),  # has results: 409
        Bad({"id": "none"}),
    ],
    ("post", "/api/v1/tournaments/"): [
        Bad(body=const({"name": ""})),
        Bad(body=const({"name": "Cup", "joker_penalty": -1})),
        Bad(body=const({"name": "Cup", "pool_tie": "coin"})),
        Bad(body=const({"name": "Cup", "table_points": {"4": [1, 3, 0, 0]}})),
        Bad(body=const({"name": "Cup", "table_points": [4, 3, 1, 0]})),
        Bad(body=const({"name": "Cup", "tie_breaks": ["wins", "luck"]})),
        Bad(body=lambda w: {"name": "Cup", "slug": w.slug}),
        Bad(body=const({"name": "Cup", "max_table_size": 5})),
        Bad(body=const({"name": "Cup", "club": NO_SUCH_ID})),
        Bad(body=const({"name": "Cup", "status": "finished"})),
        Bad(body=const({"name": "Cup", "semifinal_players": 4})),  # one table: no final
    ],
    ("put", "/api/v1/tournaments/{id}/"): [
        Bad({"id": "tournament"}, const({"name": "Cup", "joker_penalty": -5})),
        Bad({"id": "tournament"}, lambda w: {"name": "Cup", "slug": w.other_slug}),
        Bad({"id": "tournament"}, const({"rounds": 3})),  # no name
    ],
    ("patch", "/api/v1/tournaments/{id}/"): [
        Bad({"id": "tournament"}, const({"name": "   "})),
        Bad({"id": "tournament"}, const({"table_points": {"3": [0, 2, 4]}})),
        Bad({"id": "tournament"}, const({"tie_breaks": ["wins", "wins"]})),
        Bad({"id": "tournament"}, const({"pool_tie": "coin"})),
        Bad({"id": "tournament"}, lambda w: {"slug": w.other_slug}),
        Bad({"id": "foreign_tournament"}, const({"name": "Mine"})),
        Bad({"id": "tournament"}, const({"status": "finished"})),
        Bad({"id": "tournament"}, const({"semifinal_players": 6})),
        Bad({"id": "tournament"}, const({"rounds": 0})),  # round 1 is seated
    ],
    ("post", "/api/v1/tournaments/import/"): [
        # A valid backup of the world's tournament: its slug is taken.
        Bad(body=lambda w: backup_of(w.slug)),
        Bad(body=lambda w: {**backup_of(w.slug), "format": "csv"}),
        Bad(body=lambda w: {**backup_of(w.slug), "version": 2}),
        Bad(body=lambda w: {**backup_of(w.slug), "players": [{"id": 0}]}),
        Bad(body=lambda w: {**backup_of(w.slug), "checksum": "0" * 64}),
        Bad(body=const([1, 2])),
    ],
    ("post", "/api/v1/tournaments/{id}/finish/"): [
        Bad({"id": "tournament"}),  # round 1 has games to play: 409
        Bad({"id": "foreign_tournament"}),
        Bad({"id": "none"}),
    ],
    ("post", "/api/v1/tournaments/{id}/reopen/"): [
        Bad({"id": "tournament"}),  # not finished: 409
        Bad({"id": "foreign_tournament"}),
        Bad({"id": "none"}),
    ],
    ("delete", "/api/v1/tournaments/{id}/"): [
        Bad({"id": "foreign_tournament"}),
        Bad({"id": "none"}),
    ],
    ("post", "/api/v1/tournaments/{tournament_id}/entries/"): [
        Bad({"tournament_id": "tournament"}, const({"player": NO_SUCH_ID})),
        Bad({"tournament_id": "tournament"}, lambda w: {"player": 1, "players": [1]}),
        Bad({"tournament_id": "tournament"}, const({"players": []})),
        Bad({"tournament_id": "tournament"}, lambda w: {"player": w.seated[0], "status": "x"}),
    ],
    ("post", "/api/v1/tournaments/{tournament_id}/attendance/"): [
        Bad({"tournament_id": "tournament"}, const({"players": [NO_SUCH_ID]})),
        Bad({"tournament_id": "tournament"}, const({"players": "all"})),
    ],
    ("patch", "/api/v1/tournaments/{tournament_id}/entries/{player_id}/"): [
        Bad({"tournament_id": "tournament", "player_id": "player"}, const({"status": "gone"})),
        Bad(
            {"tournament_id": "tournament", "player_id": "free_player"}, const({"status": "absent"})
        ),
    ],
    ("delete", "/api/v1/tournaments/{tournament_id}/entries/{player_id}/"): [
        Bad({"tournament_id": "tournament", "player_id": "free_player"}),
        Bad({"tournament_id": "foreign_tournament", "player_id": "player"}),
    ],
    ("post", "/api/v1/tournaments/{tournament_id}/rounds/"): [
        Bad({"tournament_id": "tournament"}, const({})),  # round 1 misses results: 409
        Bad({"tournament_id": "tournament"}, const({"stage": "playoff"})),
        Bad({"tournament_id": "tournament"}, const({"date": "yesterday"})),
    ],
    ("post", "/api/v1/tournaments/{tournament_id}/adjustments/"): [
        Bad(
            {"tournament_id": "tournament"},
            lambda w: {"player": w.ids["free_player"], "points": -1, "reason": "x"},
        ),
        Bad(
            {"tournament_id": "tournament"},
            lambda w: {"player": w.seated[0], "points": "-1.234", "reason": "x"},
        ),
        Bad(
            {"tournament_id": "tournament"},
            lambda w: {"player": w.seated[0], "points": -1, "reason": "  "},
        ),
        Bad(
            {"tournament_id": "tournament"},
            lambda w: {"player": w.seated[0], "points": 3, "reason": "x", "kind": "penalty"},
        ),
        Bad(
            {"tournament_id": "tournament"},
            lambda w: {"player": w.seated[0], "points": 3, "reason": "x", "kind": "bye"},
        ),
    ],
    ("delete", "/api/v1/tournaments/{tournament_id}/adjustments/{adjustment_id}/"): [
        Bad({"tournament_id": "tournament", "adjustment_id": "bye"}),  # goes with the seating
        Bad({"tournament_id": "tournament", "adjustment_id": "none"}),
        Bad({"tournament_id": "foreign_tournament", "adjustment_id": "penalty"}),
    ],
    # Who organises it: no such co-organiser or invitation (400), another's tournament (404),
    # no invitation of yours (404).
    ("delete", "/api/v1/tournaments/{tournament_id}/co-organisers/{username}/"): [
        Bad({"tournament_id": "tournament", "username": "none"}),
        Bad({"tournament_id": "foreign_tournament", "username": "none"}),
    ],
    ("delete", "/api/v1/tournaments/{tournament_id}/invitations/{username}/"): [
        Bad({"tournament_id": "tournament", "username": "none"}),
        Bad({"tournament_id": "foreign_tournament", "username": "none"}),
    ],
    ("post", "/api/v1/invitations/{id}/accept/"): [Bad({"id": "none"})],
    ("post", "/api/v1/invitations/{id}/decline/"): [Bad({"id": "none"})],
    ("post", "/api/v1/rounds/{id}/reseat/"): [
        Bad({"id": "round"}),  # it has results: 409
    ],
    ("put", "/api/v1/rounds/{id}/seating/"): [
        Bad({"id": "round"}, lambda w: {"tables": [w.seated]}),  # it has results: 409
        Bad({"id": "round"}, const({"tables": "1,2"})),
    ],
    ("post", "/api/v1/matches/{match_id}/games/"): [
        Bad({"match_id": "match"}, FULL_GAME_BAD_TILE),
        Bad({"match_id": "match"}, TWO_EMPTY_RACKS),
        Bad({"match_id": "match"}, A_STRANGER),
        Bad({"match_id": "match"}, const({"ending": "rummikub", "racks": []})),
        Bad({"match_id": "match"}, lambda w: {**TAKEN_GAME(w), "number": 1}),  # 409 with it
        Bad({"match_id": "match"}, lambda w: {**TAKEN_GAME(w), "number": 0}),
        Bad({"match_id": "match"}, lambda w: {**TAKEN_GAME(w), "number": 5}),  # 4 a round
        Bad({"match_id": "match"}, lambda w: {**TAKEN_GAME(w), "number": "two"}),
        Bad({"match_id": "match"}, lambda w: {**TAKEN_GAME(w), "number": 10**9}),
    ],
    ("post", "/api/v1/games/{game_id}/confirm/"): [
        Bad({"game_id": "game"}, const({"take": "third"})),
        Bad({"game_id": "game"}, const({"take": "second"})),  # no second entry
        Bad({"game_id": "game"}, const({"take": ["first"]})),
        Bad({"game_id": "deleted_game"}),
        Bad({"game_id": "none"}),
    ],
    ("post", "/api/v1/games/{game_id}/restore/"): [
        Bad({"game_id": "deleted_game"}),  # its number was recorded again: 409
        Bad({"game_id": "game"}),  # not deleted
        Bad({"game_id": "none"}),
    ],
    ("post", "/api/v1/matches/{id}/token/"): [
        Bad({"id": "foreign_match"}),
        Bad({"id": "none"}),
    ],
    ("put", "/api/v1/games/{id}/"): [
        Bad({"id": "game"}, FULL_GAME_BAD_TILE, CURRENT),
        Bad({"id": "game"}, A_STRANGER, CURRENT),
        Bad({"id": "game"}, racks((0, ""), (1, "R5"), (2, "R6"), (3, "K3"))),  # no If-Match
        Bad({"id": "game"}, racks((0, ""), (1, "R5"), (2, "R6"), (3, "K3")), STALE),
    ],
    ("delete", "/api/v1/games/{id}/"): [
        Bad({"id": "game"}),  # no If-Match: 428
        Bad({"id": "game"}, headers=STALE),
    ],
}


def write_operations() -> set[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        (method, path)
        for path, item in schema["paths"].items()
        for method in item
        if method in WRITE_METHODS
    }


def database() -> dict[str, list[dict[str, Any]]]:
    """Every row that a write could touch, as plain values."""
    models = [*apps.get_app_config("tournaments").get_models(), Token, get_user_model()]
    return {m._meta.label: list(m.objects.order_by("pk").values()) for m in models}


def without_refusals(
    after: dict[str, list[dict[str, Any]]], before: dict[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    """``after`` less the refusals it recorded: a refused game leaves its trace
    in the audit trail (``game.refused``), and nothing else."""
    known = {row["id"] for row in before["tournaments.AuditEvent"]}
    events = [
        row
        for row in after["tournaments.AuditEvent"]
        if row["id"] in known or row["action"] != AuditEvent.Action.GAME_REFUSED
    ]
    return {**after, "tournaments.AuditEvent": events}


def test_every_write_operation_has_bad_cases():
    assert write_operations() == set(CASES)


@pytest.mark.parametrize(("method", "template"), sorted(CASES), ids=lambda v: str(v))
def test_bad_data_is_refused_and_nothing_is_stored(world, owner, method, template):
    client = client_as(owner)
    for number, case in enumerate(CASES[(method, template)]):
        url = world.path(template, **case.params)
        body = case.body(world) if case.body is not None else None
        headers = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in case.headers.items()}
        before = database()
        response = getattr(client, method)(
            url,
            json.dumps(body) if body is not None else None,
            content_type="application/json",
            **headers,
        )
        what = (method, url, number, body, response.content[:300])
        assert 400 <= response.status_code < 500, what
        assert without_refusals(database(), before) == before, what
