"""Live answers: a page or state that many clients ask for again and again,
answered ``304 Not Modified`` while nothing shown has changed.

Vocabulary: a *live answer* is one that only a write to its tournament can
change: the tournament page, a round page, the standings (page, exports,
PDF, API), the projector's state, a match page's state. Its *tag* is a
strong ``ETag`` built from the tournament's *version*
(``caching.tournament_version``: its latest audit event, moved by every
write through a service) and from everything else that makes two answers of
that version differ: *what* is answered (the page, the state, the format),
the language, the *view* (the query parameters that change the answer, an
organiser's view or a visitor's, a match link) and, for a page in the site
layout, the *viewer* (their menu and rights are in it). Reading the tag costs
the one small version query, made before anything is rendered; a request
whose ``If-None-Match`` names the tag gets a 304 with no body (Django's own
``condition``: RFC 9110's evaluation, weak comparison for ``If-None-Match``).

Every live answer says ``Cache-Control: no-cache`` (keep it, but ask again
each time) and ``private`` when it depends on who asks: a viewer's page, or
any answer about a tournament that is not public. A tournament the user may
not see is a 404 before any tag is read, so no ``If-None-Match`` learns
anything of it. Only a 200 carries the tag (a redirect, a refusal never
does), and a page with messages waiting for the viewer carries none, so a
message is never hidden behind a 304 nor shown again from a kept copy.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.views.decorators.http import condition

from tournaments.actors import ActingUser
from tournaments.caching import Stamped, tournament_stamp, tournament_version
from tournaments.models import Tournament

# The tag's length in bytes of digest: plenty to never meet another answer's.
TAG_BYTES = 16


@dataclass(frozen=True)
class LiveTag:
    """An answer's strong ETag (quoted) and whether only its viewer may keep it."""

    etag: str
    private: bool
    # A page in the site layout: it shows the viewer's messages.
    page: bool


def query_view(pairs: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """A query string's parameters as a tag's view: sorted, so their order does not count."""
    return tuple(f"{name}={value}" for name, value in sorted(pairs))


def live_tag(
    *,
    tournament: Stamped,
    what: str,
    view: tuple[object, ...] = (),
    version: int | None = None,
    viewer: ActingUser | None = None,
) -> LiveTag:
    """The tag of ``what`` of the tournament as it is now (``version`` if read
    already, else one query). ``viewer``: the answer is a page in the site
    layout, which differs from one user to the next."""
    if version is None:
        version = tournament_version(tournament=tournament)
    who = "" if viewer is None else str(viewer.pk if viewer.is_authenticated else "anonymous")
    return _tag(
        head=(tournament_stamp(tournament=tournament), version),
        what=what,
        view=view,
        who=who,
        private=viewer is not None or not tournament.public,
        page=viewer is not None,
    )


def match_tag(*, tournament: Tournament, match_id: int, version: int) -> LiveTag:
    """The tag of a match page's state: the match's own version
    (``caching.match_version``), never equal to another match's; private, as
    the match link is a secret."""
    return _tag(
        head=(tournament_stamp(tournament=tournament), f"m{match_id}", version),
        what="match-state",
        view=(),
        who="",
        private=True,
        page=False,
    )


def _tag(
    *,
    head: tuple[object, ...],
    what: str,
    view: tuple[object, ...],
    who: str,
    private: bool,
    page: bool,
) -> LiveTag:
    parts = (*head, what, get_language() or "", who, *view)
    # Each part's length first, so that no two lists of parts read the same.
    text = "".join(f"{len(str(part))}:{part}" for part in parts)
    digest = hashlib.blake2b(text.encode(), digest_size=TAG_BYTES).hexdigest()
    return LiveTag(etag=f'"{digest}"', private=private, page=page)


def live_answer(
    request: HttpRequest | Any, *, tag: LiveTag, answer: Callable[[], HttpResponse]
) -> HttpResponse:
    """A 304 when ``If-None-Match`` names the tag; else ``answer()`` with the tag.

    ``request`` is Django's or DRF's (which hands Django's headers on)."""
    if tag.page and len(get_messages(request)):
        # Messages wait for this viewer: answer in full, and keep no tag for it.
        response = answer()
    else:

        @condition(etag_func=lambda _request: tag.etag)
        def conditional(_request: HttpRequest) -> HttpResponse:
            return answer()

        response = conditional(request)
    if response.status_code != 200 and response.status_code != 304:
        # A redirect or a refusal is no version of the answer.
        del response["ETag"]
    if tag.private:
        patch_cache_control(response, no_cache=True, private=True)
    else:
        patch_cache_control(response, no_cache=True)
    return response
