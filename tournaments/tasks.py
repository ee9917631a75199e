"""Background work, through Django's tasks interface (``django-tasks``).

Vocabulary: a *task* is a function the worker runs (``manage.py db_worker``
with the database backend; in the enqueuing process itself with the
immediate backend: ``make run`` and the tests, ``settings.TASKS``). Its
arguments are plain data (ids, text), never objects. Three kinds of work are
handed on, each because a request would take more than a second:

* a large backup's *restore* (``services.restore_jobs``): the request adds
  the job, the task runs it, the user follows it on its progress page;
* a large round's *score sheets* (``documents.files``): the request claims
  them, the task draws them into the files cache, the next request serves
  them.
* a long *rating replay* (``services.ratings``): the write that needs it
  notes where it starts, the task replays from there once the write commits
  (``ratings_replay_enqueue``, which the app hands to the rating services when
  it starts).

``*_enqueue`` is what a request calls: the write, then the task.
"""

from __future__ import annotations

from typing import Any

from django_tasks import task

from tournaments.backups.checks import document_kind_recognised
from tournaments.backups.restore import restore_slug_checked
from tournaments.documents import files
from tournaments.models import RestoreJob, Round
from tournaments.selectors.background import round_for_sheets
from tournaments.services.ratings import ratings_replay_pending
from tournaments.services.restore_jobs import restore_job_add, restore_job_run


@task()
def restore_task(job_id: int) -> None:
    restore_job_run(job_id=job_id)


@task()
def scoresheets_task(round_id: int, base_url: str, paper: str | None = None) -> None:
    round_ = round_for_sheets(round_id=round_id)
    if round_ is None:  # deleted meanwhile: nothing to draw
        return
    try:
        files.scoresheets_pdf(round_=round_, base_url=base_url, paper=paper)
    finally:
        files.scoresheets_released(round_=round_, base_url=base_url, paper=paper)


@task()
def ratings_replay_task() -> None:
    ratings_replay_pending()


def restore_enqueue(
    *,
    user: Any,
    data: bytes,
    document: dict[str, Any] | None,
    slug: str = "",
    same_names: bool = False,
    source: str = "",
) -> RestoreJob:
    """Add a restore job for ``user`` and hand it to the worker (with the immediate
    backend it has run when this returns: read it again for its state).

    ``document``: the file as read (None when it was only glanced at). What the
    worker would refuse at once is refused here, as a small restore is: a file
    of another kind or version, a slug that is taken or invalid."""
    if document is not None:
        document_kind_recognised(document)
    restore_slug_checked(slug=slug, document=document)
    job = restore_job_add(user=user, data=data, slug=slug, same_names=same_names, source=source)
    restore_task.enqueue(job.pk)
    return job


def scoresheets_enqueue(*, round_: Round, base_url: str, paper: str | None = None) -> None:
    """Hand the round's score sheets to the worker, unless they are being prepared."""
    if files.scoresheets_claimed(round_=round_, base_url=base_url, paper=paper):
        scoresheets_task.enqueue(round_.pk, base_url, paper)


def ratings_replay_enqueue() -> None:
    """Hand the waiting rating replay to the worker."""
    ratings_replay_task.enqueue()
