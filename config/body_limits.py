"""How large a request body each address takes, refused before anything reads it.

Vocabulary: a request's *body* is what it declares in ``Content-Length``
(Django reads no more than that, and nothing of a body sent without it). One
rule (``body_max``) says which address takes how much:

* the API (``/api/v1/``): its view's ``body_max``, by default
  ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (DRF's JSON parser reads the stream, past
  Django's own check); a view that judges a larger body itself (a backup
  file, with its own 413 body) sets None;
* a page, for a *visitor* (a request with no signed-in user: the login form,
  a table's match page, whose private link is its credential, the language
  switch), whose forms are a few hundred bytes: ``RACKSCORE_VISITOR_BODY_MAX``
  (64 KiB);
* a page, for a signed-in user: ``DATA_UPLOAD_MAX_MEMORY_SIZE``, except the
  *upload pages*: a players list (``PLAYERS_FILE_MAX``, the desk's CSV
  limit) and a backup (``RACKSCORE_BACKUP_MAX_MB``, the backups' own limit),
  each with room for the form around the file.

Over the limit the answer is 413 before the CSRF check or a view reads the
body (Django's own limits count a multipart form's fields, not its files,
which it spools to disk however large): the API's as JSON, in the client's
language (``apikit.middleware``), a page's as the plain 413 page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from apikit.middleware import API_PREFIX, api_error_json
from tournaments.web.desk_forms import FILE_MAX as PLAYERS_FILE_MAX

# What a multipart form adds around its file: boundaries, headers, other fields.
FORM_ROOM = 64 * 1024


def upload_max(view_name: str) -> int | None:
    """The body an upload page takes from a signed-in user; None for other pages."""
    if view_name == "web:tournament-restore":
        return int(settings.RACKSCORE_BACKUP_MAX_MB) * 1024 * 1024 + FORM_ROOM
    if view_name == "web:players-import":
        return PLAYERS_FILE_MAX + FORM_ROOM
    return None


def body_max(request: HttpRequest, view_func: Callable[..., HttpResponse]) -> int | None:
    """The largest body ``request`` may send to ``view_func``, by where and who
    sends it (None: the view judges the length itself)."""
    if request.path_info.startswith(API_PREFIX):
        view_class = getattr(view_func, "cls", None)
        limit: int | None = getattr(view_class, "body_max", settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        return limit
    if not request.user.is_authenticated:
        return int(settings.RACKSCORE_VISITOR_BODY_MAX)
    match = request.resolver_match
    upload = upload_max(match.view_name) if match is not None else None
    return upload if upload is not None else int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


def body_declared(request: HttpRequest) -> int:
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0


class BodyLimitMiddleware:
    """Answers 413 to a request whose body is over its limit (``body_max``).

    Judged in ``process_view``: the URL is resolved (the view, for the upload
    pages and the API's limits) and the user known, and it runs before
    ``CsrfViewMiddleware``'s, which is the first to read a form, since it is
    listed before it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: Any,
        view_kwargs: Any,
    ) -> HttpResponse | None:
        declared = body_declared(request)
        limit = body_max(request, view_func) if declared else None
        if limit is None or declared <= limit:
            return None
        if request.path_info.startswith(API_PREFIX):
            return api_error_json(status=413)
        return HttpResponse(render_to_string("413.html", request=request), status=413)
