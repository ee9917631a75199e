"""One match (a table of a round) as its pages read it.

Vocabulary: a match's *detail* is the match with its round, tournament, seats
(players in seat order) and games (racks by seat); a *replaced* link is a
match token an organiser swapped for a new one, which the trail remembers by
its digest only.
"""

from __future__ import annotations

from dataclasses import fields

from django.db.models import Model, Prefetch

from scoring import rules
from tournaments.models import (
    AuditEvent,
    Game,
    Match,
    Rack,
    Round,
    Seat,
    Tournament,
    match_token_digest,
    match_token_plausible,
)

# The attribute the seats read with a match are kept under, in seat order (a list).
SEATS_KEPT = "seats_in_order"


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


def _field_names(model: type[Model], path: str) -> list[str]:
    return [f"{path}{f.name}" for f in model._meta.concrete_fields]


# What recording a game reads with the token: the seats, their players' names,
# the match and round whole, and of the tournament what the game is scored and
# checked by before its transaction (which reads the tournament again, whole).
TOKEN_FIELDS = (
    *_field_names(Seat, ""),
    "player__name",
    *_field_names(Match, "match__"),
    *_field_names(Round, "match__round__"),
    *(
        f"match__round__tournament__{name}"
        for name in ("status", "owner", "confirmation", *(f.name for f in fields(rules.Rules)))
    ),
)


def _match_seated(*, token: str | None = None, match_id: int | None = None) -> Match | None:
    # From the seats, which bring their match, round and tournament along: one
    # statement. order_by(): the models' default orderings would join the
    # tournament's and the player's tables again; four seats sort here.
    lookup: dict[str, str | int | None] = (
        {"match__token": token} if token is not None else {"match_id": match_id}
    )
    seats = sorted(
        Seat.objects.select_related("player", "match__round__tournament")
        .only(*TOKEN_FIELDS)
        .filter(**lookup)
        .order_by(),
        key=lambda seat: seat.position,
    )
    if seats:
        match = seats[0].match
        for seat in seats:
            seat.match = match  # one match for all (each row built its own copy)
    else:
        # A list, not first(): the token is unique, and first()'s ORDER BY cost
        # more to build than the query takes to run.
        lookup = {"token": token} if token is not None else {"pk": match_id}
        bare = list(Match.objects.select_related("round__tournament").filter(**lookup).order_by())
        if not bare:
            return None
        match = bare[0]
    setattr(match, SEATS_KEPT, seats)
    return match


def match_by_token(token: str) -> Match | None:
    """The match a token opens, with its round, its seats in seat order (each
    with its player's name) kept as ``SEATS_KEPT``, and its tournament's
    status, owner, confirmation and rule settings (its other fields are
    deferred: read on first use); one query (two for a match without seats).
    None: no match has it."""
    return _match_seated(token=token)


def match_seated(*, match_id: int) -> Match | None:
    """The match with this id, read as ``match_by_token`` reads it (for an
    organiser's game, whose permission is checked on it). None: no such match."""
    return _match_seated(match_id=match_id)
