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
* *restoring* brings a deleted game back from its last history event, under
  its old id and number, re-scored with the tournament's rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from django.db import transaction

from scoring import rules
from scoring.errors import ConflictError, UserError, _
from tournaments.access import user_or_none
from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Game, Match, Tournament
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


def _own_entry_check(game: Game, user: ActingUser) -> None:
    u = user_or_none(user)
    if u is not None and game.recorded_by_id == u.pk:
        raise ConflictError(
            _(
                "You entered game %(number)s yourself; another organiser or the table's own "
                "entry has to confirm it."
            ),
            number=game.number,
        )


def game_enter(
    *,
    match: Match,
    ending: str,
    racks: Sequence[rules.RackIn],
    number: int | None = None,
    user: ActingUser = None,
    ahead: GameAhead | None = None,
    savepoint: bool = True,
) -> GameEntered:
    """An entry of a game: records it, or under double entry confirms or
    disputes the game already recorded with that number (``ahead``: the game
    as ``game_score_ahead`` scored it before the transaction).

    ``savepoint=False``: the caller's transaction, if any, is rolled back
    whole after any refusal (a keyed API write's is), so the entry takes no
    savepoint of its own within it."""
    with transaction.atomic(savepoint=savepoint):
        opened = match_open(match=match, ending=ending, racks=racks, ahead=ahead)
        if number is None or number not in opened.taken:
            return GameEntered(
                game_store(opened=opened, ending=ending, user=user, number=number), "recorded"
            )
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
        _own_entry_check(game, user)
        result = opened.result
        old = game_snapshot(game)
        if _same_racks(game, ending, result):
            game.state = Game.State.CONFIRMED
            game.confirmed_by = user_or_none(user)
            game.save(update_fields=["state", "confirmed_by", "updated"])
            game_audit(game=game, action=AuditEvent.Action.GAME_CONFIRMED, user=user, old=old)
            return GameEntered(game, "confirmed")
        game.state = Game.State.DISPUTED
        game.second_entry = {"ending": ending, "racks": [rules.rack_as_json(r) for r in racks]}
        game.save(update_fields=["state", "second_entry", "updated"])
        game_audit(
            game=game,
            action=AuditEvent.Action.GAME_DISPUTED,
            user=user,
            old=old,
            new={**game_snapshot(game), "second_entry": game.second_entry},
        )
        return GameEntered(game, "disputed")


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
        Game.objects.select_for_update().select_related("match__round__tournament").get(pk=game.pk)
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
    match = Match.objects.select_for_update().select_related("round__tournament").get(pk=match.pk)
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
    game_racks_store(game=game, result=result, seats=match_seats(match))
    game_audit(game=game, action=AuditEvent.Action.GAME_RESTORED, user=user)
    return game
