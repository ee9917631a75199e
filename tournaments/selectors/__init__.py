"""Selectors: the reads a page, the API, a PDF or a command needs, planned.

Vocabulary: a *round's tables* are its matches with their seats (players in
seat order) and its *byes*; a *seating history* is the rounds so far as the
seating engine reads them (each a list of tables, each the player ids in seat
order). The standings live in ``tournaments.standings``.

Each selector runs a fixed number of queries, whatever the size of the
tournament.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    Count,
    Exists,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Value,
    When,
)

from tournaments import progress, seating
from tournaments.access import (
    UserLike,
    clubs_visible_q,
    players_visible_q,
    tournaments_own_q,
    tournaments_visible_q,
)
from tournaments.models import (
    Adjustment,
    AuditEvent,
    Club,
    Entry,
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


def tournament_by_ref(*, ref: str) -> Tournament:
    """A tournament by slug, or by id when ``ref`` is a number (raises DoesNotExist)."""
    qs = Tournament.objects.select_related("club", "owner")
    found = qs.filter(slug=ref).first()
    if found is None and ref.isdigit():
        found = qs.filter(pk=int(ref)).first()
    if found is None:
        raise Tournament.DoesNotExist(ref)
    return found


def round_tables() -> tuple[Prefetch[Any], Prefetch[Any]]:
    """Prefetches for a round's tables (seats, players in seat order) and its
    byes (as ``round.byes``); shared by the pages, the API and the commands."""
    return (
        Prefetch(
            "matches",
            queryset=Match.objects.order_by("table").prefetch_related(
                Prefetch(
                    "seats",
                    queryset=Seat.objects.select_related("player__club").order_by("position"),
                )
            ),
        ),
        Prefetch(
            "adjustments",
            queryset=Adjustment.objects.filter(kind=Adjustment.Kind.BYE)
            .select_related("player")
            .order_by("player_id"),
            to_attr="byes",
        ),
    )


def round_detail(*, round_id: int) -> Round:
    """One round with its tables and its byes; three queries."""
    return (
        Round.objects.select_related("tournament")
        .prefetch_related(*round_tables())
        .get(pk=round_id)
    )


def seating_history(*, tournament: Tournament, stage: str | None = None) -> list[list[list[int]]]:
    """The rounds so far as the seating engine reads them: each a list of
    tables, each the player ids in seat order; one query."""
    seats = Seat.objects.filter(round__tournament=tournament)
    if stage is not None:
        seats = seats.filter(round__stage=stage)
    rounds: dict[int, dict[int, list[int]]] = {}
    for round_number, table, player_id in seats.order_by(
        "round__number", "match__table", "position"
    ).values_list("round__number", "match__table", "player_id"):
        rounds.setdefault(round_number, {}).setdefault(table, []).append(player_id)
    return [list(tables.values()) for _number, tables in sorted(rounds.items())]


def seating_quality_for(*, tournament: Tournament) -> seating.Quality:
    """Repeat meetings of the qualifying rounds so far, next to the lower bound
    no seating could beat for this many players and rounds."""
    return seating.schedule_quality(
        rounds=seating_history(tournament=tournament, stage=Round.Stage.QUALIFYING),
        max_size=tournament.max_table_size,
    )


def entries_of(*, tournament: Tournament) -> QuerySet[Entry]:
    """A tournament's entries with their players and clubs, by name."""
    return (
        Entry.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by("player__name", "player_id")
    )


def adjustments_of(*, tournament: Tournament) -> QuerySet[Adjustment]:
    """A tournament's adjustments (byes included), oldest first."""
    return (
        Adjustment.objects.filter(tournament=tournament)
        .select_related("player", "round")
        .order_by("created", "id")
    )


def _restorable() -> Case:
    """Whether an event is a deletion whose game can come back: no game holds its
    number at its table now, and the number was not deleted again later."""
    deleted = AuditEvent.Action.GAME_DELETED
    return Case(
        When(
            Q(action=deleted, match__isnull=False)
            & ~Exists(Game.objects.filter(match=OuterRef("match"), number=OuterRef("game_number")))
            & ~Exists(
                AuditEvent.objects.filter(
                    match=OuterRef("match"),
                    game_number=OuterRef("game_number"),
                    action=deleted,
                    id__gt=OuterRef("id"),
                )
            ),
            then=Value(True),
        ),
        default=Value(False),
        output_field=BooleanField(),
    )


def game_history_of(*, match: Match) -> QuerySet[AuditEvent]:
    """A match's game history (every record, correction, confirmation, deletion
    and restoring), oldest first; ``game_exists`` says whether the game is still
    there, ``restorable`` whether a deletion can be undone."""
    return (
        AuditEvent.objects.filter(match=match, action__startswith="game.")
        .annotate(
            game_exists=Exists(Game.objects.filter(pk=OuterRef("object_id"))),
            restorable=_restorable(),
        )
        .order_by("at", "id")
    )


def audit_of(*, tournament: Tournament, match: Match | None = None) -> QuerySet[AuditEvent]:
    """A tournament's audit trail (or one match's), newest first; ``restorable``
    says whether a deletion can be undone."""
    events = AuditEvent.objects.filter(tournament=tournament)
    if match is not None:
        events = events.filter(match=match)
    return events.annotate(restorable=_restorable()).order_by("-at", "-id")


def game_deletion_of(*, events: QuerySet[AuditEvent], game_id: int) -> AuditEvent | None:
    """The last deletion of the game with this id among ``events`` (None: never deleted)."""
    return (
        events.filter(action=AuditEvent.Action.GAME_DELETED, object_id=game_id)
        .select_related("match__round__tournament")
        .order_by("-at", "-id")
        .first()
    )


