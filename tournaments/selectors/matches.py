"""One match (a table of a round) as its pages read it.

Vocabulary: a match's *detail* is the match with its round, tournament, seats
(players in seat order) and games (racks by seat); a *replaced* link is a
match token an organiser swapped for a new one, which the trail remembers by
its digest only.
"""

from __future__ import annotations

from django.db.models import Prefetch

from tournaments.models import (
    AuditEvent,
    Game,
    Match,
    Rack,
    Seat,
    Tournament,
    match_token_digest,
    match_token_plausible,
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


def match_in(*, tournament: Tournament, match_id: int) -> Match | None:
    """The tournament's match with this id, with its round (None: not one of its
    matches); one query."""
    return (
        Match.objects.select_related("round")
        .filter(pk=match_id, round__tournament=tournament)
        .first()
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


def match_by_token(token: str) -> Match | None:
    """The match a token opens, with its round and tournament, and its seats in
    seat order (each with its player) kept as ``seats_in_order``
    (``services.game_scoring.SEATS_KEPT``); two queries. None: no match has it."""
    # A list, not first(): the token is unique, and first()'s ORDER BY cost more
    # to build than the query takes to run.
    found = list(
        Match.objects.select_related("round__tournament")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("player").order_by("position"),
                to_attr="seats_in_order",
            )
        )
        .filter(token=token)
        .order_by()
    )
    return found[0] if found else None
