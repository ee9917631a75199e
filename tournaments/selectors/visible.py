"""What an API request may read, planned: what each endpoint renders, fetched
in a fixed number of queries whatever the number of rows.

Vocabulary: *visible* means what this request may see: public tournaments,
the user's own (staff: all), and for a *match grant* (a valid
``X-Match-Token``) that one match and its games too. Everything else is left
out of the querysets, so it answers 404.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.db.models import Prefetch, Q, QuerySet

from tournaments.actors import ActingUser
from tournaments.models import Game, Match, Rack, Round, Seat, Tournament
from tournaments.selectors.rounds import round_tables
from tournaments.selectors.tournaments import tournaments_visible


class MatchGranted(Protocol):
    """What a match grant tells a read: the one match its token opens."""

    @property
    def match_id(self) -> int: ...


def _seats() -> Prefetch[Any]:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))


def _racks() -> Prefetch[Any]:
    return Prefetch("racks", queryset=Rack.objects.order_by("position"))


def _visible_ids(user: ActingUser) -> QuerySet[Tournament, Any]:
    return tournaments_visible(user=user).values("pk")


def rounds_visible(*, user: ActingUser) -> QuerySet[Round]:
    """Rounds with their matches and seats (players in seat order)."""
    return (
        Round.objects.filter(tournament__in=_visible_ids(user))
        .select_related("tournament")
        .prefetch_related(*round_tables())
        .order_by("tournament_id", "number")
    )


def rounds_of(*, tournament: Tournament) -> QuerySet[Round]:
    rounds = Round.objects.filter(tournament=tournament)
    return rounds.prefetch_related(*round_tables()).order_by("number")


def matches_seen(*, user: ActingUser, grant: MatchGranted | None) -> QuerySet[Match]:
    """Matches with their round and tournament (for permissions), nothing more."""
    seen = Q(round__tournament__in=_visible_ids(user))
    if grant is not None:
        seen |= Q(pk=grant.match_id)
    return Match.objects.filter(seen).select_related("round__tournament")


def matches_visible(*, user: ActingUser, grant: MatchGranted | None) -> QuerySet[Match]:
    """Matches with their round, tournament, seats, games and racks."""
    return matches_seen(user=user, grant=grant).prefetch_related(
        _seats(),
        Prefetch("games", queryset=Game.objects.order_by("number").prefetch_related(_racks())),
    )


def match_visible(*, user: ActingUser, grant: MatchGranted | None, match_id: int) -> Match:
    """One match as ``matches_visible`` reads it (raises DoesNotExist); four queries."""
    return matches_visible(user=user, grant=grant).get(pk=match_id)


def games_visible(*, user: ActingUser, grant: MatchGranted | None) -> QuerySet[Game]:
    """Games with their racks (by seat) and their tournament, for permissions."""
    seen = Q(match__round__tournament__in=_visible_ids(user))
    if grant is not None:
        seen |= Q(match_id=grant.match_id)
    return (
        Game.objects.filter(seen)
        .select_related("match__round__tournament")
        .prefetch_related(_racks())
        .order_by("match__round__tournament_id", "match__round__number", "match__table", "number")
    )


def games_of(*, match: Match) -> QuerySet[Game]:
    games = Game.objects.filter(match=match).select_related("match__round__tournament")
    return games.prefetch_related(_racks()).order_by("number")


def game_detail(*, pk: int) -> Game:
    return (
        Game.objects.select_related("match__round__tournament")
        .prefetch_related(_racks())
        .get(pk=pk)
    )


def match_seen(*, user: ActingUser, grant: MatchGranted | None, match_id: int) -> Match | None:
    """One match as ``matches_seen`` reads it (None: not one the request may see);
    one query."""
    return matches_seen(user=user, grant=grant).filter(pk=match_id).first()
