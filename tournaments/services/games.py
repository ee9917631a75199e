"""Game services: record, correct and delete a match's games.

Each service takes keyword arguments, validates through the rules engine
(``scoring.rules``) and the tournament's state, writes inside one
transaction, and raises ``scoring.errors.UserError`` (nothing stored) when the
input or the state forbids the write.

Vocabulary: a *rack entry* (``scoring.rules.RackIn``, player = the player id)
is what a scorer types for one player (tiles, or points + jokers);
``racks_entered.game_racks_entered`` gives a stored game's racks back in that form;
``game_record`` turns a match's rack entries into a stored
game with computed scores and table points; ``game_correct`` replaces them
and ``game_delete`` removes them. Each leaves an audit event holding the
game's *snapshot* (ending, racks as entered and scored, state): the game's
history, from which a deleted game is restored (``results.game_restore``).

A game's *state* starts as the tournament's ``confirmation`` setting says
(``game_state_new``); confirming, second entries and disputes are in
``results``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from django.db import IntegrityError, connection, transaction

from scoring import rules
from scoring.errors import (
    ConflictError,
    PreconditionFailedError,
    UserError,
    _,
    ngettext_lazy,
)
from tournaments.access import tournament_organiser, user_or_none
from tournaments.actors import ActingUser
from tournaments.game_numbers import game_number_next
from tournaments.models import AuditEvent, Game, Match, Rack, Round, Seat, Tournament
from tournaments.racks_entered import game_racks_entered
from tournaments.selectors.statement_rows import (
    PartColumns,
    part_instance,
    part_reader,
    part_select,
)
from tournaments.services.audit import audit_add
from tournaments.services.game_scoring import (
    GameAhead,
    game_scored,
    game_scored_now,
    match_seats,
    tournament_rules,
)
from tournaments.services.plans import final_decided_check
from tournaments.services.ratings import (
    rating_game_changed,
    rating_place,
    ratings_replay_after_deletion,
)
from tournaments.services.statement_inserts import instance_insert, instances_insert
from tournaments.services.tournament_open import tournament_open_check


def game_compute(*, match: Match, ending: str, racks: Sequence[rules.RackIn]) -> rules.GameOut:
    """Validate a match's game without storing it; the scores it would get."""
    return game_scored(match=match, ending=ending, racks=racks, seats=match_seats(match))


def _tournament_open(match: Match) -> Tournament:
    """The match's tournament read again, refusing a finished one.

    On PostgreSQL its row is held in share mode: games of one tournament are
    recorded side by side, while finishing or seating it (which lock the row
    for update) waits for them, and they for it.
    """
    tournament = match.round.tournament
    if tournament.status == Tournament.Status.PLANNED:
        # Its first game: the row lock now, before the share lock, which could
        # not be raised to it without waiting on the others holding theirs.
        Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.PLANNED).update(
            status=Tournament.Status.RUNNING
        )
    fresh = _tournament_now(tournament.pk)
    if fresh is None or fresh.status == Tournament.Status.FINISHED:
        raise ConflictError(_("The tournament is finished: reopen it to change it."))
    return fresh


_TOURNAMENT_WHOLE = PartColumns(Tournament, "t")


