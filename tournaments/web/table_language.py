"""The tournament's language at its tables.

Vocabulary: a *table's page* is one a player opens at the table or in the
hall: a match's page (``/m/<token>/``, the QR code on its score sheet), its
turn timer, the projector screen and find my table. Each opens in the
*tournament's language* (its ``language``, the address's prefix:
``/da/m/<token>/``), whatever language the phone asks for. A visitor who
picked a language with the switcher (Django's ``set_language``, which keeps
it in the language cookie) has made their *own choice*: it wins over the
tournament's. A table's page asked for in another language than the one
wanted answers with a redirect to the same address in that language; a form
posted to it is taken in the language of its address.

The links printed and shown for a table's pages (``table_path``) carry the
tournament's prefix, so a QR code opens the right language without a redirect.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse, translate_url
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from tournaments.models import Tournament

LANGUAGES = frozenset(code for code, _name in settings.LANGUAGES)


def language_chosen(request: HttpRequest) -> str | None:
    """The language the visitor picked with the switcher, if any (and one the site speaks)."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return chosen if chosen in LANGUAGES else None


def language_wanted(request: HttpRequest, tournament: Tournament) -> str:
    """The language a table's page answers in: the visitor's own choice, else the tournament's."""
    chosen = language_chosen(request)
    if chosen is not None:
        return chosen
    return tournament.language if tournament.language in LANGUAGES else settings.LANGUAGE_CODE


def table_language_redirect(
    request: HttpRequest, tournament: Tournament
) -> HttpResponseRedirect | None:
    """A redirect to this address in the wanted language, or None where it is
    in that language already (or is a form posted)."""
    if request.method not in {"GET", "HEAD"}:
        return None
    wanted = language_wanted(request, tournament)
    if wanted == translation.get_language():
        return None
    here = request.get_full_path()
    there = translate_url(here, wanted)
    if there == here:
        return None
    response = HttpResponseRedirect(there)
    # The answer depends on the language cookie: no cache may keep it for another visitor.
    patch_vary_headers(response, ("Cookie",))
    add_never_cache_headers(response)
    return response


def table_path(name: str, *, tournament: Tournament, **kwargs: Any) -> str:
    """The address of a table's page (``web:match``, ``web:tables``...) in the
    tournament's language: ``/da/m/<token>/``, ``/m/<token>/`` for English."""
    language = tournament.language if tournament.language in LANGUAGES else settings.LANGUAGE_CODE
    with translation.override(language):
        return reverse(name, kwargs=kwargs)
