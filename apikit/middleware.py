"""Every answer under ``/api/v1/`` is JSON, even Django's own.

Vocabulary: an *API path* starts with ``/api/v1/``; a *Django error page* is
an error answer no API view rendered (no URL matched: 404; a body over
``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413; an uncaught bug: 500; Django's 400 and
403 pages). API views answer through the exception handler
(``config.exceptions``) already; this middleware turns the rest into the
same *detail* body (``{"detail": "..."}``, see ``apikit.errors``),
keeping the status and headers such as ``Retry-After``.

A body longer than the view reads is refused before anything reads it
(413, by ``config.body_limits``, the one rule of every address's limit).
Answers are in the language the client asks for (``Accept-Language``).

Listed first, so that it sees what every other layer answered, including
the 500 page Django makes of an uncaught exception.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext

from apikit.errors import NOT_FOUND
from scoring.errors import _

API_PREFIX = "/api/v1/"
# Headers the JSON answer writes afresh.
_OWN_HEADERS = frozenset({"content-type", "content-length"})

_DETAILS = {
    400: _("Bad request."),
    403: _("You do not have permission to perform this action."),
    404: NOT_FOUND,
    405: _("Method not allowed."),
    401: _("Authentication credentials were not provided."),
    413: _("The request body is too large."),
    429: _("Too many attempts: try again later."),
    500: _("Server error."),
    503: _("The service is unavailable: try again later."),
}


def _is_json(response: HttpResponse) -> bool:
    content_type = response.get("Content-Type", "")
    return content_type.split(";")[0].strip().endswith("json")


def api_error_json(*, status: int, headers: dict[str, str] | None = None) -> JsonResponse:
    """The detail body for ``status``, with ``headers`` carried over."""
    template = _DETAILS.get(status) or _DETAILS[500 if status >= 500 else 400]
    # Keeps Retry-After (a lock-out's 429, a 503) and whatever else the page said in headers.
    response = JsonResponse({"detail": gettext(template)}, status=status)
    for name, value in (headers or {}).items():
        if name.lower() not in _OWN_HEADERS:
            response[name] = value
    return response


class ApiJsonErrorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code < 400
            or not request.path_info.startswith(API_PREFIX)
            or _is_json(response)
            # DRF rendered it (the browsable API's HTML for a browser): already an answer.
            or hasattr(response, "accepted_renderer")
        ):
            return response
        # No view may have run (no URL matched): the client's language, as a view's answer.
        with translation.override(translation.get_language_from_request(request)):
            return api_error_json(status=response.status_code, headers=dict(response.items()))

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: Any,
        view_kwargs: Any,
    ) -> HttpResponse | None:
        """Answers an API request in the language its client asks for."""
        if not request.path_info.startswith(API_PREFIX):
            return None
        # The API has no language prefix, so the site's rule (no prefix: the default
        # language) would answer every client in English: it answers in the language
        # the client asks for instead (Accept-Language, or the site's language cookie).
        language = translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        return None
