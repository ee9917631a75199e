"""``Idempotency-Key``: a retried API write answers what the first one did.

Vocabulary:

* a *keyed write* is a POST, PUT, PATCH or DELETE to a view that takes
  ``IdempotentWritesMixin`` and sends ``Idempotency-Key`` (1 to 100
  printable characters; anything else is a 400 naming the header) from a
  *caller*: ``user:<id>`` for a user, ``match:<id>:<digest>`` for a match
  grant (the digest is of the token itself: a new link for the table is
  another caller, which replays nothing the old link sent). Anonymous
  requests (the token login) are not keyed, nor is a method the view does not
  answer (a 405 whatever its key).
* its *fingerprint* is the sha256 of the method, the path and the body as
  parsed, written canonically (JSON keys sorted, no whitespace), so a retry
  that reorders keys is still the same request.
* the *answer* is the rendered response: status, body, ``Content-Type``,
  ``Location`` and ``ETag``. Within 24 hours the same key from the same caller
  *replays* it (plus ``Idempotent-Replayed: true``) and writes nothing, but
  only while the caller may still do what the key did (``replay_check``: a
  co-organiser removed since is refused as any write of hers would be); with
  another fingerprint it answers 422. A 5xx is never kept: the write and the
  claim are rolled back together, so a retry tries again.
* a view's *preparation* (``write_prepare``) is what a write reads and checks
  before its transaction (validation, scoring): on SQLite that transaction
  holds the database's one write lock, so what runs inside it bounds how many
  writes a second the whole site takes.

The mixin is the protocol's one place. It runs the view's handler as
``APIView.dispatch`` does, except that a keyed write's handler runs inside
one transaction that first *claims* the key (``idempotency_key_claim``),
then writes, then keeps the rendered answer on the key before it *commits*.
A *refusal* (the handler raised) *restarts*: that transaction is rolled back,
so nothing the handler wrote stays, and a new one claims the key again and
keeps the refusal as its answer. A claim that finds the key taken rolls back
and *settles* it (``idempotency_key_settle``): the stored answer is replayed,
or another request's key answers 422; a concurrent request with the same key
waits for the first one's transaction and then replays its answer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.datastructures import MultiValueDict
from rest_framework.exceptions import (
    AuthenticationFailed,
    NotAuthenticated,
    NotFound,
    PermissionDenied,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.errors import ConflictError, UserError, _
from tournaments.api.auth import match_grant
from tournaments.services.idempotency import (
    IdempotencyKeyTakenError,
    IdempotentReplay,
    StoredAnswer,
    idempotency_key_answer,
    idempotency_key_claim,
    idempotency_key_settle,
)

if TYPE_CHECKING:
    _ViewBase = APIView
else:
    _ViewBase = object

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEY_MAX_LENGTH = 100
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Headers of an answer that say something about what was written.
KEPT_HEADERS = ("Content-Type", "Location", "ETag")
# A key is claimed again after a refusal, an expired row or a first request
# rolled back meanwhile: more rounds than that mean it keeps changing hands.
CLAIM_ROUNDS = 4

_META = "HTTP_IDEMPOTENCY_KEY"
# What a preparation or a replay check refuses when the caller may not write there.
RIGHTS_REFUSALS = (
    NotAuthenticated,
    AuthenticationFailed,
    PermissionDenied,
    DjangoPermissionDenied,
    NotFound,
    Http404,
)
NOT_FOUND = (NotFound, Http404)
Handler = Callable[..., Response]


def idempotency_caller(request: Request) -> str | None:
    """Who keys this request: ``user:<id>``, ``match:<id>`` or nobody (anonymous)."""
    user = request.user
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    grant = match_grant(request)
    if grant is None:
        return None
    token = grant.match.token if grant.match is not None else ""
    return f"match:{grant.match_id}:{hashlib.sha256(token.encode()).hexdigest()[:16]}"


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
    text = f"{request.method}\n{request.get_full_path()}\n{body}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _key_check(key: str) -> None:
    if not (0 < len(key) <= KEY_MAX_LENGTH and key.isprintable()):
        raise UserError(
            _("Send 1 to %(max)s printable characters as the Idempotency-Key."),
            field=HEADER,
            max=KEY_MAX_LENGTH,
        )


@dataclass(frozen=True)
class KeyedWrite:
    """Who sent which key with which request."""

    caller: str
    key: str
    fingerprint: str


def keyed_write(request: Request, handler: Handler | None) -> KeyedWrite | None:
    """The request's key, caller and fingerprint, or None when it is not a
    keyed write. A malformed key is refused (400) before any work."""
    key = request.META.get(_META)
    if key is None or request.method not in WRITE_METHODS or handler is None:
        return None
    _key_check(key)
    caller = idempotency_caller(request)
    if caller is None:
        return None
    return KeyedWrite(caller, key, request_fingerprint(request))


def _answer_of(response: HttpResponseBase) -> StoredAnswer | None:
    if response.streaming or not isinstance(response, HttpResponse):
        return None
    render = getattr(response, "render", None)
    if render is not None:  # a DRF or template response renders its body now, to keep it
        render()
    headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
    return StoredAnswer(status=response.status_code, content=response.content, headers=headers)


def replay_response(answer: StoredAnswer) -> HttpResponse:
    response = HttpResponse(answer.content, status=answer.status)
    for name, value in answer.headers.items():
        response[name] = value
    response[REPLAYED_HEADER] = "true"
    return response


class _Refused(Exception):
    """The handler raised inside the key's transaction: roll it back, then keep the refusal."""


