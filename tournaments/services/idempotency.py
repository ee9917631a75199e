"""Idempotency keys as stored: claiming one, keeping its answer, purging old ones.

Vocabulary: a *caller* (``user:<id>`` or ``match:<id>``) *claims* a key for
one write by inserting its row, with the request's *fingerprint*, before the
write is made; the row then keeps the *answer* (status, body and the headers
worth replaying). A claimed key older than ``KEY_LIFETIME`` is *expired*:
treated as never sent: a claim of the same key replaces it, and the odd
global sweep and ``manage.py purge_idempotency_keys`` delete the rest. No
claim purges on every request: that was a write of its own inside the
request's transaction, paid by every keyed write.

The HTTP side (which requests are keyed, how answers are replayed) lives in
``tournaments.api.idempotency``; this module knows nothing of requests.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from scoring.errors import ConflictError, UserError, _
from tournaments.models import IdempotencyKey
from tournaments.rows import row_update, rows_insert

KEY_LIFETIME = timedelta(hours=24)
# One claim in a hundred also sweeps every caller's expired keys: no schedule needed.
PURGE_CHANCE = 0.01


class IdempotencyKeyReusedError(UserError):
    """The key was first sent with another request (HTTP 422)."""

    status = 422
    default_code = "idempotency_key_reused"


@dataclass(frozen=True)
class StoredAnswer:
    """The first answer to a key, to be given again."""

    status: int
    content: bytes
    headers: dict[str, str]


class IdempotentReplay(Exception):  # not an error: the answer to give again
    """The key was answered before: give ``answer`` again and write nothing."""

    def __init__(self, answer: StoredAnswer) -> None:
        super().__init__(answer.status)
        self.answer = answer


def idempotency_keys_purge(*, now: datetime | None = None, caller: str | None = None) -> int:
    """Delete the expired keys (of ``caller`` alone when given); answers how many."""
    cutoff = (now or timezone.now()) - KEY_LIFETIME
    expired = IdempotencyKey.objects.filter(created__lt=cutoff)
    if caller is not None:
        expired = expired.filter(caller=caller)
    deleted, _by_model = expired.delete()
    return deleted


# No savepoint of its own: a claim that raises leaves nothing to keep, and the
# request's transaction it runs in is rolled back.
@transaction.atomic(savepoint=False)
def idempotency_key_claim(*, caller: str, key: str, fingerprint: str) -> IdempotencyKey:
    """Claim ``key`` for the request whose fingerprint is given.

    Answers the new row when the key is fresh. Raises ``IdempotentReplay``
    with the stored answer when the same request was answered before,
    ``IdempotencyKeyReusedError`` when another request used the key, and a
    ``ConflictError`` when it is still being answered.

    A concurrent claim of the same key waits until the first one's
    transaction ends (PostgreSQL: on the unique index; SQLite: on the write
    lock its IMMEDIATE transaction took) and then sees its stored answer.
    """
    if random.random() < PURGE_CHANCE:
        idempotency_keys_purge()
    # Written out, and skipped rather than refused when the key is taken: no
    # savepoint to recover from the error (see tournaments.rows).
    claimed = rows_insert(
        [IdempotencyKey(caller=caller, key=key, fingerprint=fingerprint)], unless=("caller", "key")
    )
    if claimed:
        return claimed[0]
    stored = IdempotencyKey.objects.filter(caller=caller, key=key).first()
    if stored is not None and stored.created < timezone.now() - KEY_LIFETIME:
        # An expired key is a new request: its old row gives way (rare, so the
        # common claim stays one insert).
        stored.delete()
        return IdempotencyKey.objects.create(caller=caller, key=key, fingerprint=fingerprint)
    if stored is None or stored.status is None:
        # Only when the first request's answer could not be kept (it was streamed).
        raise ConflictError(
            _("A request with this Idempotency-Key is being answered; try again later."),
            field="Idempotency-Key",
        )
    if stored.fingerprint != fingerprint:
        raise IdempotencyKeyReusedError(
            _(
                "This Idempotency-Key was used for another request in the last 24 hours: "
                "send a new key for a new request."
            ),
            field="Idempotency-Key",
        )
    raise IdempotentReplay(
        StoredAnswer(
            status=stored.status, content=bytes(stored.content), headers=dict(stored.headers)
        )
    )


def idempotency_key_answer(*, claim: IdempotencyKey, answer: StoredAnswer | None) -> None:
    """Keep the answer to a claimed key; None (an answer that cannot be replayed,
    e.g. streamed) releases the key instead."""
    if answer is None:
        claim.delete()
        return
    claim.status = answer.status
    claim.content = answer.content
    claim.headers = answer.headers
    row_update(claim, ["status", "content", "headers"])
