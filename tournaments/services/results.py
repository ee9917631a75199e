"""Results you can trust: entering a game by its number, second entries,
confirmation, disputes and restoring a deleted game.

Vocabulary:

* an *entry* of game N is one submission of its racks, from a match link or
  by an organiser, naming the number the entry form showed;
* under ``confirmation = organiser`` a game entered through a match link is
  ``entered`` until an organiser *confirms* it; under ``double_entry`` every
  game is ``entered`` until a *second entry* with the same racks (same ending,
  and for every player the same points and jokers) confirms it, while a
  second entry that differs makes it ``disputed``, kept beside it in
  ``Game.second_entry`` until an organiser *settles* it (keeps the first
  version or takes the second);
* nobody confirms what they entered themselves: the same user's second entry
  or confirmation is refused (a match link never confirms; it has no user);
* an entry's *source* (``EntrySource``, kept on the game in
  ``Game.entry_sources`` under double entry, first entry first) says where it
  came from: a *user*; a *page* (the table's page ``/m/<token>/``, from a
  phone's browser session: a digest of the session's key, of the entry's key
  (the form's ``entry_key``) and when that session first opened the table's
  page, its *joining*); *link over the API* (``X-Match-Token``: no phone); or
  the *system*. A second entry through a match link counts only from the
  page: from a session that has not entered that game, with another key, and
  that joined the table before the first entry was stored. Clearing cookies
  makes a new session, which joins too late to second anything entered
  before it. Over the API a match token is never a second entry (a token
  names no phone): an organiser enters the second version there;
* a *refusal* of an entry (a second entry refused, a game number recorded
  already with other racks) is kept in the match's history as a
  ``game.refused`` event with what was sent (``game_entry_refused``,
  ``game_entry_conflict``), at most a few per match per minute
  (``audit.audit_refusal_add``);
* *restoring* brings a deleted game back from its last history event, under
  its old id and number, re-scored with the tournament's rules.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from django.db import transaction

from scoring import rules
from scoring.errors import ConflictError, UserError, _
from tournaments.access import user_or_none
from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Game, Match, Tournament
from tournaments.services.audit import audit_refusal_add
from tournaments.services.game_scoring import GameAhead, match_seats
from tournaments.services.games import (
    GameTakenError,
    game_audit,
    game_compute,
    game_correct,
    game_racks_store,
    game_snapshot,
    game_store,
    match_open,
)
from tournaments.services.ratings import rating_game_changed
from tournaments.services.tournament_open import tournament_open_check

Outcome = Literal["recorded", "confirmed", "disputed"]


@dataclass(frozen=True)
class GameEntered:
    """What an entry did: recorded a new game, or confirmed or disputed one."""

    game: Game
    outcome: Outcome


def _same_racks(game: Game, ending: str, result: rules.GameOut) -> bool:
    stored = {r.player_id: (r.points, r.jokers) for r in game.racks.all()}
    given = {r.player: (r.points, r.jokers) for r in result.racks}
    return game.ending == ending and stored == given


Via = Literal["user", "page", "link_api", "system"]
# Why an entry was refused, as its ``game.refused`` event keeps it.
Refusal = Literal["own_entry", "same_phone", "joined_late", "same_key", "link_api", "taken"]


def source_digest(secret: str) -> str:
    """What a source keeps of a session's key or an entry's key: a digest, never the key."""
    return hashlib.sha256(secret.encode()).hexdigest()[:24] if secret else ""


@dataclass(frozen=True)
class EntrySource:
    """Where an entry came from (see the module's docstring): ``session`` and
    ``key`` are digests (``source_digest``); ``joined``: when that session
    first opened the table's page."""

    via: Via
    user_id: int | None = None
    session: str = ""
    key: str = ""
    joined: dt.datetime | None = None

    def as_json(self) -> dict[str, Any]:
        return {"via": self.via, "user": self.user_id, "session": self.session, "key": self.key}


def entry_source_of(user: ActingUser, *, key: str = "") -> EntrySource:
    """The source of an entry made through the API or a command: a user, the
    match token (an anonymous request), or the system (no request)."""
    u = user_or_none(user)
    if u is not None:
        return EntrySource("user", user_id=u.pk, key=source_digest(key))
    return EntrySource("system" if user is None else "link_api", key=source_digest(key))


def entry_source_page(
    *, user: ActingUser, session_key: str, key: str, joined: dt.datetime | None
) -> EntrySource:
    """The source of an entry from the table's page: the organiser logged in, or
    the phone's session (its key's digest and its joining)."""
    u = user_or_none(user)
    if u is not None:
        return EntrySource("user", user_id=u.pk, key=source_digest(key))
    return EntrySource(
        "page", session=source_digest(session_key), key=source_digest(key), joined=joined
    )


class SecondEntryRefusedError(ConflictError):
    """A second entry that cannot count (see ``EntrySource``); carries the game
    and the reason kept in its ``game.refused`` event."""

    default_code = "second_entry_refused"

    def __init__(self, game: Game, reason: Refusal) -> None:
        self.game = game
        self.reason = reason
        super().__init__(_REFUSAL_MESSAGES[reason], field="number", number=game.number)


_REFUSAL_MESSAGES = {
    "own_entry": _(
        "You entered game %(number)s yourself; another organiser or the table's own "
        "entry has to confirm it."
    ),
    "same_phone": _(
        "You entered game %(number)s on this phone: its second entry has to come from "
        "another phone or an organiser."
    ),
    "joined_late": _(
        "Game %(number)s was entered before this phone opened the table's page: its second "
        "entry has to come from a phone that was at the table then, or from an organiser."
    ),
    "same_key": _(
        "This entry of game %(number)s was sent before: its second entry has to come from "
        "another phone or an organiser."
    ),
    "link_api": _(
        "Game %(number)s waits for its second entry: a match link enters it on the table's "
        "page, on another phone than the first; over the API only an organiser enters it."
    ),
}


def _own_entry_check(game: Game, user: ActingUser) -> None:
    u = user_or_none(user)
    if u is not None and game.recorded_by_id == u.pk:
        raise ConflictError(_REFUSAL_MESSAGES["own_entry"], number=game.number)


def second_entry_refusal(game: Game, source: EntrySource) -> Refusal | None:
    """Why ``source`` cannot be game's second entry, or None when it can (the
    rules are the module's docstring's)."""
    firsts = [s for s in game.entry_sources or [] if isinstance(s, dict)]
    if source.via == "user" and game.recorded_by_id == source.user_id:
        return "own_entry"
    if source.via == "link_api":
        return "link_api"
    if source.via == "page":
        if source.session and any(s.get("session") == source.session for s in firsts):
            return "same_phone"
        if not source.session or source.joined is None or source.joined >= game.created:
            return "joined_late"
    if source.key and any(s.get("key") == source.key for s in firsts):
        return "same_key"
    return None


def game_enter(
    *,
    match: Match,
    ending: str,
    racks: Sequence[rules.RackIn],
    number: int | None = None,
    user: ActingUser = None,
    ahead: GameAhead | None = None,
    savepoint: bool = True,
    source: EntrySource | None = None,
) -> GameEntered:
    """An entry of a game: records it, or under double entry confirms or
    disputes the game already recorded with that number (``ahead``: the game
    as ``game_score_ahead`` scored it before the transaction; ``source``:
    where the entry came from, by default as ``entry_source_of`` says for
    ``user``). A second entry that cannot count is a ``SecondEntryRefusedError``.

    ``savepoint=False``: the caller's transaction, if any, is rolled back
    whole after any refusal (a keyed API write's is), so the entry takes no
    savepoint of its own within it."""
    with transaction.atomic(savepoint=savepoint):
        opened = match_open(match=match, ending=ending, racks=racks, ahead=ahead)
        if source is None:
            source = entry_source_of(user)
        if number is None or number not in opened.taken:
            double = (
                opened.match.round.tournament.confirmation == Tournament.Confirmation.DOUBLE_ENTRY
            )
            stored = game_store(
                opened=opened,
                ending=ending,
                user=user,
                number=number,
                entry_sources=[source.as_json()] if double else None,
            )
            return GameEntered(stored, "recorded")
        game = (
            Game.objects.select_for_update()
            .prefetch_related("racks")
            .get(match_id=opened.match.pk, number=number)
        )
        game.match = opened.match  # locked, with its tournament as read just now
        tournament = opened.match.round.tournament
        awaiting = (
            tournament.confirmation == Tournament.Confirmation.DOUBLE_ENTRY
            and game.state == Game.State.ENTERED
        )
        if not awaiting:
            raise GameTakenError(game)
        refusal = second_entry_refusal(game, source)
        if refusal is not None:
            raise SecondEntryRefusedError(game, refusal)
        result = opened.result
        old = game_snapshot(game)
        game.entry_sources = [*(game.entry_sources or []), source.as_json()]
        if _same_racks(game, ending, result):
            game.state = Game.State.CONFIRMED
            game.confirmed_by = user_or_none(user)
            game.save(update_fields=["state", "confirmed_by", "entry_sources", "updated"])
            game_audit(game=game, action=AuditEvent.Action.GAME_CONFIRMED, user=user, old=old)
            rating_game_changed(game=game)
            return GameEntered(game, "confirmed")
        game.state = Game.State.DISPUTED
        game.second_entry = {"ending": ending, "racks": [rules.rack_as_json(r) for r in racks]}
        game.save(update_fields=["state", "second_entry", "entry_sources", "updated"])
        game_audit(
            game=game,
            action=AuditEvent.Action.GAME_DISPUTED,
            user=user,
            old=old,
            new={**game_snapshot(game), "second_entry": game.second_entry},
        )
        return GameEntered(game, "disputed")


def game_entry_refused(
    *,
    match: Match,
    number: int | None,
    ending: str,
    racks: Sequence[rules.RackIn],
    reason: Refusal,
    user: ActingUser,
    game: Game | None = None,
) -> AuditEvent | None:
    """Keep a refused entry of ``match``'s game ``number`` in its history: what
    was sent and why (None when the match's refusals of the last minute are
    recorded already). Runs after the refused entry's transaction."""
    sent = {
        "ending": ending,
        "racks": [rules.rack_as_json(r) for r in racks],
        "reason": reason,
    }
    return audit_refusal_add(
        match=match,
        user=user,
        game_number=number,
        sent=sent,
        object_id=game.pk if game is not None else None,
    )


def game_entry_conflict(
    *, taken: Game, match: Match, ending: str, racks: Sequence[rules.RackIn], user: ActingUser
) -> AuditEvent | None:
    """Keep an entry refused because its number was recorded already, when
    its racks differ from the recorded game's (a retry of the same game, whose
    answer was lost, is no conflict and leaves nothing)."""
    try:
        result = game_compute(match=match, ending=ending, racks=racks)
    except UserError:
        result = None
    if result is not None and _same_racks(taken, ending, result):
        return None
    return game_entry_refused(
        match=match,
        number=taken.number,
        ending=ending,
        racks=racks,
        reason="taken",
        user=user,
        game=taken,
    )


@transaction.atomic
def game_entry_source_mark(*, game: Game, source: EntrySource) -> None:
    """A game this phone entered otherwise (its offline queue sent it through
    the API, which knows no phone): keep the session among the game's sources,
    so that it cannot be the game's second entry either. Only a game awaiting
    its second entry needs it."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.state != Game.State.ENTERED or not source.session:
        return
    if any(s.get("session") == source.session for s in game.entry_sources or []):
        return
    game.entry_sources = [*(game.entry_sources or []), {**source.as_json(), "marked": True}]
    game.save(update_fields=["entry_sources"])


def game_second_entry(game: Game) -> tuple[str, list[rules.RackIn]] | None:
    """A disputed game's other version, as rack entries."""
    if not game.second_entry:
        return None
    body = game.second_entry
    return body["ending"], [rules.rack_from_json(r) for r in body["racks"]]


@transaction.atomic
def game_confirm(
    *, game: Game, user: ActingUser, take: Literal["first", "second"] | None = None
) -> Game:
    """An organiser confirms a game; for a disputed one, ``take`` must say which
    version stands (the second is stored as a correction)."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("match__round__tournament")
        .get(pk=game.pk)
    )
    tournament_open_check(game.match.round.tournament)
    if take == "second":
        second = game_second_entry(game)
        if second is None:
            raise UserError(
                _("Game %(number)s has no second version to take."),
                field="take",
                number=game.number,
            )
        ending, racks = second
        return game_correct(game=game, ending=ending, racks=racks, user=user)
    if game.state == Game.State.DISPUTED and take is None:
        raise UserError(
            _(
                "Game %(number)s is disputed: say which version stands, the first entry or "
                "the second."
            ),
            field="take",
            number=game.number,
        )
    if game.state == Game.State.CONFIRMED:
        return game
    if game.state == Game.State.ENTERED:
        _own_entry_check(game, user)
    old = game_snapshot(game)
    game.state = Game.State.CONFIRMED
    game.second_entry = None
    game.confirmed_by = user_or_none(user)
    game.save(update_fields=["state", "second_entry", "confirmed_by", "updated"])
    game_audit(game=game, action=AuditEvent.Action.GAME_CONFIRMED, user=user, old=old)
    rating_game_changed(game=game)
    return game


@transaction.atomic
def game_restore(*, event: AuditEvent, user: ActingUser) -> Game:
    """Bring back the game ``event`` deleted, from the snapshot it kept: same
    number and racks, and the same id when that is still free."""
    if (
        event.action != AuditEvent.Action.GAME_DELETED
        or event.match_id is None
        or not isinstance(event.old, dict)
    ):
        raise UserError(_("Only a deleted game can be restored."))
    match = Match.objects.select_related("round__tournament").get(pk=event.match_id)
    tournament_open_check(match.round.tournament)
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=match.pk)
    )
    number = event.game_number or 0
    if match.games.filter(number=number).exists():
        raise ConflictError(
            _(
                "Game %(number)s of table %(table)s is there now (restored or recorded again); "
                "correct or delete that one first."
            ),
            number=number,
            table=match.table,
        )
    later = AuditEvent.objects.filter(
        match=match, game_number=number, action=AuditEvent.Action.GAME_DELETED, id__gt=event.pk
    )
    if later.exists():
        raise ConflictError(
            _("Game %(number)s of table %(table)s was deleted again later: restore that one."),
            number=number,
            table=match.table,
        )
    snapshot: dict[str, Any] = event.old
    racks = [rules.rack_from_json(r) for r in snapshot["racks"]]
    result = game_compute(match=match, ending=snapshot["ending"], racks=racks)
    free = event.object_id is not None and not Game.objects.filter(pk=event.object_id).exists()
    game = Game.objects.create(
        pk=event.object_id if free else None,
        match=match,
        number=number,
        ending=snapshot["ending"],
        version=(event.version or 0) + 1,
        recorded_by=user_or_none(user),
        state=snapshot.get("state", Game.State.CONFIRMED),
    )
    if game.state == Game.State.DISPUTED:
        # The other version is not in the snapshot: the game comes back to be confirmed.
        game.state = Game.State.ENTERED
        game.save(update_fields=["state"])
    stored = game_racks_store(game=game, result=result, seats=match_seats(match))
    game_audit(game=game, action=AuditEvent.Action.GAME_RESTORED, user=user)
    rating_game_changed(game=game, racks=stored)
    return game
