"""Storing a seating plan as a round: what seating a qualifying round and seating
a stage (semi-finals, final) share.

Vocabulary: a *plan* is tables of player ids in seat order plus byes (the
seating engine's ``RoundPlan``); *filling* a round gives it a plan's tables,
keeping its matches (and their private tokens) table by table. The *last*
round is the one with the highest number; it is *complete* when every match
has all its games; its *unfinished tables* are those of its matches that are not.

A round's *seating* as the audit trail keeps it is its tables (each a list of
``{"player": id, "name": name}`` in seat order) and its byes, the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date as Date
from typing import Any

from django.db.models import Count, F

from scoring import rules
from scoring.errors import ConflictError, _, ngettext_lazy
from tournaments import seating
from tournaments.actors import ActingUser
from tournaments.models import Adjustment, AuditEvent, Match, Round, Seat, Tournament
from tournaments.selectors.standings import finals_decided
from tournaments.services.audit import audit_add


def tournament_locked(tournament: Tournament) -> Tournament:
    # Serialises seating on PostgreSQL; SQLite's IMMEDIATE transactions already do.
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def stage_games(tournament: Tournament, stage: str) -> int:
    """How many games a match of a stage's round plays: the stage's own count
    (empty: ``games_per_round``); a final played to N wins allows up to the
    most a match has, and ends when decided (``selectors.standings.finals_decided``)."""
    if stage == Round.Stage.SEMIFINAL:
        return tournament.semifinal_games or tournament.games_per_round
    if stage == Round.Stage.FINAL:
        if tournament.final_first_to:
            return rules.GAME_NUMBER_MAX
        return tournament.final_games or tournament.games_per_round
    return tournament.games_per_round


def final_decided_check(match: Match) -> None:
    """Refuse a further game of a final played to N wins once a player has them."""
    decided = finals_decided(rounds=[match.round]).get(match.pk)
    if decided is None:
        return
    player_id, wins = decided
    one, many = ngettext_lazy(
        "The final is decided: %(name)s has won %(wins)s game, as many as it is played to. "
        "No further game is played.",
        "The final is decided: %(name)s has won %(wins)s games, as many as it is played to. "
        "No further game is played.",
    )
    raise ConflictError(
        one,
        plural=many,
        plural_of="wins",
        name=Seat.objects.filter(match=match, player_id=player_id)
        .values_list("player__name", flat=True)
        .first(),
        wins=wins,
    )


def unfinished_tables(rounds: Sequence[Round]) -> dict[int, list[int]]:
    """The tables still missing games, by round number (rounds all complete: empty).
    A final played to N wins is complete once decided."""
    short: dict[int, list[int]] = {}
    decided = finals_decided(rounds=rounds)
    for number, table in (
        Match.objects.filter(round__in=rounds)
        .exclude(pk__in=list(decided))
        .annotate(played=Count("games"))
        .filter(played__lt=F("round__games_per_match"))
        .order_by("round__number", "table")
        .values_list("round__number", "table")
    ):
        short.setdefault(number, []).append(table)
    return short


def tables_said(tables: Sequence[int], *, one: str, several: str) -> tuple[str, str]:
    """The message for one table or for several (``one``/``several``, both with
    ``%(tables)s``) and the tables as text: languages inflect more than the noun."""
    text = ", ".join(map(str, tables[:10])) + (" …" if len(tables) > 10 else "")
    return (one if len(tables) == 1 else several), text


def last_round_complete_check(last: Round | None) -> None:
    """Refuse to seat another round while the last one misses results."""
    if last is None:
        return
    short = unfinished_tables([last]).get(last.number, [])
    if short:
        template, tables = tables_said(
            short,
            one=_(
                "Round %(round)s is not finished: results are missing at table %(tables)s. "
                "Seat the next round when every result is in."
            ),
            several=_(
                "Round %(round)s is not finished: results are missing at tables %(tables)s. "
                "Seat the next round when every result is in."
            ),
        )
        raise ConflictError(template, round=last.number, tables=tables)


def round_seating(round_: Round) -> dict[str, Any]:
    """The round's tables and byes, with the players' names, for the audit trail."""
    tables: dict[int, list[dict[str, Any]]] = {}
    for table, pid, name in (
        Seat.objects.filter(round=round_)
        .order_by("match__table", "position")
        .values_list("match__table", "player_id", "player__name")
    ):
        tables.setdefault(table, []).append({"player": pid, "name": name})
    byes = (
        Adjustment.objects.filter(round=round_, kind=Adjustment.Kind.BYE)
        .order_by("player_id")
        .values_list("player_id", "player__name")
    )
    return {
        "tables": [tables[t] for t in sorted(tables)],
        "byes": [{"player": pid, "name": name} for pid, name in byes],
    }


def round_store(
    *,
    tournament: Tournament,
    number: int,
    plan: seating.RoundPlan,
    stage: str,
    date: Date | None = None,
    user: ActingUser = None,
) -> Round:
    """Store a plan as a new round and record its seating (called inside a
    seating service's transaction)."""
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        stage=stage,
        games_per_match=stage_games(tournament, stage),
        date=date,
    )
    round_fill(round_=round_, tournament=tournament, tables=plan.tables, byes=plan.byes)
    if tournament.status == Tournament.Status.PLANNED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.ROUND_SEATED,
        user=user,
        object_id=round_.pk,
        round_number=number,
        new={"round": number, "stage": stage, **round_seating(round_)},
    )
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
