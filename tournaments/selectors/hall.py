"""What the hall reads: the current round, its clock, and who sits where.

Vocabulary: the *current round* is the tournament's last (highest number);
its *clock* is described in ``round_clock``. *Find my table* lists every
*active* entered player A to Z with the table and seat (1 = first in turn
order) the current round gave them, or their bye, or nothing when the round
left them out (they arrived after it was seated). A *search* keeps the
players whose name holds each word of the text, in any case and whatever the
accents (``search_names``: "Bjorn" finds "Bjørn"). These are selectors: reads
in a fixed number of queries, whatever the size of the event.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models.functions import Lower
from django.utils import timezone

from tournaments.models import Adjustment, Entry, Round, Seat, Tournament
from tournaments.round_clock import ClockState, clock_state
from tournaments.search_names import name_matches


def round_current(*, tournament: Tournament) -> Round | None:
    """The tournament's last round (None before any); one query."""
    return tournament.round_set.order_by("-number").first()


def round_clock_of(
    *, tournament: Tournament, round_: Round | None, now: dt.datetime | None = None
) -> ClockState | None:
    """The clock of that round as it stands now (None without a round)."""
    if round_ is None:
        return None
    return clock_state(
        minutes=tournament.round_minutes,
        elapsed=round_.clock_elapsed,
        started=round_.clock_started,
        now=now or timezone.now(),
    )


@dataclass(frozen=True)
class PlayerPlace:
    """One line of find my table."""

    player_id: int
    name: str
    club: str
    table: int | None
    seat: int | None
    bye: bool


def player_places(*, tournament: Tournament, round_: Round | None) -> list[PlayerPlace]:
    """Every active player A to Z with their place in ``round_``; three queries."""
    seats: dict[int, tuple[int, int]] = {}
    byes: set[int] = set()
    if round_ is not None:
        seats = {
            player: (table, position)
            for player, table, position in Seat.objects.filter(round=round_).values_list(
                "player_id", "match__table", "position"
            )
        }
        byes = set(
            Adjustment.objects.filter(round=round_, kind=Adjustment.Kind.BYE).values_list(
                "player_id", flat=True
            )
        )
    entries = (
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .select_related("player__club")
        .order_by(Lower("player__name"), "player_id")
    )
    return [
        PlayerPlace(
            player_id=e.player_id,
            name=e.player.name,
            club=e.player.club.name if e.player.club else "",
            table=seats[e.player_id][0] if e.player_id in seats else None,
            seat=seats[e.player_id][1] if e.player_id in seats else None,
            bye=e.player_id in byes,
        )
        for e in entries
    ]


def places_found(places: list[PlayerPlace], *, search: str) -> list[PlayerPlace]:
    """The players whose name ``search`` matches (``search_names.name_matches``:
    any case, any accents; all of them when empty)."""
    if not search.strip():
        return places
    return [p for p in places if name_matches(search, p.name)]
