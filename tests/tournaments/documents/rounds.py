"""A seated round to print: a table per size, players with letters from every rulebook
language; and a tournament played to scores with cents."""

from __future__ import annotations

from decimal import Decimal

from scoring.rules import RackIn
from tests.factories import (
    AdjustmentFactory,
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
)
from tournaments.models import Round, Seat, Tournament
from tournaments.services.games import game_record


def round_with_tables(
    tournament: Tournament, *, sizes: tuple[int, ...], games: int, number: int = 1
) -> Round:
    """A round with a table per size, players seated in order, names with letters
    from every rulebook language."""
    round_ = RoundFactory(tournament=tournament, number=number, games_per_match=games)
    for table, size in enumerate(sizes, start=1):
        match = MatchFactory(round=round_, table=table)
        for seat in range(1, size + 1):
            player = PlayerFactory(name=f"Åse Ørsted-Müller {table}.{seat}")
            EntryFactory(tournament=tournament, player=player)
            Seat.objects.create(match=match, round=round_, player=player, position=seat)
    return round_


def played_with_cents(**fields: object) -> Tournament:
    """Two games at a table of three: a shared lowest rack (7.50 each), then a
    Rummikub; a penalty of 2.50. Totals 22.50, -2 (0.50 and -2.50), -23."""
    tournament: Tournament = TournamentFactory(**fields)
    match = round_with_tables(tournament, sizes=(3,), games=2).matches.get()
    ids = list(match.seats.order_by("position").values_list("player_id", flat=True))
    for ending, points in (("pool_exhausted", (5, 5, 20)), ("rummikub", (0, 7, 8))):
        racks = [RackIn(player=p, points=v) for p, v in zip(ids, points, strict=True)]
        game_record(match=match, ending=ending, racks=racks)
    late = Decimal("-2.5")
    AdjustmentFactory(tournament=tournament, player_id=ids[1], points=late, reason="Late")
    return tournament
