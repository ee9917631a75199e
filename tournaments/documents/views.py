"""Printable files as HTTP answers: thin views over ``files``.

Vocabulary: an *organiser* (owner or staff) may print a round's score sheets;
the sheets carry every match's private entry link, so no one else may, even
for a public tournament (anonymous visitors are sent to log in, others get a
403; a tournament they may not see is a 404, as on every page). The standings
and the final report print like the standings page: for anyone who can see the
tournament (so a public tournament's report needs no login), answered 304
while nothing changed (``tournaments.live``). The
blank club pad needs no tournament and no login; its bad parameters get a 400
page saying what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from printing.pad import pad_parse, pad_pdf
from scoring import rules
from scoring.errors import UserError
from tournaments.access import tournament_organiser, tournaments_visible_q
from tournaments.caching import TournamentHead
from tournaments.documents import files
from tournaments.live import live_answer, live_tag
from tournaments.models import Round, Tournament
from tournaments.selectors.background import round_sheet_count
from tournaments.selectors.tournaments import tournament_head_visible
from tournaments.slugs import name_slug
from tournaments.tasks import scoresheets_enqueue

ROUND_MAX = 32767  # Round.number is a small integer; larger never exists
PREPARING_REFRESH = 3  # seconds between two looks at a set being prepared

P = ParamSpec("P")


def _pdf(content: bytes, *, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _site(request: HttpRequest) -> str:
    """The site's address as this request reached it, for the printed entry links."""
    return request.build_absolute_uri("/").rstrip("/")


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament with that slug if the user may see it; else 404."""
    visible = Tournament.objects.select_related("club").filter(
        tournaments_visible_q(user=request.user)
    )
    return get_object_or_404(visible, slug=slug)


def _head(request: HttpRequest, slug: str) -> TournamentHead:
    """The head of the tournament with that slug (``caching.TournamentHead``,
    one small query) if the user may see it; else 404."""
    head = tournament_head_visible(user=request.user, slug=slug)
    if head is None:
        raise Http404
    return head


def _organisers_only(
    view: Callable[Concatenate[HttpRequest, Tournament, P], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Log in (else to the login page), see the tournament (else 404), organise it (else 403)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        tournament = _tournament(request, slug)
        if not tournament_organiser(user=request.user, tournament=tournament):
            raise PermissionDenied
        return view(request, tournament, *args, **kwargs)

    return wrapped


@require_safe
@_organisers_only
def scoresheets(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    if not 1 <= number <= ROUND_MAX:
        raise Http404
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament  # already read, with its rules
    pages = round_sheet_count(round_=round_)
    if not pages:
        raise Http404
    site, filename = _site(request), f"{tournament.slug}-round-{number}-scoresheets.pdf"
    if pages <= settings.RACKSCORE_SHEETS_REQUEST_PAGES:
        return _pdf(files.scoresheets_pdf(round_=round_, base_url=site), filename=filename)
    # A large set: drawn by the task worker into the files cache, then served from it.
    pdf = files.scoresheets_ready(round_=round_, base_url=site)
    if pdf is None:
        scoresheets_enqueue(round_=round_, base_url=site)
        # (with tasks run in process, as in development, it is drawn by now)
        pdf = files.scoresheets_ready(round_=round_, base_url=site)
    if pdf is None:
        return _preparing(request, round_number=number, pages=pages)
    return _pdf(pdf, filename=filename)


def _preparing(request: HttpRequest, *, round_number: int, pages: int) -> HttpResponse:
    """202: a page that refreshes itself until the file is ready (plain text for
    clients that do not ask for HTML), with ``Retry-After``."""
    if "text/html" in request.headers.get("Accept", ""):
        response = render(
            request,
            "print/preparing.html",
            {"round": round_number, "pages": pages, "refresh_seconds": PREPARING_REFRESH},
            status=202,
        )
    else:
        text = gettext("The score sheets are being prepared; ask again in a few seconds.")
        response = HttpResponse(text, status=202, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(PREPARING_REFRESH)
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    head = _head(request, slug)
    # ``?category=`` as on the standings page: trimmed, bounded, unknown = no rows.
    category = request.GET.get("category", "").strip()[: rules.CATEGORY_MAX_LENGTH]
    tail = f"-{name_slug(category)}" if category else ""
    # 304 while the tournament's version stands (``tournaments.live``).
    tag = live_tag(tournament=head, what="standings-pdf", view=(category,))
    return live_answer(
        request,
        tag=tag,
        answer=lambda: _pdf(
            files.standings_pdf(tournament=_tournament(request, slug), category=category),
            filename=f"{slug}-standings{tail}.pdf",
        ),
    )


@require_safe
def report(request: HttpRequest, slug: str) -> HttpResponse:
    head = _head(request, slug)
    tag = live_tag(tournament=head, what="report-pdf", view=())
    return live_answer(
        request,
        tag=tag,
        answer=lambda: _pdf(
            files.report_pdf(tournament=_tournament(request, slug)),
            filename=f"{slug}-report.pdf",
        ),
    )


@require_safe
def pad(request: HttpRequest) -> HttpResponse:
    """``/scoresheet.pdf?players=2..4&games=1..30[&name=…][&lang=da][&paper=Letter][&joker=25]``."""
    query = request.GET
    try:
        sheet = pad_parse(
            players=query.get("players"),
            games=query.get("games"),
            names=query.getlist("name") + query.getlist("names"),
            language=query.get("lang"),
            languages=[code for code, _name in settings.LANGUAGES],
            default_language=translation.get_language() or settings.LANGUAGE_CODE,
            paper=query.get("paper"),
            joker=query.get("joker"),
        )
    except UserError as error:
        example = reverse("print:scoresheet") + "?" + urlencode({"players": 4, "games": 8})
        return render(
            request,
            "print/error.html",
            {"messages_list": [error.render(gettext)], "example": example},
            status=error.status,
        )
    return _pdf(pad_pdf(pad=sheet), filename="rummikub-scoresheet.pdf")
