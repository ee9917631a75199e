"""``Idempotency-Key``: a retried API write answers what the first one did.

Vocabulary:

* a *keyed write* is a POST, PUT, PATCH or DELETE under ``/api/v1/`` that
  sends ``Idempotency-Key`` (1 to 100 printable characters; anything else is
  a 400 naming the header) from a *caller*: ``user:<id>`` for a user,
  ``match:<id>`` for a match grant. Anonymous requests (the token login) are
  not keyed.
* its *fingerprint* is the sha256 of the method, the path and the body as
  parsed, written canonically (JSON keys sorted, no whitespace), so a retry
  that reorders keys is still the same request.
* the *answer* is the rendered response: status, body, ``Content-Type``,
  ``Location`` and ``ETag``. Within 24 hours the same key from the same caller
  *replays* it (plus ``Idempotent-Replayed: true``) and writes nothing; with
  another fingerprint it answers 422. A 5xx is never kept: the write and the
  claim are rolled back together, so a retry tries again.

How it holds under concurrency: ``IdempotencyMiddleware`` runs every keyed
write in one transaction. ``IdempotencyGate`` claims the key inside it; it is
a DRF throttle because the throttle check is the one hook every API view runs
after authentication and permission checks, i.e. once the caller is known.
A second request with the same key waits for the first transaction to end
(see ``idempotency_key_claim``), then finds the answer the middleware kept
before committing, and replays it.

Requests without the header pay for one dictionary look-up here and one in
the gate. This module is imported while DRF defines ``APIView`` (it is a
default throttle class), so it imports no DRF view and no model at load time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.datastructures import MultiValueDict
from rest_framework.throttling import BaseThrottle

from scoring.errors import UserError, _

if TYPE_CHECKING:
    from rest_framework.request import Request

    from tournaments.models import IdempotencyKey
    from tournaments.services.idempotency import StoredAnswer

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEY_MAX_LENGTH = 100
API_PREFIX = "/api/v1/"
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Headers of an answer that say something about what was written.
KEPT_HEADERS = ("Content-Type", "Location", "ETag")

_META = "HTTP_IDEMPOTENCY_KEY"
# Set on the Django request: by the middleware (a transaction is open) and by the gate (its claim).
_OPEN = "idempotency_open"
_CLAIM = "idempotency_claim"


def idempotency_caller(request: Request) -> str | None:
    """Who keys this request: ``user:<id>``, ``match:<id>`` or nobody (anonymous)."""
    from .auth import match_grant  # at call time: auth imports DRF's views

    user = request.user
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    grant = match_grant(request)
    return f"match:{grant.match_id}" if grant is not None else None


def _file_digest(upload: UploadedFile) -> str:
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)  # the view reads it next
    return f"{upload.name}:{digest.hexdigest()}"


def _jsonable(value: Any) -> Any:
    if isinstance(value, UploadedFile):
        return _file_digest(value)
    return str(value)


def request_fingerprint(request: Request) -> str:
    """The sha256 of method, path and canonical body (see the module's docstring)."""
    data: Any = request.data
    if isinstance(data, MultiValueDict):  # a form or multipart body: repeated fields kept
        data = {name: data.getlist(name) for name in data}
    body = json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_jsonable
    )
    text = f"{request.method}\n{request._request.get_full_path()}\n{body}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _key_check(key: str) -> None:
    if not (0 < len(key) <= KEY_MAX_LENGTH and key.isprintable()):
        raise UserError(
            _("Send 1 to %(max)s printable characters as the Idempotency-Key."),
            field=HEADER,
            max=KEY_MAX_LENGTH,
        )


class IdempotencyGate(BaseThrottle):
    """Claims a keyed write's key once the caller is known; never throttles.

    A replay or a reused key leaves the view unrun: the gate raises, and the
    middleware (replay) or the exception handler (422) answers.
    """

    def allow_request(self, request: Request, view: Any) -> bool:
        raw = request._request
        key = raw.META.get(_META)
        # Without the middleware's transaction a claim could outlive its answer.
        if key is None or not getattr(raw, _OPEN, False):
            return True
        # A method the view does not answer is a 405 whatever its key: claiming
        # the key first would answer a reused one with a 422 instead.
        if getattr(view, (request.method or "").lower(), None) is None:
            return True
        _key_check(key)
        caller = idempotency_caller(request)
        if caller is None:
            return True
        from tournaments.services.idempotency import idempotency_key_claim

        claim = idempotency_key_claim(
            caller=caller, key=key, fingerprint=request_fingerprint(request)
        )
        setattr(raw, _CLAIM, claim)
        return True


def _answer_of(response: HttpResponse) -> StoredAnswer | None:
    from tournaments.services.idempotency import StoredAnswer

    if response.streaming:
        return None
    headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
    return StoredAnswer(status=response.status_code, content=response.content, headers=headers)


def replay_response(answer: StoredAnswer) -> HttpResponse:
    response = HttpResponse(answer.content, status=answer.status)
    for name, value in answer.headers.items():
        response[name] = value
    response[REPLAYED_HEADER] = "true"
    return response


class IdempotencyMiddleware:
    """Runs a keyed API write in one transaction and keeps its answer on the
    claimed key before it commits. Listed last, so the transaction holds the
    view alone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            _META not in request.META
            or request.method not in WRITE_METHODS
            or not request.path_info.startswith(API_PREFIX)
        ):
            return self.get_response(request)
        setattr(request, _OPEN, True)
        with transaction.atomic():
            response = self.get_response(request)
            claim: IdempotencyKey | None = getattr(request, _CLAIM, None)
            if claim is not None:
                if response.status_code >= 500:
                    # A bug answered: keep nothing, neither the write nor the key.
                    transaction.set_rollback(True)
                else:
                    from tournaments.services.idempotency import idempotency_key_answer

                    idempotency_key_answer(claim=claim, answer=_answer_of(response))
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from tournaments.services.idempotency import IdempotentReplay

        if isinstance(exception, IdempotentReplay):
            return replay_response(exception.answer)
        return None
