"""Idempotency keys as stored: claiming one, keeping its answer, purging old ones.

Vocabulary: a *caller* (``user:<id>`` or ``match:<id>``) *claims* a key for
one write by inserting its row, with the request's *fingerprint*, in the
write's own transaction, before the write is made; the row then keeps the
*answer* (status, body and the headers worth replaying) before that
transaction commits. A claim that finds the key *taken* (the unique index
refuses the row) leaves its transaction to be rolled back; *settling* the key
then reads what the key holds: the answer to replay, a refusal when another
request used it, or room to claim it again (its first request was rolled
back, or it is expired). A claimed key older than ``KEY_LIFETIME`` is
*expired*: treated as never sent: settling deletes it, and the odd global
sweep and ``manage.py purge_idempotency_keys`` delete the rest. No claim
purges on every request: that was a write of its own inside the request's
transaction, paid by every keyed write.

The HTTP side (which requests are keyed, how answers are replayed) lives in
``tournaments.api.idempotency``; this module knows nothing of requests.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.errors import ConflictError, UserError, _
from tournaments.models import IdempotencyKey
from tournaments.services.statement_inserts import instance_insert

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


class IdempotencyKeyTakenError(Exception):
    """The key is claimed already: roll the claim's transaction back, then settle the key."""


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


# No savepoint of its own: a claim that finds the key taken leaves the caller's
# transaction to be rolled back (on PostgreSQL the refused insert has aborted it).
@transaction.atomic(savepoint=False)
def idempotency_key_claim(*, caller: str, key: str, fingerprint: str) -> IdempotencyKey:
    """Claim ``key`` for the request whose fingerprint is given, inside the
    transaction that then makes the write: one insert.

    Raises ``IdempotencyKeyTakenError`` when the key is claimed already; the
    caller rolls its transaction back and calls ``idempotency_key_settle``. A
    concurrent claim of the same key waits until the first one's transaction
    ends (PostgreSQL: on the unique index; SQLite: on the write lock its
    IMMEDIATE transaction took), and is then refused if that one committed.
    """
    if random.random() < PURGE_CHANCE:
        idempotency_keys_purge()
    try:
        return instance_insert(IdempotencyKey(caller=caller, key=key, fingerprint=fingerprint))
    except IntegrityError as exc:
        raise IdempotencyKeyTakenError(key) from exc


@transaction.atomic
def idempotency_key_settle(*, caller: str, key: str, fingerprint: str) -> None:
    """What a taken key answers, once the claim's transaction is rolled back.

    Raises ``IdempotentReplay`` with the stored answer when the same request
    was answered before, ``IdempotencyKeyReusedError`` when another request
    used the key, and a ``ConflictError`` when its answer was not kept.
    Returns (the key may be claimed again) when its row is gone (its first
    request was rolled back) or expired (deleted here).
    """
    stored = IdempotencyKey.objects.filter(caller=caller, key=key).first()
    if stored is None:
        return
    if stored.created < timezone.now() - KEY_LIFETIME:
        # An expired key is a new request: its old row gives way.
        stored.delete()
        return
    if stored.status is None:
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


@transaction.atomic(savepoint=False)
def idempotency_key_answer(*, claim: IdempotencyKey, answer: StoredAnswer | None) -> None:
    """Keep the answer to a claimed key, in the claim's transaction; None (an
    answer that cannot be replayed, e.g. streamed) releases the key instead."""
    if answer is None:
        claim.delete()
        return
    claim.status = answer.status
    claim.content = answer.content
    claim.headers = answer.headers
    # An update of the claimed row (no save(): its signals and field walk cost more).
    IdempotencyKey.objects.filter(pk=claim.pk).update(
        status=answer.status, content=answer.content, headers=answer.headers
    )
