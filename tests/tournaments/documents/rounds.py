"""A seated round to print: a table per size, players with letters from every rulebook language."""

from __future__ import annotations

from tests.factories import EntryFactory, MatchFactory, PlayerFactory, RoundFactory
from tournaments.models import Round, Seat, Tournament


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
