"""The one place where errors become HTTP answers for the API.

User errors (``scoring.errors.UserError`` and its subclasses) become DRF's
usual body, ``{"field": ["message"]}``, with the error's status and the
message translated into the request's language. Django's own
``ValidationError`` is treated the same way. Every "not found" (``Http404``,
which ``get_object_or_404`` raises naming the model, or DRF's ``NotFound``)
answers the one model-free sentence ``apikit.errors.NOT_FOUND``. Deleting an object that other
records still protect (a player with entries or games) is a 409; a body
over Django's limit a 413. Errors no API view answers (no URL matched, a
500) are made JSON by ``apikit.middleware``. Everything
else is left to DRF (and a real bug still surfaces as a 500 so that it gets
fixed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import exception_handler

from apikit.errors import not_found_body
from scoring.errors import NON_FIELD, ConflictError, NotFoundError, UserError, _


def user_error_body(error: UserError) -> dict[str, list[str]]:
    return {error.field or NON_FIELD: [error.render(gettext)]}


def _still_used(error: ProtectedError | RestrictedError) -> ConflictError:
    objects: Iterable[Any] = (
        getattr(error, "protected_objects", None)
        or getattr(error, "restricted_objects", None)
        or ()
    )
    used_by = sorted({str(obj._meta.verbose_name_plural) for obj in objects})
    return ConflictError(
        _("It cannot be deleted while %(used_by)s still refer to it."),
        used_by=", ".join(used_by) or "other records",
    )


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):
        # A form body over DATA_UPLOAD_MAX_MEMORY_SIZE (Django's parser counts as it reads).
        return Response(
            {"detail": gettext("The request body is too large.")},
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, Http404 | NotFound):
        # Django's message names the model ("No Game matches the given query."): not told.
        return Response(not_found_body(), status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, ProtectedError | RestrictedError):
        exc = _still_used(exc)
    if isinstance(exc, NotFoundError):
        # A 404 has DRF's body, whatever named the missing thing.
        return Response({"detail": exc.render(gettext)}, status=exc.status)
    if isinstance(exc, UserError):
        return Response(user_error_body(exc), status=exc.status)
    if isinstance(exc, DjangoValidationError):
        body = (
            {k: [str(m) for m in v] for k, v in exc.message_dict.items()}
            if hasattr(exc, "error_dict")
            else {NON_FIELD: [str(m) for m in exc.messages]}
        )
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    return exception_handler(exc, context)
