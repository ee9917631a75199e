"""The one check that refuses to change a finished tournament.

Vocabulary: a *finished* tournament (``Tournament.is_finished``, the one
question every page and service asks) is frozen: every service that changes
what is in it (games, entries, seating, the round clock, adjustments, a
table's link, its plan and rules) refuses with ``tournament_open_check`` until
it is reopened. The status is *fresh* when the caller has just read the
tournament under its lock; otherwise the check reads it again, under the lock,
so that neither a stale instance nor a finish at the same moment slips past.
"""

from __future__ import annotations

from scoring.errors import ConflictError, _
from tournaments.models import Tournament


def tournament_open_check(tournament: Tournament, *, fresh: bool = False) -> None:
    """Refuse to change anything in a finished tournament (409)."""
    if not fresh:
        read = (
            Tournament.objects.select_for_update().filter(pk=tournament.pk).only("status").first()
        )
        if read is None:
            return  # deleted meanwhile: the caller's own write finds nothing to change
        tournament = read
    if tournament.is_finished:
        raise ConflictError(_("The tournament is finished: reopen it to change it."))
