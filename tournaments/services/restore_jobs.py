"""A large backup's restore, handed to the task worker and run there.

Vocabulary: a *restore job* (``RestoreJob``) is *added* by the request that
took the file, once the file was judged as far as a request can (it is kept
as its bytes, compressed: data only), then *run* by the task worker
(``tournaments.tasks``): the same restore as in a request
(``backups.restore.tournament_import``), with the user who started it as the
owner and the acting user. It ends *done* (the new
tournament) or *refused* (the refusal's template and parameters, translated
when shown); either way the stored document is emptied. A job runs once: a
second run of the same job (a task retried) changes nothing.

Not audited in a tournament's trail on its own: until it is restored there is
no tournament, and the restore records its ``tournament.imported`` event.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.errors import UserError, _
from tournaments.backups.checks import document_read
from tournaments.backups.restore import player_map_by_name, tournament_import
from tournaments.models import RestoreJob

FAILED = _("The restore failed unexpectedly; nothing was stored. Please try again.")


def refusal_of(error: UserError) -> dict[str, Any]:
    """A refusal as the job keeps it: JSON that renders again as the error did."""
    params = json.loads(json.dumps(error.params, cls=DjangoJSONEncoder, default=str))
    return {
        "template": error.template,
        "params": params,
        "field": error.field,
        "code": error.code,
        "status": error.status,
    }


def refusal_text(refusal: Mapping[str, Any]) -> str:
    """A kept refusal in the reader's language (the active translation)."""
    text = gettext(str(refusal.get("template", "")))
    params = refusal.get("params") or {}
    return text % params if params else text


@transaction.atomic
def restore_job_add(
    *, user: Any, data: bytes, slug: str = "", same_names: bool = False, source: str = ""
) -> RestoreJob:
    """A queued restore of the file ``data`` for ``user``, who will own it."""
    return RestoreJob.objects.create(
        user=user,
        document=zlib.compress(data, 1),
        slug=slug,
        same_names=same_names,
        source=source[:200],
    )


def _finished(job: RestoreJob, **fields: Any) -> None:
    fields.update(document=b"", finished=timezone.now())
    RestoreJob.objects.filter(pk=job.pk).update(**fields)
    for name, value in fields.items():
        setattr(job, name, value)


def restore_job_run(*, job_id: int) -> RestoreJob | None:
    """Run a queued job: restore its document for its user; done or refused.

    A job that is not queued (already run, or gone) is left as it is (None)."""
    claimed = RestoreJob.objects.filter(pk=job_id, state=RestoreJob.State.QUEUED).update(
        state=RestoreJob.State.RUNNING
    )
    if not claimed:
        return None
    job = RestoreJob.objects.select_related("user").get(pk=job_id)
    try:
        document = document_read(zlib.decompress(job.document))
        mapped = player_map_by_name(document=document, owner=job.user) if job.same_names else None
        tournament = tournament_import(
            document=document,
            owner=job.user,
            slug=job.slug or None,
            user=job.user,
            source=job.source,
            player_map=mapped,
        )
    except UserError as error:
        _finished(job, state=RestoreJob.State.REFUSED, refusal=refusal_of(error))
        return job
    except Exception:
        # A bug: the user learns that nothing was stored; the worker logs it.
        _finished(job, state=RestoreJob.State.REFUSED, refusal=refusal_of(UserError(FAILED)))
        raise
    _finished(job, state=RestoreJob.State.DONE, tournament=tournament)
    return job
