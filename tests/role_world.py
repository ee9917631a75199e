"""The world the role matrix (``tests/test_role_matrix.py``) asks its questions in.

Vocabulary:

* a *role* is who sends a request: ``anonymous``; a ``stranger`` (logged in,
  no relation to anything asked about); the tournament's ``owner``; a
  ``co_organiser`` (named, accepted); ``invited`` (asked to co-organise, not
  yet accepted); ``staff``; ``match_link`` (the holder of one table's token:
  the ``X-Match-Token`` header in the API, the token in ``/m/<token>/`` on the
  web); ``old_link`` (that table's token before an organiser replaced it);
* a *scope* is what a request's address names: ``public`` and ``private``
  (a tournament of each kind, its rounds, tables, games, adjustments, players
  and club, all the owner's), ``finished`` (a public tournament declared
  finished), ``made_by_stranger`` (a player and a club the stranger created,
  entered nowhere) and ``site`` (addresses naming nothing: lists, creation,
  the home page);
* the *fingerprint* of the database is what a refused request must leave as
  it was: the number of rows of every model of the tournaments app and of the
  users' co-organiser links, every tournament's settings that say who sees
  and owns it, every match's token and every game's version and state.

The world is built once per test module (``world_build``), its users logged
in once (a session and an API token each), and every test runs inside its own
savepoint, so an allowed write is undone before the next test and the
fingerprint of the world (``World.baseline``) holds at every test's start.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import tournaments.services
from scoring.rules import RackIn
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory, round_play
from tournaments.models import AuditEvent, Game, Match, RestoreJob, Round, Tournament
from tournaments.services.adjustments import adjustment_add
from tournaments.services.entries import entries_add
from tournaments.services.games import game_delete, game_record
from tournaments.services.matches import match_token_regenerate
from tournaments.services.rounds import round_seat_next
from tournaments.services.seasons import season_create
from tournaments.services.tournaments import tournament_finish

ROLES = (
    "anonymous",
    "stranger",
    "owner",
    "co_organiser",
    "invited",
    "staff",
    "match_link",
    "old_link",
)
USER_ROLES = ("stranger", "owner", "co_organiser", "invited", "staff")
LINK_ROLES = ("match_link", "old_link")
TOURNAMENT_SCOPES = ("public", "private", "finished")
SCOPES = (*TOURNAMENT_SCOPES, "made_by_stranger", "site")


# ----------------------------------------------------------------------------- invitations


def invitation_service() -> Callable[..., Any] | None:
    """The service that invites a co-organiser, once the tournaments services have
    one: a function of ``tournaments.services`` named for inviting
    (``…_invite``), not for answering an invitation."""
    for module_info in pkgutil.iter_modules(tournaments.services.__path__):
        module = importlib.import_module(f"tournaments.services.{module_info.name}")
        for name in dir(module):
            function = getattr(module, name)
            if (
                callable(function)
                and name.endswith("_invite")
                and getattr(function, "__module__", "") == module.__name__
            ):
                return function  # type: ignore[no-any-return]
    return None


def invitation_accept_service() -> Callable[..., Any] | None:
    invite = invitation_service()
    if invite is None:
        return None
    module = importlib.import_module(invite.__module__)
    found = [getattr(module, name) for name in dir(module) if name.endswith("invitation_accept")]
    return found[0] if found else None


def invitation_send(*, tournament: Tournament, invited: Any, owner: Any) -> Any:
    """Invite ``invited`` to co-organise ``tournament`` through the service (the
    invitation), or None while there is no such service (the role is pending)."""
    invite = invitation_service()
    if invite is None:
        return None
    return invite(tournament=tournament, by=owner, username=invited.get_username())


def co_organiser_make(*, tournament: Tournament, co_organiser: Any, owner: Any) -> None:
    """Make ``co_organiser`` an accepted co-organiser: invited and accepting where
    invitations exist, else named directly."""
    accept = invitation_accept_service()
    invitation = invitation_send(tournament=tournament, invited=co_organiser, owner=owner)
    if invitation is None or accept is None:
        tournament.co_organisers.add(co_organiser)
        return
    accept(invitation=invitation, user=co_organiser)


# ----------------------------------------------------------------------------- the world


@dataclass
class Scope:
    """What one scope's addresses name (ids and slugs; None where it names none)."""

    tournament: Tournament | None = None
    round_number: int = 1
    round_id: int | None = None  # the latest round: seated, partly played
    match: Match | None = None  # the link's table (latest round, table 1)
    other_match: Match | None = None  # another table of the same round
    game: Game | None = None  # a game of the link's table
    game_number: int = 1
    deleted_game_id: int | None = None  # a game deleted (its id, for restoring)
    deleted_event_id: int | None = None  # the audit event of that deletion
    adjustment_id: int | None = None
    player_id: int | None = None  # entered and seated here, made by the owner
    club_id: int | None = None  # named by the tournament, made by the owner
    club_slug: str | None = None  # that club's address (/c/<slug>/)
    season_id: int | None = None  # that club's season, the tournament one of its evenings
    old_token: str = ""
    to_delete: Game | None = field(default=None, repr=False)
    invitation_id: int | None = None  # the invited user's invitation, waiting
    co_organiser_name: str | None = None
    invited_name: str | None = None
    job_id: int | None = None  # the owner's restore job (site scope)


