"""Storing a seating plan as a round: what seating a qualifying round and seating
a stage (semi-finals, final) share.

Vocabulary: a *plan* is tables of player ids in seat order plus byes (the
seating engine's ``RoundPlan``); *filling* a round gives it a plan's tables,
keeping its matches (and their private tokens) table by table. The *last*
round is the one with the highest number; it is *complete* when every match
has all its games.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date as Date

from django.db.models import Count

from scoring.errors import ConflictError, _

from .. import seating
from ..models import Adjustment, Match, Round, Seat, Tournament


def tournament_locked(tournament: Tournament) -> Tournament:
    # Serialises seating on PostgreSQL; SQLite's IMMEDIATE transactions already do.
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def last_round_complete_check(last: Round | None) -> None:
    """Refuse to seat another round while the last one misses results."""
    if last is None:
        return
    short = list(
        Match.objects.filter(round=last)
        .annotate(played=Count("games"))
        .filter(played__lt=last.games_per_match)
        .order_by("table")
        .values_list("table", flat=True)
    )
    if short:
        raise ConflictError(
            _(
                "Round %(round)s is not finished: results are missing at table %(tables)s. "
                "Seat the next round when every result is in."
            ),
            round=last.number,
            tables=", ".join(map(str, short[:10])) + (" …" if len(short) > 10 else ""),
        )


def round_store(
    *,
    tournament: Tournament,
    number: int,
    plan: seating.RoundPlan,
    stage: str,
    date: Date | None = None,
) -> Round:
    """Store a plan as a new round (called inside a seating service's transaction)."""
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        stage=stage,
        games_per_match=tournament.games_per_round,
        date=date,
    )
    round_fill(round_=round_, tournament=tournament, tables=plan.tables, byes=plan.byes)
    if tournament.status == Tournament.Status.PLANNED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


def round_fill(
    *,
    round_: Round,
    tournament: Tournament,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
) -> None:
    """Give an untouched round these tables and byes.

    Matches are kept by table number, so their ids and private tokens stay
    valid; seats and byes are replaced.
    """
    Seat.objects.filter(round=round_).delete()
    Adjustment.objects.filter(round=round_, kind=Adjustment.Kind.BYE).delete()
    matches = {m.table: m for m in Match.objects.filter(round=round_)}
    Match.objects.filter(round=round_, table__gt=len(tables)).delete()
    missing = [Match(round=round_, table=t) for t in range(1, len(tables) + 1) if t not in matches]
    for match in Match.objects.bulk_create(missing):
        matches[match.table] = match
    Seat.objects.bulk_create(
        Seat(match=matches[number], round=round_, player_id=pid, position=pos)
        for number, table in enumerate(tables, start=1)
        for pos, pid in enumerate(table, start=1)
    )
    Adjustment.objects.bulk_create(
        Adjustment(
            tournament=tournament,
            player_id=pid,
            round=round_,
            kind=Adjustment.Kind.BYE,
            points=tournament.bye_score,
            reason=f"Bye in round {round_.number}",
        )
        for pid in byes
    )
