"""Who plays in a tournament: its entries, and the adjustments to their scores.

Vocabulary: an *entry* is a player entered in a tournament (active,
checked out or withdrawn, maybe with a category); an *adjustment* is an
organiser's penalty or bonus, or a bye's score, each with its reason.
"""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Adjustment, Entry, Tournament


def entries_of(*, tournament: Tournament) -> QuerySet[Entry]:
    """A tournament's entries with their players, clubs and current ratings, by name."""
    return (
        Entry.objects.filter(tournament=tournament)
        .select_related("player__club", "player__rating")
        .order_by("player__name", "player_id")
    )


def entry_of(*, tournament: Tournament, player_id: int) -> Entry | None:
    """The player's entry in the tournament with the player and their club, or
    ``None`` (the player is not entered); one query."""
    return (
        Entry.objects.filter(tournament=tournament, player_id=player_id)
        .select_related("player__club")
        .first()
    )


def adjustments_of(*, tournament: Tournament) -> QuerySet[Adjustment]:
    """A tournament's adjustments (byes included), oldest first."""
    return (
        Adjustment.objects.filter(tournament=tournament)
        .select_related("player", "round")
        .order_by("created", "id")
    )


def adjustment_of(*, tournament: Tournament, adjustment_id: int) -> Adjustment | None:
    """The tournament's adjustment with this id, with its player and round (None:
    not one of its adjustments); one query."""
    return adjustments_of(tournament=tournament).filter(pk=adjustment_id).first()