@dataclass
class World:
    users: dict[str, Any]
    scopes: dict[str, Scope]
    invited_pending: bool  # no invitation service yet: the ``invited`` role is not asked
    tokens: dict[str, str] = field(default_factory=dict)  # user role -> API token key
    sessions: dict[str, str] = field(default_factory=dict)  # user role -> session key
    baseline: dict[str, Any] = field(default_factory=dict)  # the world's fingerprint

    def api_client(self, role: str, scope: str) -> APIClient:
        client = APIClient()
        headers: dict[str, str] = {}
        if role in self.tokens:
            headers["HTTP_AUTHORIZATION"] = f"Token {self.tokens[role]}"
        link = self.link_token(role, scope)
        if link:
            headers["HTTP_X_MATCH_TOKEN"] = link
        client.credentials(**headers)
        return client

    def web_client(self, role: str) -> Client:
        client = Client()
        if role in self.sessions:
            client.cookies[settings.SESSION_COOKIE_NAME] = self.sessions[role]
        return client

    def link_token(self, role: str, scope: str) -> str:
        """The token a link role holds in a scope ("" for the other roles)."""
        match = self.scopes[scope].match
        if match is None or role not in LINK_ROLES:
            return ""
        return match.token if role == "match_link" else self.scopes[scope].old_token

    def page_token(self, role: str, scope: str) -> str:
        """The token in a ``/m/<token>/`` address: the table's own, or the replaced one."""
        s = self.scopes[scope]
        assert s.match is not None, f"no match in scope {scope}"
        return s.old_token if role == "old_link" else s.match.token


def _user(username: str, **kwargs: Any) -> AbstractBaseUser:
    # An unusable password: hashing a real one costs most of a test.
    return UserFactory(username=username, password=None, **kwargs)


def _tournament_played(
    *, owner: Any, co_organiser: Any, invited: Any, public: bool, slug: str
) -> Scope:
    """A tournament of two tables: round 1 played, round 2 seated with one game
    at each table and a game deleted at table 2; an adjustment; table 1's link
    replaced once."""
    club = ClubFactory(name=f"Club of {slug}", created_by=owner)
    tournament = TournamentFactory(
        name=f"Tournament {slug}",
        slug=slug,
        owner=owner,
        public=public,
        club=club,
        games_per_round=2,
        rounds=3,
    )
    co_organiser_make(tournament=tournament, co_organiser=co_organiser, owner=owner)
    players = PlayerFactory.create_batch(8, created_by=owner, club=club)
    entries_add(tournament=tournament, player_ids=[p.pk for p in players], user=owner)
    first = round_seat_next(tournament=tournament, user=owner)
    round_play(first, seed=1)
    second = round_seat_next(tournament=tournament, user=owner)
    match, other = list(second.matches.order_by("table"))
    game = None
    for table in (match, other):
        seated = list(table.seats.order_by("position").values_list("player_id", flat=True))
        racks = [RackIn(player=seated[0], tiles="")] + [
            RackIn(player=p, points=5 + i, jokers=0) for i, p in enumerate(seated[1:])
        ]
        recorded = game_record(match=table, ending="rummikub", racks=racks, user=owner)
        game = game or recorded
    # Deleted once the whole world is built (``_game_deleted``): SQLite gives a
    # deleted row's id to the next row, and the game must stay gone to be restored.
    to_delete = game_record(
        match=other,
        ending="rummikub",
        racks=[RackIn(player=p, points=0 if i == 0 else 3, jokers=0) for i, p in enumerate(seated)],
        user=owner,
    )
    adjustment = adjustment_add(
        tournament=tournament, player_id=players[0].pk, points=-5, reason="Late", user=owner
    )
    old_token = match.token
    match = match_token_regenerate(match=match, user=owner)
    invitation = invitation_send(tournament=tournament, invited=invited, owner=owner)
    # Current whatever the day (an ended season starts no evening).
    today = timezone.localdate()
    season = season_create(
        club=club,
        user=owner,
        name=f"Season of {slug}",
        starts=today - timedelta(days=90),
        ends=today + timedelta(days=90),
    )
    Tournament.objects.filter(pk=tournament.pk).update(season=season)
    assert game is not None
    return Scope(
        tournament=tournament,
        round_number=second.number,
        round_id=second.pk,
        match=match,
        other_match=other,
        game=game,
        game_number=game.number,
        deleted_game_id=to_delete.pk,
        adjustment_id=adjustment.pk,
        player_id=players[0].pk,
        club_id=club.pk,
        club_slug=club.slug,
        season_id=season.pk,
        old_token=old_token,
        to_delete=to_delete,
        invitation_id=getattr(invitation, "pk", None),
        co_organiser_name=co_organiser.get_username(),
        invited_name=invited.get_username(),
    )