def players_not_entered(*, tournament: Tournament, user: object) -> QuerySet[Player]:
    """Players the user may see (``access.players_visible_q``) not entered here yet."""
    return (
        Player.objects.filter(players_visible_q(user=user))
        .exclude(entries__tournament=tournament)
        .order_by("name", "id")
    )


def clubs_listed(*, user: object) -> QuerySet[Club]:
    """The clubs a user may see, each with ``player_count``: the players of it they may see."""
    seen = Player.objects.filter(players_visible_q(user=user)).values("pk")
    return (
        Club.objects.filter(clubs_visible_q(user=user))
        .annotate(player_count=Count("players", filter=Q(players__in=seen)))
        .order_by("name")
    )


def tournaments_visible(*, user: UserLike | Any) -> QuerySet[Tournament]:
    """Tournaments a user may see (see ``access.tournaments_visible_q``)."""
    return Tournament.objects.select_related("club", "owner").filter(
        tournaments_visible_q(user=user)
    )


def tournaments_mine(*, user: UserLike | Any) -> QuerySet[Tournament]:
    """Tournaments the user owns or co-organises (see ``access.tournaments_own_q``)."""
    return Tournament.objects.select_related("club").filter(tournaments_own_q(user=user))


@dataclass(frozen=True)
class RoundListed:
    """A round as a line in a list: no tables or games loaded."""

    number: int
    stage: str
    stage_label: str
    tables: int
    games_played: int


def rounds_listed(*, tournament: Tournament) -> list[RoundListed]:
    """A tournament's rounds, light, with their counts of tables and games; one query."""
    labels = dict(Round.Stage.choices)
    return [
        RoundListed(
            number=r["number"],
            stage=r["stage"],
            stage_label=str(labels.get(r["stage"], r["stage"])),
            tables=r["tables"],
            games_played=r["games_played"],
        )
        for r in tournament.round_set.order_by("number")
        .values("number", "stage")
        .annotate(
            tables=Count("matches", distinct=True),
            games_played=Count("matches__games", distinct=True),
        )
    ]


def rounds_for(
    *, tournament: Tournament, numbers: Collection[int] | None = None
) -> QuerySet[Round]:
    """A tournament's rounds (or those numbered ``numbers``) with their matches,
    seats, games and racks; five queries."""
    rounds = tournament.round_set.order_by("number")
    if numbers is not None:
        rounds = rounds.filter(number__in=numbers)
    return rounds.prefetch_related(
        Prefetch(
            "matches",
            queryset=Match.objects.order_by("table").prefetch_related(
                Prefetch(
                    "seats", queryset=Seat.objects.select_related("player").order_by("position")
                ),
                Prefetch(
                    "games",
                    queryset=Game.objects.order_by("number").prefetch_related(
                        Prefetch("racks", queryset=Rack.objects.order_by("position"))
                    ),
                ),
            ),
        )
    )


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


def _progress_facts(
    tournament: Tournament,
    *,
    statuses: Iterable[str],
    stages: Iterable[str],
    last: tuple[int, str, int, list[tuple[int, int]]] | None,
) -> progress.Facts:
    """The facts from the entries' statuses, the rounds' stages and the last
    round (number, stage, games per match, (table, games played) per match)."""
    statuses = list(statuses)
    last_facts: progress.RoundFacts | None = None
    if last is not None:
        number, stage, planned, counted = last
        played = [p for _table, p in counted]
        last_facts = progress.RoundFacts(
            number=number,
            stage=stage,
            tables=len(played),
            tables_complete=sum(1 for p in played if p >= planned),
            games_played=sum(played),
            games_left=sum(max(0, planned - p) for p in played),
            tables_open=tuple(t for t, p in sorted(counted) if p < planned),
        )
    return progress.Facts(
        finished=tournament.status == Tournament.Status.FINISHED,
        entered=len(statuses),
        players=statuses.count(Entry.Status.ACTIVE),
        rounds_planned=tournament.rounds,
        semifinals=tournament.semifinal_players >= 2,
        qualifying_seated=sum(1 for stage in stages if stage == Round.Stage.QUALIFYING),
        last=last_facts,
    )


def progress_for(*, tournament: Tournament) -> progress.Facts:
    """What the desk's next step is decided from (``progress.step_next``); three queries."""
    statuses = Entry.objects.filter(tournament=tournament).values_list("status", flat=True)
    rounds = list(
        tournament.round_set.order_by("number").values_list(
            "pk", "number", "stage", "games_per_match"
        )
    )
    last = None
    if rounds:
        pk, number, stage, planned = rounds[-1]
        counted = list(
            Match.objects.filter(round_id=pk)
            .annotate(played=Count("games"))
            .values_list("table", "played")
        )
        last = (number, stage, planned, counted)
    return _progress_facts(tournament, statuses=statuses, stages=[r[2] for r in rounds], last=last)


def progress_of(
    *,
    tournament: Tournament,
    entries: Iterable[Entry],
    rounds: Iterable[RoundListed],
    latest: Round | None,
) -> progress.Facts:
    """The same facts from what the desk has read already (``entries_of``,
    ``rounds_listed`` and the last round from ``rounds_for``); no query."""
    last = None
    if latest is not None:
        counted = [(m.table, len(m.games.all())) for m in latest.matches.all()]
        last = (latest.number, latest.stage, latest.games_per_match, counted)
    return _progress_facts(
        tournament,
        statuses=[e.status for e in entries],
        stages=[r.stage for r in rounds],
        last=last,
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
