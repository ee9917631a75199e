"""Round services: entries, seating the next round, re-seating.

Vocabulary: an *active* player is one whose entry is not withdrawn; the
*history* of a tournament is its earlier rounds as tables of player ids in
seat order; a *plan* (``seating.RoundPlan``) is the seating engine's answer,
turned here into a Round with its Matches and Seats.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from scoring.errors import ConflictError, UserError, _

from . import seating
from .models import Adjustment, Entry, Match, Player, Round, Seat, Tournament
from .selectors import standings_for


@transaction.atomic
def entries_add(*, tournament: Tournament, player_ids: Iterable[int]) -> list[Entry]:
    """Register players (idempotent: a withdrawn player is made active again)."""
    ids = list(dict.fromkeys(player_ids))
    found = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True))
    missing = [i for i in ids if i not in found]
    if missing:
        raise UserError(
            _("No player with id %(ids)s."), field="players", ids=", ".join(map(str, missing))
        )
    existing = {
        e.player_id: e for e in Entry.objects.filter(tournament=tournament, player_id__in=ids)
    }
    Entry.objects.filter(pk__in=[e.pk for e in existing.values()]).update(
        status=Entry.Status.ACTIVE
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player_id=i) for i in ids if i not in existing
    )
    return list(
        Entry.objects.filter(tournament=tournament, player_id__in=ids).select_related("player")
    )


def _history(tournament: Tournament) -> list[list[list[int]]]:
    rounds: dict[int, dict[int, list[int]]] = {}
    for round_number, table, player_id in (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("round__number", "match__table", "position")
        .values_list("round__number", "match__table", "player_id")
    ):
        rounds.setdefault(round_number, {}).setdefault(table, []).append(player_id)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


@transaction.atomic
def round_seat_next(*, tournament: Tournament, stage: str = Round.Stage.QUALIFYING) -> Round:
    """Seat the next round of a tournament with its seating method."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    active = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )
    if len(active) < 2:
        raise ConflictError(
            _("A round needs at least 2 active players; this tournament has %(count)s."),
            count=len(active),
        )
    last = tournament.round_set.order_by("-number").first()
    number = last.number + 1 if last else 1
    standings = {row.player_id: float(row.score) for row in standings_for(tournament=tournament)}
    byes = list(
        Adjustment.objects.filter(tournament=tournament, kind=Adjustment.Kind.BYE).values_list(
            "player_id", flat=True
        )
    )
    plan = seating.round_seat(
        players=active,
        method=tournament.seating,
        history=_history(tournament),
        standings=standings,
        max_size=tournament.max_table_size,
        seed=tournament.seed * 1000 + number,
        rounds_total=max(tournament.rounds, number),
        bye_history=byes,
    )
    return round_store(tournament=tournament, number=number, plan=plan, stage=stage)


def round_store(
    *, tournament: Tournament, number: int, plan: seating.RoundPlan, stage: str
) -> Round:
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        stage=stage,
        games_per_match=tournament.games_per_round,
    )
    matches = Match.objects.bulk_create(
        Match(round=round_, table=i) for i, _t in enumerate(plan.tables, start=1)
    )
    Seat.objects.bulk_create(
        Seat(match=m, round=round_, player_id=pid, position=pos)
        for m, table in zip(matches, plan.tables, strict=True)
        for pos, pid in enumerate(table, start=1)
    )
    Adjustment.objects.bulk_create(
        Adjustment(
            tournament=tournament,
            player_id=pid,
            round=round_,
            kind=Adjustment.Kind.BYE,
            points=tournament.bye_score,
            reason=f"Bye in round {number}",
        )
        for pid in plan.byes
    )
    if tournament.status == Tournament.Status.PLANNED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_