def _tournament_now(tournament_id: int) -> Tournament | None:
    # Django's select_for_update has no share mode: the statement is written
    # out, and SQLite (whose IMMEDIATE transaction holds the write lock) reads
    # it without the lock.
    table = connection.ops.quote_name(Tournament._meta.db_table)
    lock = " FOR SHARE" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {part_select(_TOURNAMENT_WHOLE)} FROM {table} t WHERE t.id = %s{lock}",
            [tournament_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return cast(Tournament, part_instance(part_reader(_TOURNAMENT_WHOLE), row, 0))


def _match_now(match_id: int) -> tuple[set[tuple[int, int]], set[int]]:
    """(player id, seat) of each seat of a match, and the numbers of its
    recorded games: one statement (a compound of two plain reads, written out:
    cheaper than the two querysets Django would build for it)."""
    quote = connection.ops.quote_name
    statement = (
        f"SELECT {quote('player_id')}, {quote('position')} FROM {quote(Seat._meta.db_table)} "
        f"WHERE {quote('match_id')} = %s UNION ALL "
        f"SELECT NULL, {quote('number')} FROM {quote(Game._meta.db_table)} "
        f"WHERE {quote('match_id')} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(statement, [match_id, match_id])
        rows = cursor.fetchall()
    return (
        {(int(p), int(n)) for p, n in rows if p is not None},
        {int(n) for p, n in rows if p is None},
    )


# The attribute a game's racks are kept under by the service that stored them
# (a list in seat order, as ``Prefetch("racks", to_attr=RACKS_KEPT)`` keeps one).
RACKS_KEPT = "racks_kept"


def game_racks(game: Game) -> list[Rack]:
    """The game's racks in seat order: those kept on it when its service just
    stored them (nothing read), else ``game.racks.all()`` (prefetched or read)."""
    kept = getattr(game, RACKS_KEPT, None)
    return sorted(kept if kept is not None else game.racks.all(), key=lambda r: r.position)


def _as_stored(value: Decimal) -> Decimal:
    # What the two-place column gives back, so a game answered from memory
    # reads exactly as one read again from the database.
    return Decimal(value).quantize(Decimal("0.01"))


def game_racks_store(*, game: Game, result: rules.GameOut, seats: dict[int, Seat]) -> list[Rack]:
    """Store the scored racks (one insert) and keep them on ``game`` as its
    racks in seat order (``game_racks``), so that neither its snapshot nor its
    answer reads them again."""
    # Rules.table_points holds a vector for every table size the engine accepts.
    vector = tournament_rules(game.match.round.tournament).table_points[len(result.racks)]
    table_points = rules.table_points_for(scores=[r.score for r in result.racks], vector=vector)
    racks = list(
        instances_insert(
            [
                Rack(
                    game=game,
                    player_id=cast(int, r.player),
                    position=seats[cast(int, r.player)].position,
                    tiles=rules.tiles_format(r.tiles) if r.tiles is not None else "",
                    entered_as_tiles=r.tiles is not None,
                    points=r.points,
                    jokers=r.jokers,
                    rack_value=r.rack_value,
                    score=_as_stored(r.score),
                    bonus=_as_stored(r.bonus),
                    winner=r.winner,
                    table_points=_as_stored(tp),
                )
                for r, tp in zip(result.racks, table_points, strict=True)
            ]
        )
    )
    racks.sort(key=lambda r: r.position)
    setattr(game, RACKS_KEPT, racks)
    return racks


def game_snapshot(game: Game) -> dict[str, Any]:
    """The game as its history keeps it."""
    # Racks kept by game_racks_store or prefetched are not read again.
    stored = game_racks(game)
    # The history shows what was entered next to what the rack came to, so
    # points and jokers are the stored ones even for a tile list.
    return {
        "ending": game.ending,
        "state": game.state,
        "racks": [
            {
                "player": entered.player,
                "tiles": entered.tiles,
                "points": r.points,
                "jokers": r.jokers,
                "rack_value": r.rack_value,
                "score": str(r.score),
                # Only where the event pays one, so histories without bonuses read as before.
                **({"bonus": str(r.bonus)} if r.bonus else {}),
                "winner": r.winner,
            }
            for r, entered in zip(stored, game_racks_entered(racks=stored), strict=True)
        ],
    }


def game_audit(
    *, game: Game, action: str, user: ActingUser, old: Any = None, new: Any = None
) -> AuditEvent:
    """One event in the game's history; ``new`` defaults to the game as it is now."""
    deleted = action == AuditEvent.Action.GAME_DELETED
    return audit_add(
        tournament=game.match.round.tournament,
        action=action,
        user=user,
        match=game.match,
        object_id=game.pk,
        game_number=game.number,
        version=game.version,
        old=old,
        new=None if deleted else (new if new is not None else game_snapshot(game)),
    )


def game_state_new(*, tournament: Tournament, user: ActingUser) -> str:
    """The state a newly recorded game starts in."""
    mode = tournament.confirmation
    if mode == Tournament.Confirmation.NONE:
        return Game.State.CONFIRMED
    if mode == Tournament.Confirmation.ORGANISER and (
        user is None or tournament_organiser(user=user, tournament=tournament)
    ):
        # An organiser's own entry (or a command's) needs no second look.
        return Game.State.CONFIRMED
    return Game.State.ENTERED


class GameTakenError(ConflictError):
    """The game number a client named is already recorded; carries that game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        super().__init__(
            _("Game %(number)s was already entered by this table: here it is."),
            field="number",
            code="game_taken",
            number=game.number,
        )


def _match_lock(match: Match, tournament: Tournament) -> Match:
    # On PostgreSQL this serialises concurrent entries for one match (its row
    # alone: never its round's, which every table of the round shares); SQLite
    # runs IMMEDIATE transactions, which already hold the write lock. The
    # round's game count is read again under the lock.
    if connection.features.has_select_for_update:
        quote = connection.ops.quote_name
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT r.{quote('games_per_match')} FROM {quote(Match._meta.db_table)} m "
                f"INNER JOIN {quote(Round._meta.db_table)} r "
                f"ON r.{quote('id')} = m.{quote('round_id')} "
                f"WHERE m.{quote('id')} = %s FOR UPDATE OF m",
                [match.pk],
            )
            row = cursor.fetchone()
        if row is None:
            raise Match.DoesNotExist("the match was deleted")
        match.round.games_per_match = int(row[0])
    match.round.tournament = tournament
    return match


@dataclass(frozen=True)
class MatchOpen:
    """A match as a game is recorded into it, inside the recording's
    transaction: locked (PostgreSQL) with its tournament read again and open,
    the game scored against its seats as they are now, and the numbers of its
    games already recorded (``taken``)."""

    match: Match
    seats: dict[int, Seat]
    result: rules.GameOut
    taken: set[int]


def match_open(
    *,
    match: Match,
    ending: str,
    racks: Sequence[rules.RackIn],
    ahead: GameAhead | None = None,
) -> MatchOpen:
    """Lock and read the match a game is recorded into and score the game
    (``ahead``: as ``game_score_ahead`` scored it, kept while its seats and
    rules still hold); refuses a finished tournament and a game its seats
    refuse. Runs inside the recording service's transaction."""
    if not connection.in_atomic_block:
        raise RuntimeError("match_open needs the recording service's transaction")
    # The tournament's lock before the match's, in the order the seating services take them.
    match = _match_lock(match, _tournament_open(match))
    seat_pairs, taken = _match_now(match.pk)
    seats, result = game_scored_now(
        match=match, ending=ending, racks=racks, ahead=ahead, seat_pairs=seat_pairs
    )
    return MatchOpen(match, seats, result, taken)


def game_store(
    *,
    opened: MatchOpen,
    ending: str,
    user: ActingUser = None,
    number: int | None = None,
    entry_sources: list[dict[str, Any]] | None = None,
) -> Game:
    """Store a game scored by ``match_open`` as game ``number`` (or the lowest
    free one) of its match, with its racks and its audit event; refuses a
    number outside the round's games, a match whose games are all recorded and
    a decided final. A number already recorded is the caller's to handle
    before (``game_record`` refuses it). Runs inside the recording service's
    transaction, as ``match_open`` does."""
    match = opened.match
    planned = match.round.games_per_match
    if number is not None and not 1 <= number <= planned:
        raise UserError(
            _(
                "Table %(table)s plays games 1 to %(planned)s in this round; there is no game "
                "%(number)s."
            ),
            field="number",
            table=match.table,
            planned=planned,
            number=number,
        )
    free = number if number is not None else game_number_next(taken=opened.taken, planned=planned)
    if free is None:
        one, many = ngettext_lazy(
            "Table %(table)s plays %(planned)s game in this round and it is recorded.",
            "Table %(table)s plays %(planned)s games in this round and all are recorded.",
        )
        raise ConflictError(
            one, plural=many, plural_of="planned", table=match.table, planned=planned
        )
    final_decided_check(match)
    # No savepoint of its own: the caller's transaction is rolled back after a
    # lost race, which the locks above leave to a bug.
    try:
        game = instance_insert(
            Game(
                match=match,
                number=free,
                ending=ending,
                recorded_by=user_or_none(user),
                state=game_state_new(tournament=match.round.tournament, user=user),
                entry_sources=entry_sources or [],
            )
        )
    except IntegrityError as exc:  # pragma: no cover - only under a lost race
        raise ConflictError(
            _("Another result for this table was saved at the same moment; reload and try again.")
        ) from exc
    racks = game_racks_store(game=game, result=opened.result, seats=opened.seats)
    game_audit(game=game, action=AuditEvent.Action.GAME_RECORDED, user=user)
    rating_game_changed(game=game, racks=racks)
    return game


@transaction.atomic
def game_record(
    *,
    match: Match,
    ending: str,
    racks: Sequence[rules.RackIn],
    user: ActingUser = None,
    number: int | None = None,
    ahead: GameAhead | None = None,
) -> Game:
    """Record a game of a match (``number``, or the lowest free one); scores are
    computed, never entered (``ahead``: as ``game_score_ahead`` scored them). A
    number already recorded is refused with that game."""
    opened = match_open(match=match, ending=ending, racks=racks, ahead=ahead)
    if number is not None and number in opened.taken:
        raise GameTakenError(opened.match.games.get(number=number))
    return game_store(opened=opened, ending=ending, user=user, number=number)


def _version_check(game: Game, version: int | None) -> None:
    if version is not None and version != game.version:
        raise PreconditionFailedError(
            _(
                "Game %(number)s was changed by someone else (now version %(current)s, you sent "
                "%(sent)s); reload it and try again."
            ),
            number=game.number,
            current=game.version,
            sent=version,
        )


@transaction.atomic
def game_correct(
    *,
    game: Game,
    ending: str,
    racks: Sequence[rules.RackIn],
    version: int | None = None,
    user: ActingUser = None,
) -> Game:
    """Replace a game's racks and recompute its scores; the old state stays in
    history. Corrections are an organiser's word, so the game is confirmed,
    except a game waiting for another's look (``entered``) corrected by the
    one who entered it: it still waits, as their confirmation would be refused."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("match__round__tournament")
        .get(pk=game.pk)
    )
    tournament_open_check(game.match.round.tournament)
    _version_check(game, version)
    seats = match_seats(game.match)
    result = game_scored(match=game.match, ending=ending, racks=racks, seats=seats)
    old = game_snapshot(game)
    game.racks.all().delete()
    game.ending = ending
    game.version += 1
    corrector = user_or_none(user)
    own_waiting = (
        game.state == Game.State.ENTERED
        and corrector is not None
        and game.recorded_by_id == corrector.pk
    )
    game.state = Game.State.ENTERED if own_waiting else Game.State.CONFIRMED
    game.second_entry = None
    game.confirmed_by = None if own_waiting else corrector
    game.save(
        update_fields=["ending", "version", "state", "second_entry", "confirmed_by", "updated"]
    )
    stored = game_racks_store(game=game, result=result, seats=seats)
    game_audit(game=game, action=AuditEvent.Action.GAME_CORRECTED, user=user, old=old)
    rating_game_changed(game=game, racks=stored)
    return game


@transaction.atomic
def game_delete(*, game: Game, version: int | None = None, user: ActingUser = None) -> None:
    """Delete a game. Later games keep their numbers; history keeps the racks."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("match__round__tournament")
        .get(pk=game.pk)
    )
    tournament_open_check(game.match.round.tournament)
    _version_check(game, version)
    game_audit(game=game, action=AuditEvent.Action.GAME_DELETED, user=user, old=game_snapshot(game))
    place = rating_place(game)
    game.delete()
    ratings_replay_after_deletion(place=place)
