"""Every service that changes something in a tournament leaves an audit event.

The walk: every public function of every module in ``tournaments.services`` is
either in ``WRITES`` (how to call it on a small tournament, the action it
records, who it names) or in ``NOT_AUDITED`` (a read, a helper, or a write
outside any tournament), each with its reason. A service added later and in
neither makes ``test_every_service_is_walked`` fail.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

import tournaments.services
from scoring.errors import ConflictError, UserError
from scoring.rules import RackIn
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    round_play,
    seated_ids,
    tournament_entered,
)
from tests.tournaments.services.clock_support import clock_call, clock_ready, clock_running
from tests.tournaments.services.support import first_entered, tables_swapped
from tournaments.models import AuditEvent, Club, Game, Match, Player, Round, Tournament
from tournaments.services import (
    adjustments,
    clubs,
    co_organisers,
    entries,
    games,
    matches,
    players,
    results,
    rounds,
    stages,
)
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db

A = AuditEvent.Action

# Whole modules with nothing to record in a tournament's trail.
MODULES_NOT_AUDITED = {
    "club_slugs": "a new club's address, chosen before the club is made: no write",
    "idempotency": "the API's request keys: a record of requests, not a change to a tournament",
    "ratings": (
        "ratings are derived data: every write that moves them (a game recorded, corrected, "
        "confirmed, deleted or restored, a tournament's settings, a restore) is audited by its "
        "own service, and a recomputation changes no tournament"
    ),
    "restore_jobs": (
        "a user's restore job: no tournament until restored, and the restore records its own "
        "tournament.imported event"
    ),
}

# Public functions that are no write of their own, or write outside any tournament.
NOT_AUDITED = {
    # the trail itself
    "audit.audit_add": "writes the event",
    "audit.audit_value": "a value as JSON",
    "audit.audit_values": "values as JSON",
    "audit.audit_changes": "a difference of values",
    "games.game_audit": "writes a game's event for the game services",
    # the statement every hot write goes through; its callers audit what they write
    "statement_inserts.instance_insert": "inserts what its calling service audits",
    "statement_inserts.instances_insert": "inserts what its calling service audits",
    # reads
    "games.game_compute": "scores a game without storing it",
    "entries.category_clean": "checks a category, stores nothing",
    "game_scoring.match_seats": "a read",
    "game_scoring.game_score_ahead": "scores a game before its transaction, stores nothing",
    "game_scoring.game_scored": "scores a game without storing it",
    "game_scoring.game_scored_now": "scores a game inside its transaction, stores nothing",
    "game_scoring.tournament_rules": "a tournament's rule set, built once per setting",
    "games.game_snapshot": "a read",
    "games.game_racks": "a read (or the racks its service kept)",
    "games.game_state_new": "a read",
    "results.game_second_entry": "a read",
    "results.second_entry_refusal": "a read: why a source cannot second a game",
    "results.entry_source_of": "where an entry came from, stores nothing",
    "results.entry_source_page": "where an entry came from, stores nothing",
    "results.source_digest": "a digest",
    # refusals: the trace of what was not done (tested in test_results)
    "audit.audit_refusal_add": "writes a refusal's event",
    "results.game_entry_refused": "writes a refusal's event",
    "results.game_entry_conflict": "writes a refusal's event",
    "results.game_entry_source_mark": "keeps a phone's session on a game; no result changes",
    "stages.stage_tables": "a read",
    "tournaments.slug_free": "a read",
    "tournaments.has_results": "a read",
    "tournaments.tournament_settings_check": "judges settings, stores nothing",
    "players_file.players_import_preview": "checks a file, stores nothing",
    "players_file.problem_text": "a message",
    "players_file.header_shown": "the header row in a language, a text",
    "players_file.delimiter_of": "a file's separator, a read of its text",
    "players_file.header_columns": "the columns a first line names, a read of its cells",
    "players_file.name_cell": "a name cell read clean, a text",
    "players_file.players_file_decoded": "a file's bytes as text, stores nothing",
    "players_file.clubs_for_names": "a step of an import or a restore, audited by its caller",
    # checks that refuse, storing nothing
    "model_checks.model_checked": "the model's own checks as a user error",
    "tournament_open.tournament_open_check": "refuses to change a finished tournament",
    "plans.final_decided_check": "refuses a game of a decided final",
    "plans.last_round_complete_check": "refuses to seat while results are missing",
    "plans.tournament_locked": "a read under the tournament's lock",
    "plans.stage_games": "a stage's number of games",
    "plans.unfinished_tables": "a read",
    "plans.tables_said": "a message",
    "plans.round_seating": "a read",
    # parts of an audited write
    "plans.round_store": "stores a round inside the audited seating services",
    "plans.round_fill": "fills a round inside the audited seating services",
    "games.game_racks_store": "stores a game's racks inside game_record and game_correct",
    "games.match_open": "locks and reads a match inside game_record and game_enter",
    "games.game_store": "stores a game with its event inside game_record and game_enter",
    # writes outside any tournament (clubs and players are shared by all)
    # a club's answers and reads
    "clubs.club_invitation_accept": "audited as the invited user (tests/tournaments/test_clubs)",
    "clubs.club_invitation_decline": "audited as the invited user (tests/tournaments/test_clubs)",
    "clubs.members_file": "a members list written as a players file, stores nothing",
    "clubs.members_import_preview": "checks a file, stores nothing",
    "players.player_create": "a new player is in no tournament yet",
    "players.player_delete": "only a player in no tournament can be deleted",
    # the trail goes with the tournament; the deletion is kept in TournamentDeletion
    "tournaments.tournament_delete": "recorded in TournamentDeletion, which outlives the trail",
    # who organises it: checks and composition
    "co_organisers.owner_rights_check": "refuses, stores nothing",
    "co_organisers.usernames_clean": "checks usernames, stores nothing",
    "co_organisers.co_organisers_set": "calls the invitation services, each audited",
    # the invited user's answers, recorded under their own name (not the owner's):
    # tests/tournaments/services/test_tournaments_co_organisers.py
    "co_organisers.co_organiser_invitation_accept": "audited as the invited user",
    "co_organisers.co_organiser_invitation_decline": "audited as the invited user",
    # a club's seasons: in no tournament's trail; a new evening's creation and its
    # players are in its own (tests/tournaments/services/test_seasons.py)
    "seasons.evening_settings_check": "checks an evening's settings, stores nothing",
    "seasons.season_create": "a club's season, in no tournament",
    "seasons.season_update": "a club's season, in no tournament",
    "seasons.season_delete": "a club's season, in no tournament; its evenings stay",
    "seasons.evening_create": "calls tournament_create and entries_add, each audited",
}


# ----------------------------------------------------------------------------- the calls


def _seated(t: Tournament) -> Round:
    return rounds.round_seat_next(tournament=t)


def _played(t: Tournament) -> Round:
    round_ = _seated(t)
    round_play(round_)
    return round_


def _match(t: Tournament) -> Match:
    return Match.objects.filter(round__tournament=t).order_by("round__number", "table")[0]


def _racks(match: Match, points: int = 7) -> list[RackIn]:
    ids = seated_ids(match)
    return [RackIn(player=ids[0], tiles="")] + [RackIn(player=p, points=points) for p in ids[1:]]


def _recorded(t: Tournament, user: Any = None) -> Game:
    match = _match(t) if t.round_set.exists() else _match_of(_seated(t))
    return games.game_record(match=match, ending="rummikub", racks=_racks(match), user=user)


def _match_of(round_: Round) -> Match:
    return round_.matches.order_by("table")[0]


def _deleted(t: Tournament) -> Game:
    game = _recorded(t)
    games.game_delete(game=game)
    return game


def _entered_by_link(t: Tournament) -> Game:
    Tournament.objects.filter(pk=t.pk).update(confirmation=Tournament.Confirmation.ORGANISER)
    return _recorded(Tournament.objects.get(pk=t.pk), user=AnonymousUser())


def _club_named(t: Tournament) -> Club:
    club = ClubFactory(created_by=t.owner)
    Tournament.objects.filter(pk=t.pk).update(club=club)
    return club


def _club_invited(t: Tournament) -> Club:
    club = _club_named(t)
    clubs.club_invitation_send(club=club, by=None, username="ann")
    return club


def _club_co_organised(t: Tournament) -> Club:
    club = _club_named(t)
    club.co_organisers.add(UserFactory(username="ann"))
    return club


def _finished(t: Tournament) -> None:
    _played(t)
    tournament_services.tournament_finish(tournament=t)


@dataclass(frozen=True)
class Write:
    """How to call one service: ``prepare`` sets the scene (its own events do not
    count) and gives what ``call`` needs; ``via`` is who acts: the organiser
    (``user``), a match link (``match_link``) or a command (``system``)."""

    action: str
    call: Callable[[Tournament, Any, Any], Any]
    prepare: Callable[[Tournament], Any] = lambda t: None
    via: str = "user"
    # The event names the match the write concerns.
    at_match: bool = False


WRITES: dict[str, Write] = {
    "tournaments.tournament_create": Write(
        A.TOURNAMENT_CREATED,
        lambda t, u, _: tournament_services.tournament_create(owner=t.owner, name="New", user=u),
    ),
    "tournaments.tournament_update": Write(
        A.SETTINGS_CHANGED,
        lambda t, u, _: tournament_services.tournament_update(tournament=t, rounds=3, user=u),
    ),
    "tournaments.tournament_finish": Write(
        A.TOURNAMENT_FINISHED,
        lambda t, u, _: tournament_services.tournament_finish(tournament=t, user=u),
        prepare=_played,
    ),
    "tournaments.tournament_reopen": Write(
        A.TOURNAMENT_REOPENED,
        lambda t, u, _: tournament_services.tournament_reopen(tournament=t, user=u),
        prepare=_finished,
        via="system",
    ),
    "entries.entries_add": Write(
        A.ENTRY_ADDED,
        lambda t, u, p: entries.entries_add(tournament=t, player_ids=[p.pk], user=u),
        prepare=lambda t: PlayerFactory(created_by=t.owner),
    ),
    "entries.entry_withdraw": Write(
        A.ENTRY_CHANGED,
        lambda t, u, _: entries.entry_withdraw(tournament=t, player_id=first_entered(t), user=u),
    ),
    "entries.entry_check_out": Write(
        A.ENTRY_CHANGED,
        lambda t, u, _: entries.entry_check_out(tournament=t, player_id=first_entered(t), user=u),
    ),
    "entries.entry_activate": Write(
        A.ENTRY_CHANGED,
        lambda t, u, _: entries.entry_activate(tournament=t, player_id=first_entered(t), user=u),
        prepare=lambda t: entries.entry_check_out(tournament=t, player_id=first_entered(t)),
    ),
    "entries.entries_category_set": Write(
        A.ENTRY_CHANGED,
        lambda t, u, _: entries.entries_category_set(
            tournament=t, player_ids=[first_entered(t)], category=" U14 ", user=u
        ),
    ),
    "entries.attendance_set": Write(
        A.ENTRY_CHANGED,
        lambda t, u, _: entries.attendance_set(tournament=t, player_ids=[first_entered(t)], user=u),
    ),
    "players.player_enter": Write(
        A.ENTRY_ADDED,
        lambda t, u, _: players.player_enter(tournament=t, name="Walk-in", user=u),
    ),
    "players_file.players_import": Write(
        A.ENTRY_ADDED,
        lambda t, u, _: players.players_import(text="Newcomer,\n", tournament=t, user=u),
        via="system",
    ),
    # A player's or club's change is recorded in each tournament showing it.
    "players.player_update": Write(
        A.PLAYER_CHANGED,
        lambda t, u, _: players.player_update(
            player=Player.objects.get(pk=first_entered(t)), name="Renamed", user=u
        ),
    ),
    # A club's own actions are in its own trail (no tournament); a change of name or
    # city, and its deletion, in each tournament showing it too.
    "clubs.club_create": Write(
        A.CLUB_CREATED, lambda t, u, _: clubs.club_create(name="New club", created_by=u)
    ),
    "clubs.club_update": Write(
        A.CLUB_CHANGED,
        lambda t, u, c: clubs.club_update(club=c, city="Elsewhere", user=u),
        prepare=_club_named,
    ),
    "clubs.club_delete": Write(
        A.CLUB_DELETED, lambda t, u, c: clubs.club_delete(club=c, user=u), prepare=_club_named
    ),
    "clubs.club_invitation_send": Write(
        A.INVITATION_SENT,
        lambda t, u, c: clubs.club_invitation_send(club=c, by=u, username="ann"),
        prepare=_club_named,
    ),
    "clubs.club_invitation_withdraw": Write(
        A.INVITATION_WITHDRAWN,
        lambda t, u, c: clubs.club_invitation_withdraw(club=c, by=u, username="ann"),
        prepare=lambda t: _club_invited(t),
    ),
    "clubs.club_co_organiser_remove": Write(
        A.CO_ORGANISER_REMOVED,
        lambda t, u, c: clubs.club_co_organiser_remove(club=c, by=u, username="ann"),
        prepare=lambda t: _club_co_organised(t),
    ),
    "clubs.member_add": Write(
        A.MEMBER_ADDED,
        lambda t, u, c: clubs.member_add(club=c, user=u, name="New member"),
        prepare=_club_named,
    ),
    "clubs.member_remove": Write(
        A.MEMBER_REMOVED,
        lambda t, u, p: clubs.member_remove(club=p.club, player=p, user=u),
        prepare=lambda t: PlayerFactory(club=_club_named(t), created_by=t.owner),
    ),
    "clubs.members_import": Write(
        A.MEMBER_ADDED,
        lambda t, u, c: clubs.members_import(club=c, text="Newcomer\n", user=u),
        prepare=_club_named,
    ),
    "rounds.round_seat_next": Write(
        A.ROUND_SEATED, lambda t, u, _: rounds.round_seat_next(tournament=t, user=u)
    ),
    "stages.stage_seat": Write(
        A.ROUND_SEATED,
        lambda t, u, _: stages.stage_seat(tournament=t, stage="final", user=u),
        prepare=_played,
    ),
    "rounds.round_reseat": Write(
        A.ROUND_RESEATED,
        lambda t, u, r: rounds.round_reseat(round=r, user=u),
        prepare=_seated,
        via="system",
    ),
    "rounds.round_manual_set": Write(
        A.SEATS_CHANGED,
        lambda t, u, r: rounds.round_manual_set(round=r, tables=tables_swapped(r), user=u),
        prepare=_seated,
    ),
    "adjustments.adjustment_add": Write(
        A.ADJUSTMENT_ADDED,
        lambda t, u, _: adjustments.adjustment_add(
            tournament=t, player_id=first_entered(t), points=-5, reason="Late", user=u
        ),
    ),
    "adjustments.adjustment_delete": Write(
        A.ADJUSTMENT_DELETED,
        lambda t, u, a: adjustments.adjustment_delete(adjustment=a, user=u),
        prepare=lambda t: adjustments.adjustment_add(
            tournament=t, player_id=first_entered(t), points=-5, reason="Late"
        ),
    ),
    "games.game_record": Write(
        A.GAME_RECORDED,
        lambda t, u, m: games.game_record(match=m, ending="rummikub", racks=_racks(m), user=u),
        prepare=lambda t: _match_of(_seated(t)),
        via="match_link",
        at_match=True,
    ),
    "games.game_correct": Write(
        A.GAME_CORRECTED,
        lambda t, u, g: games.game_correct(
            game=g, ending="rummikub", racks=_racks(g.match, 9), user=u
        ),
        prepare=_recorded,
        at_match=True,
    ),
    "games.game_delete": Write(
        A.GAME_DELETED,
        lambda t, u, g: games.game_delete(game=g, user=u),
        prepare=_recorded,
        at_match=True,
    ),
    "results.game_enter": Write(
        A.GAME_RECORDED,
        lambda t, u, m: results.game_enter(
            match=m, ending="rummikub", racks=_racks(m), number=1, user=u
        ),
        prepare=lambda t: _match_of(_seated(t)),
        via="match_link",
        at_match=True,
    ),
    "results.game_confirm": Write(
        A.GAME_CONFIRMED,
        lambda t, u, g: results.game_confirm(game=g, user=u),
        prepare=_entered_by_link,
        at_match=True,
    ),
    "results.game_restore": Write(
        A.GAME_RESTORED,
        lambda t, u, g: results.game_restore(
            event=AuditEvent.objects.filter(action=A.GAME_DELETED, object_id=g.pk).latest("id"),
            user=u,
        ),
        prepare=_deleted,
        at_match=True,
    ),
    "matches.match_token_regenerate": Write(
        A.TOKEN_REGENERATED,
        lambda t, u, m: matches.match_token_regenerate(match=m, user=u),
        prepare=lambda t: _match_of(_seated(t)),
        at_match=True,
    ),
    "co_organisers.co_organiser_invite": Write(
        A.INVITATION_SENT,
        lambda t, u, _: co_organisers.co_organiser_invite(tournament=t, by=u, username="ann"),
    ),
    "co_organisers.co_organiser_invitation_withdraw": Write(
        A.INVITATION_WITHDRAWN,
        lambda t, u, _: co_organisers.co_organiser_invitation_withdraw(
            tournament=t, by=u, username="ann"
        ),
        prepare=lambda t: co_organisers.co_organiser_invite(tournament=t, by=None, username="ann"),
    ),
    "co_organisers.co_organiser_remove": Write(
        A.CO_ORGANISER_REMOVED,
        lambda t, u, _: co_organisers.co_organiser_remove(tournament=t, by=u, username="ann"),
        prepare=lambda t: t.co_organisers.add(UserFactory(username="ann")),
    ),
    "clock.round_clock_start": Write(A.SETTINGS_CHANGED, clock_call("start"), clock_ready),
    "clock.round_clock_pause": Write(A.SETTINGS_CHANGED, clock_call("pause"), clock_running),
    "clock.round_clock_reset": Write(A.SETTINGS_CHANGED, clock_call("reset"), clock_running),
}


# ----------------------------------------------------------------------------- the walk


def public_services() -> set[str]:
    """``module.function`` for every public function defined in a service module."""
    found = set()
    for info in pkgutil.iter_modules(tournaments.services.__path__):
        if info.name.startswith("_") or info.name in MODULES_NOT_AUDITED:
            continue
        module = importlib.import_module(f"tournaments.services.{info.name}")
        found |= {
            f"{info.name}.{name}"
            for name, fn in inspect.getmembers(module, inspect.isfunction)
            if not name.startswith("_") and fn.__module__ == module.__name__
        }
    return found


def test_every_service_is_walked():
    services = public_services()
    assert not set(WRITES) & set(NOT_AUDITED)
    assert sorted(services - set(WRITES) - set(NOT_AUDITED)) == [], "new service: list it here"
    assert sorted((set(WRITES) | set(NOT_AUDITED)) - services) == [], "listed, but gone"


@pytest.fixture
def tournament() -> Tournament:
    return tournament_entered(players=8, games_per_round=1, rounds=2)


def _actor(via: str, organiser: Any) -> Any:
    return {"user": organiser, "match_link": AnonymousUser(), "system": None}[via]


@pytest.mark.parametrize("name", sorted(WRITES))
def test_every_write_records_who_did_what(tournament, name):
    write = WRITES[name]
    module, function = name.split(".")
    assert callable(getattr(importlib.import_module(f"tournaments.services.{module}"), function))
    given = write.prepare(tournament)
    since = AuditEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    write.call(tournament, _actor(write.via, tournament.owner), given)

    events = list(AuditEvent.objects.filter(id__gt=since, action=write.action))
    assert events, f"{name} recorded no {write.action}"
    for event in events:
        assert event.via == write.via
        if write.via == "user":
            assert event.user == tournament.owner
            assert event.username == tournament.owner.username
        if write.at_match:
            assert event.match is not None
            assert (event.round_number, event.table) == (event.match.round.number, 1)
        else:
            assert event.match is None


# ----------------------------------------------------------------------------- refusals


def test_a_refused_write_leaves_no_event(tournament):
    before = AuditEvent.objects.count()
    with pytest.raises(UserError):
        adjustments.adjustment_add(
            tournament=tournament, player_id=first_entered(tournament), points=5, reason="x"
        )
    with pytest.raises(UserError):
        entries.entries_add(tournament=tournament, player_ids=[first_entered(tournament), 10**9])
    with pytest.raises(ConflictError):
        tournament_services.tournament_finish(tournament=tournament, user=tournament.owner)
    round_ = _seated(tournament)
    after_seating = AuditEvent.objects.count()
    assert after_seating == before + 1
    with pytest.raises(UserError):
        rounds.round_manual_set(round=round_, tables=[[1, 2]], user=tournament.owner)
    assert AuditEvent.objects.count() == after_seating


def test_nothing_changed_records_nothing(tournament):
    tournament_services.tournament_update(
        tournament=tournament, rounds=tournament.rounds, user=tournament.owner
    )
    entries.entry_activate(tournament=tournament, player_id=first_entered(tournament))
    entries.entries_add(tournament=tournament, player_ids=[first_entered(tournament)])
    assert not AuditEvent.objects.exists()