class IdempotentWritesMixin(_ViewBase):
    """An API view whose writes follow the ``Idempotency-Key`` protocol (see
    the module's docstring); a view whose writes need reads and checks first
    does them in ``write_prepare``, outside the key's transaction.

    ``write_keyed`` tells the handler that it runs inside the key's
    transaction, which is rolled back whole after any refusal: the services
    it calls need no savepoint of their own there."""

    write_keyed = False

    def write_prepare(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """Reads and checks a write needs before its transaction, kept on the
        view for the handler; a refusal raised here is answered (and kept on
        the key) as the handler's would be. Runs for every write method."""

    def replay_check(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """Before a key's answer is replayed: raise what a write of the caller's
        would be refused with now, if they may no longer do what the key did.
        Runs only on a replay. By default the object the URL names, read as a
        write reads it (``get_object`` checks its permission); a view whose
        parent is found otherwise checks that."""
        get_object = getattr(self, "get_object", None)
        lookup = getattr(self, "lookup_url_kwarg", None) or getattr(self, "lookup_field", None)
        if get_object is not None and lookup in kwargs:
            get_object()

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # APIView.dispatch, with the handler run through the key's protocol.
        self.args = args
        self.kwargs = kwargs
        drf_request = self.initialize_request(request, *args, **kwargs)
        self.request = drf_request
        self.headers = self.default_response_headers
        try:
            self.initial(drf_request, *args, **kwargs)
            method = (drf_request.method or "").lower()
            answers = method in self.http_method_names
            handler: Handler | None = getattr(self, method, None) if answers else None
            keyed = keyed_write(drf_request, handler)
            if handler is None:
                response = self.http_method_not_allowed(drf_request, *args, **kwargs)
            elif keyed is not None:
                return self._keyed_answer(keyed, handler, drf_request, args, kwargs)
            else:
                if drf_request.method in WRITE_METHODS:
                    self.write_prepare(drf_request, *args, **kwargs)
                response = handler(drf_request, *args, **kwargs)
        except Exception as exc:
            response = self.handle_exception(exc)
        self.response = self.finalize_response(drf_request, response, *args, **kwargs)
        return self.response

    def _keyed_answer(
        self,
        keyed: KeyedWrite,
        handler: Handler,
        request: Request,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponseBase:
        """Claim, write, keep the answer and commit; restart after a refusal;
        settle a taken key (replay it, or refuse it)."""
        refusal: Exception | None = None
        try:
            self.write_prepare(request, *args, **kwargs)
        except Exception as exc:
            refusal = exc
        for _round in range(CLAIM_ROUNDS):
            try:
                with transaction.atomic():
                    claim = idempotency_key_claim(
                        caller=keyed.caller, key=keyed.key, fingerprint=keyed.fingerprint
                    )
                    if refusal is None:
                        self.write_keyed = True
                        try:
                            response = handler(request, *args, **kwargs)
                        except Exception as exc:
                            refusal = exc
                            raise _Refused from exc
                    else:
                        # A bug is not a refusal: it leaves as itself, nothing kept.
                        response = self.handle_exception(refusal)
                    response = self.finalize_response(request, response, *args, **kwargs)
                    if response.status_code >= 500:
                        transaction.set_rollback(True)  # neither the write nor the key
                    else:
                        idempotency_key_answer(claim=claim, answer=_answer_of(response))
                    self.response = response
                    return response
            except _Refused:
                continue
            except IdempotencyKeyTakenError:
                try:
                    idempotency_key_settle(
                        caller=keyed.caller, key=keyed.key, fingerprint=keyed.fingerprint
                    )
                except IdempotentReplay as replay:
                    return self._replay_answer(replay.answer, refusal, request, args, kwargs)
        raise ConflictError(
            _("A request with this Idempotency-Key is being answered; try again later."),
            field=HEADER,
        )

    def _replay_answer(
        self,
        answer: StoredAnswer,
        prepared: Exception | None,
        request: Request,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponseBase:
        """The stored answer, if the caller may still do what the key did;
        else the refusal a write would get now (nothing kept on the key). A
        bodiless answer (a deletion's 204) is replayed when what it deleted is
        gone: it tells nothing."""
        try:
            if isinstance(prepared, RIGHTS_REFUSALS):
                raise prepared
            self.replay_check(request, *args, **kwargs)
        except NOT_FOUND:
            if answer.content:
                return self._refusal_answer(Http404(), request, args, kwargs)
        except RIGHTS_REFUSALS as exc:
            return self._refusal_answer(exc, request, args, kwargs)
        return replay_response(answer)

    def _refusal_answer(
        self, exc: Exception, request: Request, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> HttpResponseBase:
        response = self.handle_exception(exc)
        self.response = self.finalize_response(request, response, *args, **kwargs)
        return self.response