def _tournament_finished(*, owner: Any, co_organiser: Any, invited: Any) -> Scope:
    """A public tournament of one table of four, its one round played, then finished."""
    tournament = TournamentFactory(
        name="Tournament finished", slug="finished", owner=owner, games_per_round=2, rounds=1
    )
    co_organiser_make(tournament=tournament, co_organiser=co_organiser, owner=owner)
    players = PlayerFactory.create_batch(4, created_by=owner)
    entries_add(tournament=tournament, player_ids=[p.pk for p in players], user=owner)
    round_ = round_seat_next(tournament=tournament, user=owner)
    match = round_.matches.get()
    old_token = match.token
    match = match_token_regenerate(match=match, user=owner)
    round_play(round_, seed=2)
    adjustment = adjustment_add(
        tournament=tournament, player_id=players[0].pk, points=-5, reason="Late", user=owner
    )
    invitation_send(tournament=tournament, invited=invited, owner=owner)
    tournament = tournament_finish(tournament=tournament, user=owner)
    game = match.games.order_by("number").first()
    assert game is not None
    return Scope(
        tournament=tournament,
        round_number=round_.number,
        round_id=round_.pk,
        match=Match.objects.get(pk=match.pk),
        other_match=None,
        game=game,
        game_number=game.number,
        adjustment_id=adjustment.pk,
        player_id=players[0].pk,
        old_token=old_token,
    )


def _game_deleted(scope: Scope, *, owner: Any) -> None:
    """Delete the scope's game kept for deleting; note its deletion's audit event."""
    assert scope.to_delete is not None and scope.tournament is not None
    game_delete(game=scope.to_delete, user=owner)
    event = AuditEvent.objects.get(
        tournament=scope.tournament,
        action=AuditEvent.Action.GAME_DELETED,
        object_id=scope.deleted_game_id,
    )
    scope.deleted_event_id = event.pk


def _session_key(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def world_build() -> World:
    users = {
        "stranger": _user("stranger"),
        "owner": _user("owner"),
        "co_organiser": _user("co-organiser"),
        "invited": _user("invited"),
        "staff": _user("staff", is_staff=True),
    }
    people = {
        "owner": users["owner"],
        "co_organiser": users["co_organiser"],
        "invited": users["invited"],
    }
    public = _tournament_played(**people, public=True, slug="open")
    private = _tournament_played(**people, public=False, slug="closed")
    finished = _tournament_finished(**people)
    strangers_club = ClubFactory(name="Stranger's club", created_by=users["stranger"])
    strangers_player = PlayerFactory(
        name="Stranger's player", created_by=users["stranger"], club=strangers_club
    )
    # A second tournament of someone else, public, whose rows nobody here organises.
    TournamentFactory(slug="elsewhere", owner=_user("elsewhere"))
    for scope in (public, private):
        _game_deleted(scope, owner=users["owner"])
    world = World(
        users=users,
        scopes={
            "public": public,
            "private": private,
            "finished": finished,
            "made_by_stranger": Scope(player_id=strangers_player.pk, club_id=strangers_club.pk),
            "site": Scope(job_id=RestoreJob.objects.create(user=users["owner"]).pk),
        },
        invited_pending=invitation_service() is None,
        tokens={role: Token.objects.create(user=user).key for role, user in users.items()},
        sessions={role: _session_key(user) for role, user in users.items()},
    )
    world.baseline = fingerprint()
    return world


# ----------------------------------------------------------------------------- fingerprint


def fingerprint() -> dict[str, Any]:
    """What a refused request must leave unchanged (see the module's vocabulary)."""
    counts = {
        model._meta.label: model._default_manager.count()
        for model in apps.get_app_config("tournaments").get_models()
    }
    counts["co_organisers"] = Tournament.co_organisers.through.objects.count()
    return {
        "counts": counts,
        "tournaments": list(
            Tournament.objects.order_by("pk").values_list(
                "pk", "name", "slug", "public", "status", "owner_id"
            )
        ),
        "co_organisers": list(
            Tournament.co_organisers.through.objects.order_by("pk").values_list(
                "tournament_id", "user_id"
            )
        ),
        "tokens": list(Match.objects.order_by("pk").values_list("pk", "token")),
        "games": list(Game.objects.order_by("pk").values_list("pk", "version", "state")),
        "rounds": list(Round.objects.order_by("pk").values_list("pk", "number")),
        "invitations": {
            label: count for label, count in counts.items() if "invitation" in label.lower()
        },
    }
