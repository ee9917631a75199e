"""What the public pages' cached bodies read: rounds by number, and a round's
tables as *boxes* (see ``web.public_cache``).

Vocabulary: a match's *version* is the id of its latest audit event (games
are recorded against their match), so a box is rendered again only when a
game at its table changed. Each read runs a fixed number of queries.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from django.db.models import Max, Prefetch, QuerySet

from tournaments.models import Game, Match, Rack, Round, Seat, Tournament


def rounds_numbered(*, tournament: Tournament, numbers: Collection[int]) -> list[Round]:
    """The tournament's rounds with those numbers, in order; one query."""
    return list(tournament.round_set.filter(number__in=numbers).order_by("number"))


def match_versions(*, rounds: Sequence[Round]) -> list[tuple[int, int, int | None]]:
    """Each match of ``rounds`` by table: (its id, its round's id, its version); one query."""
    return list(
        Match.objects.filter(round_id__in=[r.pk for r in rounds])
        .order_by("table")
        .annotate(version=Max("audit__id"))
        .values_list("pk", "round_id", "version")
    )


def matches_boxed(*, match_ids: Collection[int]) -> QuerySet[Match]:
    """Those matches with their seats (players in seat order), games and racks; four queries."""
    return Match.objects.filter(pk__in=match_ids).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch(
            "games",
            queryset=Game.objects.order_by("number").prefetch_related(
                Prefetch("racks", queryset=Rack.objects.order_by("position"))
            ),
        ),
    )
