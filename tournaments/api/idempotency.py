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

How it holds under concurrency: the claim, the write and the kept answer
are one transaction. ``IdempotencyGate`` opens it and claims the key; it is a
DRF throttle because the throttle check is the one hook every API view runs
after authentication and permission checks, i.e. once the caller is known.
A view that sets ``idempotency_deferred`` claims later itself
(``idempotency_begin``), once it has read and checked everything it can
outside the transaction: on SQLite the transaction holds the database's one
write lock, so what runs inside it bounds how many writes a second the whole
site takes. ``IdempotencyMiddleware`` keeps the answer on the claimed key
and ends the transaction. A second request with the same key waits for the
first transaction to end (see ``idempotency_key_claim``), then finds the
answer kept before the commit, and replays it.

Requests without the header pay for one dictionary look-up here and one in
the gate. This module is imported while DRF defines ``APIView`` (it is a
default throttle class), so it imports no DRF view and no model at load time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

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

Handler = TypeVar("Handler", bound=Callable[..., Any])

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEY_MAX_LENGTH = 100
API_PREFIX = "/api/v1/"
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Headers of an answer that say something about what was written.
KEPT_HEADERS = ("Content-Type", "Location", "ETag")

_META = "HTTP_IDEMPOTENCY_KEY"
# Set on the Django request: by the middleware (a keyed write), and by the claim
# (the open transaction, entered by hand and left by the middleware, and the claimed key).
_OPEN = "idempotency_open"
_ATOMIC = "idempotency_atomic"
_CLAIM = "idempotency_claim"


def idempotency_caller(request: Request) -> str | None:
    """Who keys this request: ``user:<id>``, ``match:<id>`` or nobody (anonymous)."""
    from tournaments.api.auth import match_grant  # at call time: auth imports DRF's views

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


def idempotency_begin(request: Request) -> bool:
    """Open the keyed write's transaction and claim its key (nothing to do for
    a request that is not keyed); whether the request now runs in that
    transaction. Raises ``IdempotentReplay`` or a refusal as
    ``idempotency_key_claim`` does; the middleware ends the transaction."""
    raw = request._request
    key = raw.META.get(_META)
    if hasattr(raw, _ATOMIC):
        return True  # claimed already
    # Without the middleware a claim could outlive its answer.
    if key is None or not getattr(raw, _OPEN, False):
        return False
    _key_check(key)
    caller = idempotency_caller(request)
    if caller is None:
        return False
    _claim(raw, caller=caller, key=key, fingerprint=request_fingerprint(request))
    return True


def _claim(raw: HttpRequest, *, caller: str, key: str, fingerprint: str) -> None:
    from tournaments.services.idempotency import idempotency_key_claim

    atomic = transaction.atomic()
    atomic.__enter__()
    setattr(raw, _ATOMIC, atomic)
    setattr(raw, _CLAIM, idempotency_key_claim(caller=caller, key=key, fingerprint=fingerprint))


def idempotency_restart(request: Request) -> None:
    """Roll back everything the keyed write did and claim its key again in a
    new transaction, so that a refusal is still kept as the key's answer. A
    view that writes inside the key's transaction without a savepoint of its
    own (a savepoint costs two round trips on every game) calls it when the
    write is refused."""
    raw = request._request
    claim: IdempotencyKey | None = getattr(raw, _CLAIM, None)
    if claim is None:
        return
    IdempotencyMiddleware._end(raw, commit=False)
    delattr(raw, _CLAIM)
    _claim(raw, caller=claim.caller, key=claim.key, fingerprint=claim.fingerprint)


class IdempotencyGate(BaseThrottle):
    """Claims a keyed write's key once the caller is known, unless the view
    defers it (``idempotency_deferred``); never throttles.

    A replay or a reused key leaves the view unrun: the claim raises, and the
    middleware (replay) or the exception handler (422) answers.
    """

    def allow_request(self, request: Request, view: Any) -> bool:
        if _META not in request._request.META:
            return True
        # A method the view does not answer is a 405 whatever its key: claiming
        # the key first would answer a reused one with a 422 instead.
        handler = getattr(view, (request.method or "").lower(), None)
        if handler is None:
            return True
        if getattr(handler, "idempotency_deferred", False):
            _key_check(request._request.META[_META])  # a bad key is refused before any work
            return True
        idempotency_begin(request)
        return True


def idempotency_deferred(handler: Handler) -> Handler:
    """Marks a view's handler that calls ``idempotency_begin`` itself."""
    handler.idempotency_deferred = True  # type: ignore[attr-defined]
    return handler


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
    """Keeps a keyed API write's answer on its claimed key and then ends the
    transaction the claim opened. Listed last, so that transaction holds the
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
        try:
            response = self.get_response(request)
        except BaseException:
            self._end(request, commit=False)
            raise
        claim: IdempotencyKey | None = getattr(request, _CLAIM, None)
        # A bug answered (5xx), or no key was claimed (a refusal, a replay): keep nothing.
        keep = claim is not None and response.status_code < 500
        try:
            if claim is not None and keep:
                from tournaments.services.idempotency import idempotency_key_answer

                idempotency_key_answer(claim=claim, answer=_answer_of(response))
        except BaseException:
            self._end(request, commit=False)
            raise
        self._end(request, commit=keep)
        return response

    @staticmethod
    def _end(request: HttpRequest, *, commit: bool) -> None:
        atomic = getattr(request, _ATOMIC, None)
        if atomic is None:
            return
        delattr(request, _ATOMIC)
        if not commit:
            transaction.set_rollback(True)
        atomic.__exit__(None, None, None)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from tournaments.services.idempotency import IdempotentReplay

        if isinstance(exception, IdempotentReplay):
            return replay_response(exception.answer)
        return None
