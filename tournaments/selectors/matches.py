"""One match (a table of a round) as its pages read it.

Vocabulary: a match's *detail* is the match with its round, tournament, seats
(players in seat order) and games (racks by seat); a *replaced* link is a
match token an organiser swapped for a new one, which the trail remembers by
its digest only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from django.db import connection
from django.db.models import Model, Prefetch

from tournaments.models import (
    AuditEvent,
    Game,
    Match,
    Player,
    Rack,
    Round,
    Seat,
    Tournament,
    match_token_digest,
    match_token_plausible,
)
from tournaments.selectors.statement_rows import (
    PartColumns,
    PartReader,
    part_instance,
    part_reader,
    part_select,
)

# The attribute the seats read with a match are kept under, in seat order (a list).
SEATS_KEPT = "seats_in_order"


def match_detail(*, match_id: int | None = None, token: str | None = None) -> Match:
    """One match with its round, tournament, seats and games (raises DoesNotExist)."""
    qs = Match.objects.select_related("round__tournament").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch(
            "games",
            queryset=Game.objects.order_by("number").prefetch_related(
                Prefetch(
                    "racks", queryset=Rack.objects.select_related("player").order_by("position")
                )
            ),
        ),
    )
    if token is not None:
        if not match_token_plausible(token):
            raise Match.DoesNotExist("not a match token")
        return qs.get(token=token)
    if match_id is None:
        raise Match.DoesNotExist("a match id or token is needed")
    return qs.get(pk=match_id)


def match_in(*, tournament: Tournament, match_id: int) -> Match | None:
    """The tournament's match with this id, with its round (None: not one of its
    matches); one query."""
    return (
        Match.objects.select_related("round")
        .filter(pk=match_id, round__tournament=tournament)
        .first()
    )


def match_replaced(*, token: str) -> Match | None:
    """The match whose link ``token`` was, before an organiser replaced it."""
    if not match_token_plausible(token):
        return None
    event = (
        AuditEvent.objects.filter(
            action=AuditEvent.Action.TOKEN_REGENERATED, old__digest=match_token_digest(token)
        )
        .select_related("match__round__tournament")
        .order_by("-at")
        .first()
    )
    return event.match if event is not None else None


# What recording a game reads with the token: the match, its round and
# tournament whole, its seats in seat order with their players' names; one
# statement, written out once per database (tournaments.selectors.statement_rows).
_TOKEN_PARTS = (
    PartColumns(Match, "m"),
    PartColumns(Round, "r"),
    PartColumns(Tournament, "t"),
    PartColumns(Seat, "s"),
    PartColumns(Player, "p", ("id", "name")),
)


@dataclass(frozen=True)
class _TokenRead:
    statement: str
    readers: tuple[PartReader, ...]


_token_reads: dict[tuple[str, str], _TokenRead] = {}


def _token_read(by: str) -> _TokenRead:
    key = (connection.vendor, by)
    found = _token_reads.get(key)
    if found is None:
        table = {
            name: connection.ops.quote_name(model._meta.db_table)
            for name, model in (
                ("m", Match),
                ("r", Round),
                ("t", Tournament),
                ("s", Seat),
                ("p", Player),
            )
        }
        column = connection.ops.quote_name
        statement = (
            f"SELECT {', '.join(part_select(part) for part in _TOKEN_PARTS)} "
            f"FROM {table['m']} m "
            f"INNER JOIN {table['r']} r ON r.{column('id')} = m.{column('round_id')} "
            f"INNER JOIN {table['t']} t ON t.{column('id')} = r.{column('tournament_id')} "
            f"LEFT OUTER JOIN {table['s']} s ON s.{column('match_id')} = m.{column('id')} "
            f"LEFT OUTER JOIN {table['p']} p ON p.{column('id')} = s.{column('player_id')} "
            f"WHERE m.{column(by)} = %s ORDER BY s.{column('position')}"
        )
        found = _token_reads[key] = _TokenRead(
            statement, tuple(part_reader(part) for part in _TOKEN_PARTS)
        )
    return found


def _match_seated(*, token: str | None = None, match_id: int | None = None) -> Match | None:
    read = _token_read("token" if token is not None else "id")
    with connection.cursor() as cursor:
        cursor.execute(read.statement, [token if token is not None else match_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    match_reader, round_reader, tournament_reader, seat_reader, player_reader = read.readers
    at = 0
    built: list[Model | None] = []
    for reader in (match_reader, round_reader, tournament_reader):
        built.append(part_instance(reader, rows[0], at))
        at += reader.width
    match, round_, tournament = (
        cast(Match, built[0]),
        cast(Round, built[1]),
        cast(Tournament, built[2]),
    )
    round_.tournament = tournament
    match.round = round_
    seats: list[Seat] = []
    for row in rows:
        seat = cast(Seat | None, part_instance(seat_reader, row, at))
        if seat is None:
            continue  # a match without seats: the outer join's one row
        seat.player = cast(Player, part_instance(player_reader, row, at + seat_reader.width))
        seat.match = match
        seat.round = round_
        seats.append(seat)
    setattr(match, SEATS_KEPT, seats)
    return match


def match_by_token(token: str) -> Match | None:
    """The match a token opens, with its round, its seats in seat order (each
    with its player's name) kept as ``SEATS_KEPT``, and its tournament's
    settings, all in one query.
    None: no match has it."""
    return _match_seated(token=token)


def match_seated(*, match_id: int) -> Match | None:
    """The match with this id, read as ``match_by_token`` reads it (for an
    organiser's game, whose permission is checked on it). None: no such match."""
    return _match_seated(match_id=match_id)
