"""The audit trail as the desk and the API read it.

Vocabulary: an *event* is one recorded change (when, who, what, the old and
new values); a match's *game history* is its events about games, oldest
first. A *deletion* (``game.deleted``) is *restorable* while no game holds
its number at its table and the number was not deleted again later; an
event's value may *name* a row of another model (a tournament's club) by id.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import BooleanField, Case, Exists, OuterRef, Q, QuerySet, Value, When

from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Game, Match, Tournament
from tournaments.selectors.tournaments import tournaments_visible


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


def audit_of(
    *, tournament: Tournament, match: Match | None = None, kind: str | None = None
) -> QuerySet[AuditEvent]:
    """A tournament's audit trail (or one match's; or of one ``kind``, the first
    part of the actions: ``game``, ``round``...), newest first; ``restorable``
    says whether a deletion can be undone."""
    events = AuditEvent.objects.filter(tournament=tournament)
    if match is not None:
        events = events.filter(match=match)
    if kind:
        events = events.filter(action__startswith=f"{kind}.")
    return events.annotate(restorable=_restorable()).order_by("-at", "-id")


def game_deletion_of(*, events: QuerySet[AuditEvent], game_id: int) -> AuditEvent | None:
    """The last deletion of the game with this id among ``events`` (None: never deleted)."""
    return (
        events.filter(action=AuditEvent.Action.GAME_DELETED, object_id=game_id)
        .select_related("match__round__tournament")
        .order_by("-at", "-id")
        .first()
    )


def game_deleted_visible(*, user: ActingUser, game_id: int) -> AuditEvent | None:
    """The last deletion of the game with this id at a table of a tournament the
    user may see, while the game is gone (None: not deleted, or back again); two
    queries."""
    event = game_deletion_of(
        events=AuditEvent.objects.filter(
            tournament__in=tournaments_visible(user=user).values("pk"), match__isnull=False
        ),
        game_id=game_id,
    )
    if event is None or Game.objects.filter(pk=game_id).exists():
        return None
    return event


def game_deletion_in(*, tournament: Tournament, event_id: int) -> AuditEvent | None:
    """The tournament's game deletion event with this id, with its match (None:
    no such deletion at a table of it); one query."""
    return (
        AuditEvent.objects.filter(
            tournament=tournament, pk=event_id, action=AuditEvent.Action.GAME_DELETED
        )
        .select_related("match")
        .exclude(match__isnull=True)
        .first()
    )


def event_value_named(*, model: type[models.Model], pk: int) -> str | None:
    """The row of ``model`` an event's value names by id, in words (None: it is
    gone); one query."""
    named: Any = model._default_manager.filter(pk=pk).first()
    return str(named) if named is not None else None
