"""Round services: entries, seating rounds and stages, re-seating, adjustments.

Vocabulary: an *active* player is one whose entry is neither absent (checked
out: a late arrival not here yet, a no-show, a league member skipping a club
night) nor withdrawn; only active players are seated. The *history* of a
tournament is its earlier rounds as tables of player ids in seat order; a
*plan* (``seating.RoundPlan``) is the seating engine's answer, turned here into
a Round with its Matches and Seats. A round is *complete* when every match has
all its games; it is *untouched* while none of its games is recorded.

The rules the services keep:

* A new round (qualifying, semi-final or final) is seated only when the last
  round is complete, whatever the seating method: swiss needs the results,
  and for every method it is the moment to check players in and out. Results
  can still be corrected afterwards.
* Only the last round can be re-seated or seated by hand, and only while it is
  untouched; its matches (and their private tokens) are kept table by table.
* Qualifying rounds stop at ``tournament.rounds`` and once a stage has begun.
* Semi-finals seat the top ``semifinal_players`` of the qualifying standings
  dealt round the tables: with 8 players, seeds 1/3/5/7 at table 1 and 2/4/6/8
  at table 2, in that seat order. The final seats the winner of each
  semi-final table and then the best of the rest (``selectors.stage_entrants``),
  at most 4.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Count

from scoring.errors import ConflictError, UserError, _

from .. import seating
from ..models import Adjustment, Club, Entry, Game, Match, Player, Round, Seat, Tournament
from ..selectors import (
    FINAL,
    QUALIFYING,
    SEMIFINAL,
    seating_history,
    stage_entrants,
    standings_for,
)

UserLike = AbstractBaseUser | AnonymousUser | None

FINAL_TABLE_SIZE = 4
NAME_MAX = Player._meta.get_field("name").max_length or 120
CLUB_MAX = Club._meta.get_field("name").max_length or 120


# --------------------------------------------------------------------------
# Entries
# --------------------------------------------------------------------------


@transaction.atomic
def entries_add(
    *, tournament: Tournament, player_ids: Iterable[int], status: str = Entry.Status.ACTIVE
) -> list[Entry]:
    """Register players (idempotent: an entered player gets ``status`` again).

    ``status="absent"`` registers late arrivals who are checked in later.
    """
    if status not in Entry.Status.values:
        raise UserError(_("Unknown entry status %(status)s."), field="status", status=status)
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
    Entry.objects.filter(pk__in=[e.pk for e in existing.values()]).update(status=status)
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player_id=i, status=status) for i in ids if i not in existing
    )
    return list(
        Entry.objects.filter(tournament=tournament, player_id__in=ids).select_related("player")
    )


def _entry_set(*, tournament: Tournament, player_id: int, status: str) -> Entry:
    entry = (
        Entry.objects.select_for_update()
        .select_related("player")
        .filter(tournament=tournament, player_id=player_id)
        .first()
    )
    if entry is None:
        raise UserError(
            _("Player %(player)s is not entered in %(tournament)s."),
            field="player",
            player=player_id,
            tournament=tournament.name,
        )
    if entry.status != status:
        entry.status = status
        entry.save(update_fields=["status"])
    return entry


@transaction.atomic
def entry_withdraw(*, tournament: Tournament, player_id: int) -> Entry:
    """Withdraw a player: not seated in later rounds; the results played are kept.

    A round already seated keeps its tables: re-seat it (``round_reseat``) if it
    has no results yet, or let the others play on without the player.
    """
    return _entry_set(tournament=tournament, player_id=player_id, status=Entry.Status.WITHDRAWN)


@transaction.atomic
def entry_activate(*, tournament: Tournament, player_id: int) -> Entry:
    """Check a player in: a late arrival, a returning absentee, or an undone withdrawal."""
    return _entry_set(tournament=tournament, player_id=player_id, status=Entry.Status.ACTIVE)


@transaction.atomic
def entry_check_out(*, tournament: Tournament, player_id: int) -> Entry:
    """Check a player out for the next round (a no-show, a break) without withdrawing them."""
    return _entry_set(tournament=tournament, player_id=player_id, status=Entry.Status.ABSENT)


@transaction.atomic
def attendance_set(*, tournament: Tournament, player_ids: Iterable[int]) -> list[Entry]:
    """A league's club night: exactly these players are active tonight.

    Players not yet entered are entered; every other entry that is not
    withdrawn is checked out until the next night. Returns the active entries.
    """
    ids = list(dict.fromkeys(player_ids))
    entries = entries_add(tournament=tournament, player_ids=ids)
    Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).exclude(
        player_id__in=ids
    ).update(status=Entry.Status.ABSENT)
    return entries


# --------------------------------------------------------------------------
# Seating rounds
# --------------------------------------------------------------------------


def _active_ids(tournament: Tournament) -> list[int]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


def _tournament_locked(tournament: Tournament) -> Tournament:
    # Serialises seating on PostgreSQL; SQLite's IMMEDIATE transactions already do.
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _last_round_complete_check(tournament: Tournament, last: Round | None) -> None:
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


def _untouched_check(round_: Round) -> None:
    played = Game.objects.filter(match__round=round_).count()
    if played:
        raise ConflictError(
            _(
                "Round %(round)s already has %(count)s recorded games; delete them before "
                "changing its tables."
            ),
            round=round_.number,
            count=played,
        )
    later = Round.objects.filter(tournament_id=round_.tournament_id, number__gt=round_.number)
    if later.exists():
        raise ConflictError(
            _(
                "Only the last round can be re-seated or changed; round %(round)s has rounds "
                "after it."
            ),
            round=round_.number,
        )


def _qualifying_plan(tournament: Tournament, number: int) -> seating.RoundPlan:
    active = _active_ids(tournament)
    if len(active) < 2:
        raise ConflictError(
            _("A round needs at least 2 active players; this tournament has %(count)s."),
            count=len(active),
        )
    standings: dict[int, float] = {}
    if tournament.seating == Tournament.Seating.SWISS:
        # Higher is better; the rank (not the raw score) so that the tie-breaks
        # count and fully tied players are drawn.
        standings = {
            row.player_id: float(-row.rank)
            for row in standings_for(tournament=tournament, stage=QUALIFYING)
        }
    byes = list(
        Adjustment.objects.filter(tournament=tournament, kind=Adjustment.Kind.BYE).values_list(
            "player_id", flat=True
        )
    )
    return seating.round_seat(
        players=active,
        method=tournament.seating,
        history=seating_history(tournament=tournament),
        standings=standings,
        max_size=tournament.max_table_size,
        # One seed for the whole event: the seating engine mixes in the round
        # number itself, and ``balanced`` plans the event from the seed alone.
        seed=tournament.seed,
        rounds_total=max(tournament.rounds, number),
        bye_history=byes,
    )


@transaction.atomic
def round_seat_next(
    *,
    tournament: Tournament,
    stage: str = Round.Stage.QUALIFYING,
    date: Date | None = None,
) -> Round:
    """Seat the next round: a qualifying round with the tournament's seating
    method, or (``stage``) the semi-finals or the final (see ``stage_seat``)."""
    if stage != QUALIFYING:
        return stage_seat(tournament=tournament, stage=stage, date=date)
    tournament = _tournament_locked(tournament)
    last = tournament.round_set.order_by("-number").first()
    if last is not None and last.stage != QUALIFYING:
        raise ConflictError(
            _("The %(stage)s has begun: no more qualifying rounds can be seated."),
            stage=last.get_stage_display(),
        )
    played = tournament.round_set.count()
    if played >= tournament.rounds:
        raise ConflictError(
            _(
                "All %(rounds)s planned rounds are seated; raise the number of rounds to "
                "seat another."
            ),
            rounds=tournament.rounds,
        )
    _last_round_complete_check(tournament, last)
    number = last.number + 1 if last else 1
    plan = _qualifying_plan(tournament, number)
    return round_store(tournament=tournament, number=number, plan=plan, stage=QUALIFYING, date=date)


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
    _round_fill(round_=round_, tournament=tournament, tables=plan.tables, byes=plan.byes)
    if tournament.status == Tournament.Status.PLANNED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


def _round_fill(
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


@transaction.atomic
def round_reseat(*, round: Round) -> Round:
    """Seat the last round again (after check-ins or withdrawals), while it has no results.

    The seating is deterministic: with the same players it gives the same
    tables; change the tournament's seed for a new draw.
    """
    round_ = Round.objects.select_related("tournament").get(pk=round.pk)
    tournament = _tournament_locked(round_.tournament)
    _untouched_check(round_)
    # Clear this round first so that the history and the bye history are those
    # of the rounds before it.
    Seat.objects.filter(round=round_).delete()
    Adjustment.objects.filter(round=round_, kind=Adjustment.Kind.BYE).delete()
    tables: Sequence[Sequence[int]]
    byes: Sequence[int] = ()
    if round_.stage == QUALIFYING:
        plan = _qualifying_plan(tournament, round_.number)
        tables, byes = plan.tables, plan.byes
    else:
        tables = _stage_tables(tournament, round_.stage)
    _round_fill(round_=round_, tournament=tournament, tables=tables, byes=byes)
    return round_


@transaction.atomic
def round_manual_set(
    *,
    round: Round,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int] = (),
) -> Round:
    """The organiser's own tables for the last round (seat order as given), while untouched.

    A qualifying round must seat every active player once (or give them a bye);
    a semi-final or final must seat the same players it seats now.
    """
    round_ = Round.objects.select_related("tournament").get(pk=round.pk)
    tournament = _tournament_locked(round_.tournament)
    _untouched_check(round_)
    try:
        tables = [[int(p) for p in table] for table in tables]
        byes = [int(p) for p in byes]
    except (TypeError, ValueError) as exc:
        raise UserError(_("Tables must be lists of player ids."), field="tables") from exc
    if round_.stage == QUALIFYING:
        players: Iterable[int] = _active_ids(tournament)
    else:
        players = Seat.objects.filter(round=round_).values_list("player_id", flat=True)
        if byes:
            raise UserError(_("A semi-final or final has no byes."), field="byes")
    seating.plan_check(
        players=set(players), tables=tables, byes=byes, max_size=tournament.max_table_size
    )
    _round_fill(round_=round_, tournament=tournament, tables=tables, byes=byes)
    return round_


# --------------------------------------------------------------------------
# Stages
# --------------------------------------------------------------------------


def _deal(seeds: Sequence[int], *, max_size: int) -> list[list[int]]:
    """Deal seeds round the tables: table t gets seeds t, t + n, t + 2n, … (n tables)."""
    sizes, _byes = seating.table_sizes(players=len(seeds), max_size=max_size)
    count = max(1, len(sizes))
    return [list(seeds[t::count]) for t in range(count)]


def _stage_tables(tournament: Tournament, stage: str) -> list[list[int]]:
    """The tables of a semi-final or final, from the standings as they are now."""
    if stage == SEMIFINAL:
        wanted = tournament.semifinal_players
        if wanted < 2:
            raise ConflictError(
                _("This tournament has no semi-finals: set the number of semi-final players."),
                field="stage",
            )
    else:
        wanted = min(FINAL_TABLE_SIZE, tournament.max_table_size)
    entrants = stage_entrants(tournament=tournament, stage=stage)
    if len(entrants) < wanted:
        raise ConflictError(
            _("The %(stage)s seats %(wanted)s players, but only %(count)s can play."),
            stage=Round.Stage(stage).label,
            wanted=wanted,
            count=len(entrants),
        )
    if stage == FINAL:
        return [entrants[:wanted]]
    return _deal(entrants[:wanted], max_size=tournament.max_table_size)


@transaction.atomic
def stage_seat(*, tournament: Tournament, stage: str, date: Date | None = None) -> Round:
    """Seat the semi-finals or the final as the next round.

    Semi-finals: the top ``semifinal_players`` active players of the qualifying
    standings, dealt round the tables in seed order (8 players: seeds 1/3/5/7
    and 2/4/6/8, seated in that order). Final: the winner of each semi-final
    table, then the best of the other semi-finalists by the semi-final's
    results (without semi-finals: the top of the qualifying standings), at most
    4, seated in that order. ``final_carry_over`` only changes the final
    places (``selectors.final_places_for``).
    """
    if stage not in (SEMIFINAL, FINAL):
        raise UserError(
            _("A stage is %(semifinal)s or %(final)s, not %(stage)s."),
            field="stage",
            semifinal=SEMIFINAL,
            final=FINAL,
            stage=stage,
        )
    tournament = _tournament_locked(tournament)
    rounds = list(tournament.round_set.order_by("number"))
    stages = {r.stage for r in rounds}
    label = Round.Stage(stage).label
    if stage in stages:
        raise ConflictError(
            _("The %(stage)s is already seated; re-seat that round instead."), stage=label
        )
    if not any(r.stage == QUALIFYING for r in rounds):
        raise ConflictError(_("Play the qualifying rounds before the %(stage)s."), stage=label)
    if stage == SEMIFINAL and FINAL in stages:
        raise ConflictError(_("The final is already seated: it is too late for semi-finals."))
    if stage == FINAL and tournament.semifinal_players >= 2 and SEMIFINAL not in stages:
        raise ConflictError(
            _(
                "This tournament has semi-finals: seat and play them before the final "
                "(or set the number of semi-final players to 0)."
            )
        )
    last = rounds[-1]
    _last_round_complete_check(tournament, last)
    tables = _stage_tables(tournament, stage)
    plan = seating.RoundPlan(tables=tuple(tuple(t) for t in tables), byes=(), repeats=0)
    return round_store(
        tournament=tournament, number=last.number + 1, plan=plan, stage=stage, date=date
    )


# --------------------------------------------------------------------------
# Adjustments
# --------------------------------------------------------------------------

_POINTS_LIMIT = Decimal("999999.99")


def _user_or_none(user: UserLike) -> Any:
    return user if user is not None and user.is_authenticated else None


@transaction.atomic
def adjustment_add(
    *,
    tournament: Tournament,
    player_id: int,
    points: Decimal | int | str,
    reason: str,
    user: UserLike = None,
    kind: str = Adjustment.Kind.PENALTY,
    round: Round | None = None,
) -> Adjustment:
    """An organiser's penalty (negative points) or bonus (positive), with a reason.

    ``round`` ties it to a round (it then counts in that round's stage only);
    without one it counts in the qualifying standings and the totals.
    """
    if kind not in (Adjustment.Kind.PENALTY, Adjustment.Kind.BONUS):
        raise UserError(
            _("An adjustment is a penalty or a bonus, not %(kind)s."), field="kind", kind=kind
        )
    reason = (reason or "").strip()
    if not reason:
        raise UserError(_("Give a reason for the adjustment."), field="reason")
    if len(reason) > 200:
        raise UserError(_("The reason is longer than 200 characters."), field="reason")
    try:
        value = Decimal(str(points))
    except InvalidOperation as exc:
        raise UserError(
            _("Points must be a number, not %(points)s."), field="points", points=points
        ) from exc
    if (
        not value.is_finite()
        or abs(value) > _POINTS_LIMIT
        or value != value.quantize(Decimal("0.01"))
    ):
        raise UserError(
            _("Points must be a number with at most 2 decimals, up to %(limit)s."),
            field="points",
            limit=_POINTS_LIMIT,
        )
    if value == 0:
        raise UserError(_("An adjustment of 0 points changes nothing."), field="points")
    if kind == Adjustment.Kind.PENALTY and value > 0:
        raise UserError(
            _("A penalty takes points away: enter a negative number (e.g. -%(points)s)."),
            field="points",
            points=value,
        )
    if kind == Adjustment.Kind.BONUS and value < 0:
        raise UserError(
            _("A bonus adds points: enter a positive number, or make it a penalty."),
            field="points",
        )
    if not Entry.objects.filter(tournament=tournament, player_id=player_id).exists():
        raise UserError(
            _("Player %(player)s is not entered in %(tournament)s."),
            field="player",
            player=player_id,
            tournament=tournament.name,
        )
    if round is not None and round.tournament_id != tournament.pk:
        raise UserError(_("That round belongs to another tournament."), field="round")
    return Adjustment.objects.create(
        tournament=tournament,
        player_id=player_id,
        round=round,
        kind=kind,
        points=value,
        reason=reason,
        created_by=_user_or_none(user),
    )


@transaction.atomic
def adjustment_delete(*, adjustment: Adjustment) -> None:
    """Remove an organiser's adjustment (a bye's score goes with its round's seating)."""
    if adjustment.kind == Adjustment.Kind.BYE:
        raise ConflictError(_("A bye's score is part of the seating; re-seat the round instead."))
    adjustment.delete()


# --------------------------------------------------------------------------
# Importing players
# --------------------------------------------------------------------------


Problem = tuple[int, str, dict[str, Any]]  # line number, message template, its parameters


class PlayersFileError(UserError):
    """A players file with errors: ``problems`` holds one message per bad line."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=lambda p: p[0])
        super().__init__(
            _("Nothing imported; problems in the file: %(count)s."),
            field="file",
            count=len(problems),
        )

    def lines(self, translate: Callable[[str], str] = lambda s: s) -> list[str]:
        """Each problem as ``line N: message``."""
        shown = []
        for number, template, params in self.problems:
            text = translate(template) % params if params else translate(template)
            shown.append(
                translate(_("line %(line)s: %(problem)s")) % {"line": number, "problem": text}
                if number
                else text
            )
        return shown


@dataclass
class ImportResult:
    created: list[Player] = field(default_factory=list)
    existing: list[Player] = field(default_factory=list)
    entered: int = 0


@dataclass(frozen=True)
class _Line:
    number: int
    name: str
    club: str


def _csv_lines(text: str) -> tuple[list[_Line], list[Problem]]:
    """Parse a players CSV (``name,club``; a header row naming the columns is optional)."""
    problems: list[Problem] = []
    # The separator is read off the first line: spreadsheets save CSV with
    # semicolons where the comma is the decimal mark. (csv.Sniffer guesses
    # wrong on short files.)
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = ","
    if "," not in first_line:
        delimiter = ";" if ";" in first_line else "\t" if "\t" in first_line else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    columns = {"name": 0, "club": 1}
    lines: list[_Line] = []
    first = True
    for raw in reader:
        number = reader.line_num
        cells = [c.strip() for c in raw]
        if not any(cells):
            continue
        if first:
            first = False
            heads = [c.casefold() for c in cells]
            if "name" in heads:
                unknown = [c for c in cells if c and c.casefold() not in ("name", "club")]
                if unknown:
                    problems.append(
                        (
                            number,
                            _("unknown column %(columns)s; the columns are name and club"),
                            {"columns": ", ".join(repr(u) for u in unknown)},
                        )
                    )
                columns = {h: i for i, h in enumerate(heads) if h in ("name", "club")}
                continue
        width = max(columns.values()) + 1
        if any(cells[width:]):
            problems.append(
                (
                    number,
                    _("%(count)s columns, expected at most %(width)s (name, club)"),
                    {"count": len(cells), "width": width},
                )
            )
            continue
        name = cells[columns["name"]] if len(cells) > columns["name"] else ""
        club = cells[columns["club"]] if "club" in columns and len(cells) > columns["club"] else ""
        lines.append(_Line(number, name, club))
    return lines, problems


@transaction.atomic
def players_import(*, text: str, tournament: Tournament | None = None) -> ImportResult:
    """Create the players of a ``name,club`` CSV (and their clubs), all or nothing.

    A player with the same name and club as an existing one is not created
    again. With ``tournament`` every listed player is entered. Raises
    ``PlayersFileError`` listing every bad line; then nothing is stored.
    """
    lines, problems = _csv_lines(text)
    seen: dict[tuple[str, str], int] = {}
    for line in lines:
        if not line.name:
            problems.append((line.number, _("the name is missing"), {}))
        elif len(line.name) > NAME_MAX:
            problems.append(
                (line.number, _("the name is longer than %(max)s characters"), {"max": NAME_MAX})
            )
        if len(line.club) > CLUB_MAX:
            problems.append(
                (line.number, _("the club is longer than %(max)s characters"), {"max": CLUB_MAX})
            )
        key = (line.name.casefold(), line.club.casefold())
        if line.name and key in seen:
            problems.append(
                (
                    line.number,
                    _("%(name)s (%(club)s) is already on line %(first)s"),
                    {"name": line.name, "club": line.club or "-", "first": seen[key]},
                )
            )
        seen.setdefault(key, line.number)
    if not lines and not problems:
        problems.append((0, _("The file lists no players."), {}))
    if problems:
        raise PlayersFileError(problems)

    clubs = {c.name.casefold(): c for c in Club.objects.all()}
    new_clubs: dict[str, Club] = {}
    for line in lines:
        if line.club and line.club.casefold() not in clubs:
            new_clubs[line.club.casefold()] = Club(name=line.club)
    for club in Club.objects.bulk_create(new_clubs.values()):
        clubs[club.name.casefold()] = club
    known: dict[tuple[str, int | None], Player] = {}
    for player in Player.objects.filter(name__in=[line.name for line in lines]).order_by("id"):
        known.setdefault((player.name, player.club_id), player)
    result = ImportResult()
    fresh: list[Player] = []
    for line in lines:
        player_club = clubs[line.club.casefold()] if line.club else None
        wanted = (line.name, player_club.pk if player_club else None)
        if wanted in known:
            result.existing.append(known[wanted])
        else:
            known[wanted] = Player(name=line.name, club=player_club)
            fresh.append(known[wanted])
    result.created = Player.objects.bulk_create(fresh)
    if tournament is not None:
        ids = [p.pk for p in [*result.created, *result.existing]]
        result.entered = len(entries_add(tournament=tournament, player_ids=ids))
    return result
