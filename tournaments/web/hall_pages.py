"""The hall's pages: the projector screen, find my table, and the desk's round clock.

Vocabulary: the *screen* (``/t/<slug>/screen/``) is a page of its own layout
(no site menu) made for a projector: a *slide* at a time, each a page of the
standings (``SCREEN_ROWS`` rows of the current ranking, named by the stage
it comes from, as every page orders players) or of the
current round's tables (``SCREEN_TABLES`` tables: players in seat order with
their totals so far), cycling every ``SLIDE_SECONDS``; every slide is full, the
last one showing the last rows or tables (``screen_pages``). Its *head* names the
round and shows the round clock once the organiser has started it. The
slides are built once per tournament version (``public_cache``); the clock
is read on every request. With JavaScript the page cycles itself, counts the
clock down and asks ``/screen/state/`` every few seconds for the version
(and the clock) with the ``ETag`` it last had (a ``304`` while nothing
changed: ``tournaments.live``), fetching the page again only when the version moved;
without it, the page refreshes itself onto the next slide (``?slide=``).
*Find my table* (``/t/<slug>/tables/``) lists every active player A to Z
with their table and seat in the current round, narrowed by ``?q=`` (or, with
JavaScript, as a name is typed; accents and case aside either way), printed
``TABLES_PER_PAGE`` players a sheet. The desk's clock buttons post to
``round_clock_post``, which runs ``services.clock``. The screen and find my
table open in the tournament's language (``web.table_language``), and the
screen shows find my table's address in it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop

from scoring.errors import UserError
from tournaments.caching import tournament_version
from tournaments.live import live_answer, live_tag
from tournaments.models import Match, Round, Tournament
from tournaments.numbers import number_text
from tournaments.round_clock import ClockState
from tournaments.search_names import FOLDS, name_fold
from tournaments.selectors.hall import places_found, player_places, round_clock_of, round_current
from tournaments.selectors.rounds import rounds_for
from tournaments.selectors.standings import ranking_current, ranking_version_served
from tournaments.services import clock as clock_services
from tournaments.web.pages import (
    can_organise,
    desk_action,
    match_layout,
    organiser_required,
    tournament_head_shown,
    tournament_shown,
)
from tournaments.web.public_cache import view_cached
from tournaments.web.standings_table import ranking_said, standings_cells
from tournaments.web.table_language import table_language_redirect, table_path

T = TypeVar("T")
SCREEN_ROWS = 12
SCREEN_TABLES = 6
SLIDE_SECONDS = 12
# How often the screen asks whether anything changed.
POLL_SECONDS = 5
TABLES_PER_PAGE = 100
SEARCH_MAX = 120
SCREEN_COLUMNS = ("score", "games", "wins")


def _pages(items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def screen_pages(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """The projector's pages of ``size``, every one full: the last page shows the
    last ``size`` items (repeating the end of the page before it) rather than a
    remainder of two rows on an empty screen."""
    pages = _pages(items, size)
    if len(pages) > 1 and len(pages[-1]) < size:
        pages[-1] = items[len(items) - size :]
    return pages


def _slides(tournament: Tournament, round_: Round | None, version: int) -> list[str]:
    """Every slide's HTML: the standings' pages, then the current round's tables'."""
    ranking = ranking_current(tournament=tournament, version=version)
    cells = standings_cells(ranking.rows, ranking=tournament.ranking, columns=SCREEN_COLUMNS)
    said = ranking_said(ranking=ranking, tournament=tournament)
    slides: list[str] = [
        render_to_string(
            "tournaments/screen/_standings.html",
            {"labels": cells.labels, "rows": page, **said},
        )
        for page in screen_pages(cells.rows, SCREEN_ROWS)
    ]
    if round_ is not None:
        latest = list(rounds_for(tournament=tournament, numbers=[round_.number]))
        matches = list(latest[0].matches.all()) if latest else []
        slides += [
            render_to_string(
                "tournaments/screen/_tables.html",
                {"round": round_, "tables": [_table_shown(m) for m in page]},
            )
            for page in screen_pages(matches, SCREEN_TABLES)
        ]
    return slides


def _table_shown(match: Match) -> dict[str, Any]:
    """A table as the screen shows it: its seats in order with their totals so far."""
    # Racks waiting for a second entry stay hidden, as on every public page.
    view = match_layout(match, withhold=True)
    return {
        "table": match.table,
        "done": len(view.games),
        "planned": view.planned,
        "seats": [
            (seat.player.name, number_text(total, signed=True))
            for seat, total in zip(view.seats, view.totals, strict=True)
        ],
    }


def _slide_asked(request: HttpRequest, count: int) -> int:
    """The slide the address asks for (1-based), wrapped into range."""
    try:
        asked = int(request.GET.get("slide", "1"))
    except ValueError:
        asked = 1
    return (asked - 1) % count + 1 if count else 1


def screen(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_shown(request, slug)
    moved = table_language_redirect(request, tournament)
    if moved is not None:
        return moved
    version = tournament_version(tournament=tournament)
    round_ = round_current(tournament=tournament)
    slides: list[str] = view_cached(
        tournament=tournament,
        page="screen",
        view=(),
        version=version,
        build=lambda: _slides(tournament, round_, version),
    )
    current = _slide_asked(request, len(slides))
    return render(
        request,
        "tournaments/screen/screen.html",
        {
            "tournament": tournament,
            "round": round_,
            "clock": round_clock_of(tournament=tournament, round_=round_),
            "slides": slides,
            "current": current,
            "next": current % len(slides) + 1 if slides else 1,
            "version": version,
            "slide_seconds": SLIDE_SECONDS,
            "poll_seconds": POLL_SECONDS,
            "tables_url": request.build_absolute_uri(
                table_path("web:tables", tournament=tournament, slug=tournament.slug)
            ),
        },
    )


def _clock_json(clock: ClockState | None) -> dict[str, Any] | None:
    if clock is None or not clock.shown:
        return None
    return {"state": clock.state, "remaining": clock.remaining, "text": clock.text}


def screen_state(request: HttpRequest, slug: str) -> HttpResponse:
    """What the screen polls: the tournament's version and the round clock,
    ``304`` while the version stands (``tournaments.live``). The clock moves
    only by the desk's buttons, which move the version; between them the
    screen counts the clock down itself."""
    # The head only (one small query): a poll answered 304 reads no more.
    head = tournament_head_shown(request, slug)
    # While a new version's ranking is being built, the latest built one's.
    version = ranking_version_served(tournament=head, version=head.version)
    tag = live_tag(tournament=head, what="screen-state", version=version)

    def answer() -> JsonResponse:
        tournament = tournament_shown(request, slug)
        round_ = round_current(tournament=tournament)
        # Kept per version (the slides read it too): no query once the screen was shown.
        ranking = ranking_current(tournament=tournament, version=version)
        return JsonResponse(
            {
                "version": version,
                "clock": _clock_json(round_clock_of(tournament=tournament, round_=round_)),
                # The order the standings slides show and the stage it comes from.
                "stage": ranking.stage,
                "stage_label": gettext(ranking.label),
                "decided": ranking.decided,
                "players": [row.player_id for row in ranking.rows],
            }
        )

    return live_answer(request, tag=tag, answer=answer)


def tables(request: HttpRequest, slug: str) -> HttpResponse:
    """Find my table: every active player with their table and seat in the current round."""
    tournament = tournament_shown(request, slug)
    moved = table_language_redirect(request, tournament)
    if moved is not None:
        return moved
    search = request.GET.get("q", "")[:SEARCH_MAX]
    round_ = round_current(tournament=tournament)
    places = view_cached(
        tournament=tournament,
        page="tables",
        view=(),
        build=lambda: player_places(tournament=tournament, round_=round_),
    )
    found = places_found(places, search=search)
    # Each row carries its name folded; the page's script folds what is typed
    # with the same table (``search_names.FOLDS``), so both agree.
    rows = [(place, name_fold(place.name)) for place in found]
    return render(
        request,
        "tournaments/tables.html",
        {
            "tournament": tournament,
            "round": round_,
            "search": search,
            "folds": FOLDS,
            "pages": _pages(rows, TABLES_PER_PAGE),
            "found": len(found),
            "total": len(places),
            "can_organise": can_organise(request, tournament),
        },
    )


# Each desk button: the service it runs and what the desk says once it has.
CLOCK_ACTIONS: dict[str, tuple[Callable[..., Round], str]] = {
    "start": (clock_services.round_clock_start, gettext_noop("Round %(number)s: the clock runs.")),
    "pause": (
        clock_services.round_clock_pause,
        gettext_noop("Round %(number)s: the clock is paused."),
    ),
    "reset": (
        clock_services.round_clock_reset,
        gettext_noop("Round %(number)s: the clock is reset."),
    ),
}


@desk_action
@organiser_required
def round_clock_post(
    request: HttpRequest, tournament: Tournament, number: int, action: str
) -> HttpResponse:
    """Start (or resume), pause or reset a round's clock; back to the desk."""
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    service, done = CLOCK_ACTIONS[action]
    try:
        service(round_=round_, user=request.user)
    except UserError as error:
        messages.error(request, error.render(gettext))
    else:
        messages.success(request, gettext(done) % {"number": number})
    return HttpResponseRedirect(reverse("web:organise", kwargs={"slug": tournament.slug}))
