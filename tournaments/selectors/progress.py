"""What the desk's next step is decided from (``tournaments.progress``).

Vocabulary: the *facts* are the entries' statuses, the rounds' stages and, of
the last round, its tables and the games played and left at each; read from
the database (``progress_for``) or from what the desk has read already
(``progress_of``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count

from tournaments import progress
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.selectors.rounds import RoundListed


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
        finished=tournament.is_finished,
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
