"""What the desk's trust tests share: games entered at a table or by an organiser,
disputed games, deletions, the desk's addresses."""

from __future__ import annotations

import datetime as dt
import secrets

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from scoring.racks import RackIn
from tests.factories import match_seated, seated_ids
from tournaments.models import AuditEvent, Game, Match
from tournaments.services.results import EntrySource, entry_source_page, game_enter

LINK = AnonymousUser()  # an anonymous request: the match link's


def phone() -> EntrySource:
    """Another phone at the table's page, there since before any game."""
    return entry_source_page(
        user=LINK,
        session_key=secrets.token_hex(16),
        key=secrets.token_hex(8),
        joined=timezone.now() - dt.timedelta(hours=1),
    )


def enter(match: Match, *, user=LINK, points: int = 10, number: int | None = None) -> Game:
    a, *others = seated_ids(match)
    racks = [RackIn(player=a, tiles=""), *(RackIn(player=p, points=points) for p in others)]
    source = phone() if user is LINK else None
    return game_enter(
        match=match, ending="rummikub", racks=racks, number=number, user=user, source=source
    ).game


def seated(confirmation: str = "organiser", **kwargs) -> Match:
    match = match_seated(players=3, confirmation=confirmation, **kwargs)
    match.round.tournament.refresh_from_db()
    return match


def desk_url(match: Match, tail: str) -> str:
    return f"/t/{match.round.tournament.slug}/organise/{tail}"


def deletion_of(match: Match, number: int) -> AuditEvent:
    return AuditEvent.objects.filter(
        match=match, game_number=number, action=AuditEvent.Action.GAME_DELETED
    ).latest("id")


def game_disputed(match: Match) -> Game:
    enter(match, points=10, number=1)
    game = enter(match, points=12, number=1)
    assert game.state == Game.State.DISPUTED
    return game
