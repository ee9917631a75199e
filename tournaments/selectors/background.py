"""What background work reads: a user's restore job, a round whose sheets a task draws.

Vocabulary: a *restore job* is seen only by the user who started it (anyone
else, staff included, gets nothing: its document and result are theirs); a
round's *sheet count* is its matches, a page each.
"""

from __future__ import annotations

from typing import Any

from tournaments.access import user_or_none
from tournaments.models import RestoreJob, Round


def restore_job_of(*, user: Any, job_id: int) -> RestoreJob | None:
    """The job ``job_id`` if ``user`` started it (with its tournament), else None."""
    owner = user_or_none(user)
    if owner is None:
        return None
    return (
        RestoreJob.objects.select_related("tournament")
        .defer("document")
        .filter(pk=job_id, user=owner)
        .first()
    )


def round_for_sheets(*, round_id: int) -> Round | None:
    """A round with its tournament (and its club), as the score sheets read it."""
    return Round.objects.select_related("tournament__club").filter(pk=round_id).first()


def round_sheet_count(*, round_: Round) -> int:
    """How many pages the round's score sheets have: one per match."""
    return round_.matches.count()
