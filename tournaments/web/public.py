"""The public pages: the home page, a tournament, one round, the standings.

Vocabulary: a tournament page shows its rounds *inline* (every table of every
round) while they are few; past ``ROUNDS_INLINE_TABLES`` tables it shows only
the latest round and links the others, each of which has its own *round
page*. The *standings page* is the whole ranked list, sortable, paged, and
exported (CSV, XLSX, ODS, JSON) with every row, at its *canonical* address
(``standings_table.standings_query``: any other is redirected there, so junk
parameters never make cached pages); it marks the players with
games that await confirmation and says whether the standings count them. Both show the tournament's
ranking key first after the name (``tables``). Wherever standings or a
round's tables appear, games awaiting confirmation are said: a mark and a
footnote by the standings, each game's state in the tables.

Both pages order the players by the one *current ranking*
(``selectors.standings.ranking_current``), as the projector, the PDFs and
the API do: the qualifying standings, then the placings once semi-finals
are seated, then the *final placings*. Each names the stage its order comes
from and, once a stage is seated, links the qualifying table
(``?stage=qualifying``). Any user sees these pages of a visible tournament;
an organiser also gets links to the organiser desk and to the match pages.

The tournament page, a round page and the standings (page and exports) are
*live* (``tournaments.live``): each answers an ``ETag`` of the tournament's
version, its viewer and the query, and a 304 to it before anything is built.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin
from django_tables2.export.views import ExportMixin

from scoring import rules
from tournaments.live import live_answer, live_tag, query_view
from tournaments.models import Round, Tournament
from tournaments.selectors.clubs import club_invitations_pending
from tournaments.selectors.pages import rounds_numbered
from tournaments.selectors.people import clubs_listed
from tournaments.selectors.rounds import rounds_listed
from tournaments.selectors.standings import ranking_current, ranking_version_served
from tournaments.selectors.tournaments import (
    invitations_pending,
    tournaments_mine,
    tournaments_visible,
)
from tournaments.selectors.unconfirmed import Unconfirmed, unconfirmed_of
from tournaments.slugs import name_slug
from tournaments.standings.current import QUALIFYING, RankingCurrent
from tournaments.standings.ranking import CATEGORY_ABSENT, StandingRow, categories_of
from tournaments.web.pages import tournament_head_shown, tournament_shown
from tournaments.web.public_cache import (
    body_cached,
    body_flown,
    body_version_served,
    query_mark,
    round_boxes,
    view_cached,
)
from tournaments.web.standings_table import (
    PER_PAGE_DEFAULT,
    RowsPaginator,
    StandingsCells,
    StandingsExport,
    StandingsTable,
    ranking_said,
    standings_cells,
    standings_query,
)

STANDINGS_TOP = 10
ROUNDS_INLINE_TABLES = 40
# The tournament page's short standings: the ranking's column first, then these.
STANDINGS_SHORT = ("score", "games", "wins")


def home(request: HttpRequest) -> HttpResponse:
    logged_in = bool(request.user.is_authenticated)
    return render(
        request,
        "tournaments/home.html",
        {
            "tournaments": tournaments_visible(user=request.user),
            "mine": tournaments_mine(user=request.user),
            "clubs": clubs_listed(user=request.user),
            # Invitations to co-organise waiting for the user's answer.
            "invitations": list(invitations_pending(user=request.user)) if logged_in else [],
            # And those to co-organise a club (also on the clubs page).
            "club_invitations": (
                list(club_invitations_pending(user=request.user)) if logged_in else []
            ),
        },
    )


def _rounds_shown(
    tournament: Tournament, numbers: list[int], *, organiser: bool
) -> list[tuple[Round, list[SafeString]]]:
    """Those rounds, each with its tables' boxes (rendered only where a game changed)."""
    rounds = rounds_numbered(tournament=tournament, numbers=numbers)
    return round_boxes(
        tournament=tournament, rounds=rounds, organiser=organiser, context=_trust(tournament)
    )


def _trust(tournament: Tournament) -> dict[str, bool]:
    """What the rounds' tables say about confirmation: each game's state, and
    whether their totals count games the standings leave out."""
    return {
        "states": tournament.confirmation != Tournament.Confirmation.NONE,
        "excluded": tournament.standings_unconfirmed == Tournament.Unconfirmed.EXCLUDE,
    }


def _marked(
    cells: StandingsCells, unconfirmed: Unconfirmed
) -> list[tuple[StandingRow, list[str], int]]:
    """Each short-table row with the player's games awaiting confirmation."""
    return [(row, numbers, unconfirmed.of(row.player_id)) for row, numbers in cells.rows]


def stage_asked(request: HttpRequest) -> str | None:
    """``?stage=qualifying`` asks for the qualifying table; anything else, the current ranking."""
    return QUALIFYING if request.GET.get("stage", "").strip() == QUALIFYING else None


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    # The head only (one small query): a poll answered 304 reads no more.
    head = tournament_head_shown(request, slug)
    organiser = head.organiser
    # Read once for the tag, the body's key and the standings it shows.
    version = head.version
    tag = live_tag(
        tournament=head,
        what="tournament",
        view=(_viewed(organiser),),
        version=version,
        viewer=request.user,
    )

    def answer() -> HttpResponse:
        tournament = tournament_shown(request, slug)
        body = body_cached(
            tournament=tournament,
            page="tournament",
            organiser=organiser,
            version=version,
            build=lambda: render_to_string(
                "tournaments/_tournament_body.html",
                _tournament_body(tournament, organiser=organiser, version=version),
            ),
        )
        return render(
            request,
            "tournaments/tournament_detail.html",
            {"tournament": tournament, "body": body},
        )

    return live_answer(request, tag=tag, answer=answer)


def _viewed(organiser: bool) -> str:
    """Whose view a live page's tag names: an organiser's (desk and match links) or a visitor's."""
    return "organiser" if organiser else "visitor"


def _tournament_body(tournament: Tournament, *, organiser: bool, version: int) -> dict[str, Any]:
    listed = rounds_listed(tournament=tournament)
    # A club night shows every table; a big event only its latest round (each
    # round has its own page), so the page stays light at 1,000 players.
    every_round = sum(r.tables for r in listed) <= ROUNDS_INLINE_TABLES
    shown = [r.number for r in (listed if every_round else listed[-1:])]
    ranking = ranking_current(tournament=tournament, version=version)
    # The final placings in full; before that, the top of the order.
    rows = ranking.rows if ranking.decided else ranking.rows[:STANDINGS_TOP]
    cells = standings_cells(
        rows, ranking=tournament.ranking, columns=() if ranking.decided else STANDINGS_SHORT
    )
    stages = dict(Round.Stage.choices)
    unconfirmed = unconfirmed_of(tournament=tournament)
    return {
        "tournament": tournament,
        "rounds": _rounds_shown(tournament, shown, organiser=organiser),
        "round_links": [] if every_round else listed,
        **ranking_said(ranking=ranking, tournament=tournament),
        "unconfirmed": unconfirmed,
        **_trust(tournament),
        "ranking_labels": cells.labels,
        # Each row with the stage that placed it (shown once a stage is seated).
        "ranking_rows": [
            (row, numbers, stages.get(row.stage, ""), waiting)
            for row, numbers, waiting in _marked(cells, unconfirmed)
        ],
        "ranking_more": len(ranking.rows) > len(rows),
        "players_count": len(ranking.rows),
        "can_organise": organiser,
    }


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    # The head only (one small query): a poll answered 304 reads no more.
    head = tournament_head_shown(request, slug)
    organiser = head.organiser
    version = head.version
    tag = live_tag(
        tournament=head,
        what="round",
        view=(_viewed(organiser), number),
        version=version,
        viewer=request.user,
    )
    return live_answer(
        request,
        tag=tag,
        answer=lambda: _round_page(
            request, tournament_shown(request, slug), number, organiser=organiser, version=version
        ),
    )


def _round_page(
    request: HttpRequest, tournament: Tournament, number: int, *, organiser: bool, version: int
) -> HttpResponse:
    def build() -> str:
        rounds = _rounds_shown(tournament, [number], organiser=organiser)
        if not rounds:
            # Raised before anything is cached, so a round seated later shows.
            raise Http404(gettext("There is no such round."))
        context = {
            "tournament": tournament,
            "rounds": rounds,
            "round_links": rounds_listed(tournament=tournament),
            "current": number,
            "can_organise": organiser,
            **_trust(tournament),
        }
        return render_to_string("tournaments/_round_body.html", context)

    body = body_cached(
        tournament=tournament,
        page="round",
        organiser=organiser,
        build=build,
        parts=(number,),
        version=version,
    )
    return render(
        request,
        "tournaments/round_detail.html",
        {"tournament": tournament, "current": number, "body": body},
    )


class StandingsView(ExportMixin, SingleTableMixin, TemplateView):  # type: ignore[misc]  # django-tables2 is untyped
    """The full standings, sortable, with ``?_export=csv|xlsx|ods|json``."""

    template_name = "tournaments/standings.html"
    table_class = StandingsTable
    # A page of 100 rows keeps a 1,000-player event light; exports carry every row.
    table_pagination = {"per_page": PER_PAGE_DEFAULT, "paginator_class": RowsPaginator}
    export_class = StandingsExport
    export_formats = StandingsExport.ALLOWED

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # The head only (one small query): a poll answered 304 reads no more.
        # Not ``self.head``: that is the view's answer to a HEAD request.
        self.live_head = tournament_head_shown(request, kwargs["slug"])
        category = name_slug(request.GET.get("category", "").strip())
        self.export_name = f"{kwargs['slug']}-standings" + (f"-{category}" if category else "")
        self.stage = stage_asked(request)
        self._ranking: RankingCurrent | None = None
        self._waiting: Unconfirmed | None = None
        # Read once for the cached body's key and the standings rows': while a
        # new version's ranking is being built, the latest built one's; for the
        # page itself, while that version's body is being rendered, the latest
        # rendered one's (phones poll this page).
        self.version = ranking_version_served(
            tournament=self.live_head, stage=self.stage, version=self.live_head.version
        )
        if self._body_flown():
            self.version = body_version_served(
                tournament=self.live_head,
                page="standings",
                view=self._body_view(),
                version=self.version,
            )
        return super().dispatch(request, *args, **kwargs)

    @cached_property
    def tournament(self) -> Tournament:
        """The tournament itself, read once an answer is more than a 304."""
        return tournament_shown(self.request, self.kwargs["slug"])

    def _given(self) -> tuple[tuple[str, str], ...]:
        """The query as sent, every parameter and value, sorted."""
        get = self.request.GET
        return tuple(sorted((k, v) for k in get for v in get.getlist(k)))

    def _body_flown(self) -> bool:
        """The page of everyone's standings: its body is rendered as a flight."""
        return not self._exporting() and not self._category()

    def _body_view(self) -> tuple[object, ...]:
        """The body's view: the stage and the query (a canonical one by the
        time a body is rendered; any other is redirected first)."""
        return (self.stage or "current", query_mark(self._given()))

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Every parameter counts for the tag: a junk one is redirected (no tag) below.
        tag = live_tag(
            tournament=self.live_head,
            what="standings",
            view=query_view((k, v) for k in request.GET for v in request.GET.getlist(k)),
            version=self.version,
            viewer=request.user,
        )
        return live_answer(request, tag=tag, answer=lambda: self._answer(request, **kwargs))

    def _answer(self, request: HttpRequest, **kwargs: Any) -> HttpResponse:
        # Only the parameters the page reads, with values it shows differently, make
        # a page: any other address is sent to its canonical one, so no junk
        # parameter or value makes a cached body of its own.
        rows, categories = self._shape()
        query = standings_query(request.GET, rows=rows, categories=categories)
        if self._given() != query.pairs:
            return redirect(request.path + (f"?{urlencode(query.pairs)}" if query.pairs else ""))
        export_format = request.GET.get(self.export_trigger_param)
        if export_format is not None and StandingsExport.is_valid_format(export_format):
            if not query.category_known:
                return self._export_response(export_format)
            content, headers = view_cached(
                tournament=self.tournament,
                page="standings-export",
                # The stage asked for is in the query too; named, so no key can miss it.
                view=(export_format, self.stage or "current", query_mark(query.export_pairs)),
                build=lambda: self._export(export_format),
                version=self.version,
            )
            return HttpResponse(content, headers=headers)

        def build() -> str:
            context = self.get_context_data(**kwargs)
            return render_to_string("tournaments/_standings_body.html", context, request)

        # The sort and page links repeat the query string: the body is one per query.
        # One category's is kept as any other; one nobody carries shows no rows
        # and is not kept.
        if self._body_flown():
            body = body_flown(
                tournament=self.tournament,
                page="standings",
                view=self._body_view(),
                version=self.version,
                build=build,
            )
        elif query.category_known:
            body = body_cached(
                tournament=self.tournament,
                page="standings",
                organiser=False,
                parts=(self.stage or "current", query_mark(query.pairs)),
                version=self.version,
                build=build,
            )
        else:
            body = mark_safe(build())  # our own template, autoescaped
        return render(request, self.template_name, {"tournament": self.tournament, "body": body})

    def _export_response(self, export_format: str) -> HttpResponse:
        content, headers = self._export(export_format)
        return HttpResponse(content, headers=headers)

    def _shape(self) -> tuple[int, list[str]]:
        """How many rows the asked standings have, and everyone's categories: what
        the address is checked against. Kept small on its own, so an answer
        served from the cache reads no whole ranking to check its address (one
        entry per stage: a category's, free text, is never kept)."""
        if self._category():
            return len(self._ranking_read().rows), self._categories()
        return view_cached(
            tournament=self.tournament,
            page="standings-shape",
            view=(self.stage or "current",),
            build=lambda: (len(self._ranking_read().rows), self._categories()),
            version=self.version,
        )

    def _categories(self) -> list[str]:
        """The categories of everyone (the rows may be one category's); cached, no query."""
        everyone = ranking_current(
            tournament=self.tournament, stage=self.stage, version=self.version
        )
        return categories_of(everyone.rows)

    def _export(self, export_format: str) -> tuple[bytes, dict[str, str]]:
        response = self.create_export(export_format)
        return response.content, dict(response.headers)

    def _ranking_read(self) -> RankingCurrent:
        # Asked for twice when exporting (page context, then the export).
        if self._ranking is None:
            # One category: its players ranked from 1; one nobody carries: no rows.
            self._ranking = ranking_current(
                tournament=self.tournament,
                stage=self.stage,
                category=self._category(),
                version=self.version,
            )
        return self._ranking

    def get_table_data(self) -> list[StandingRow]:
        return list(self._ranking_read().rows)

    def _category(self) -> str:
        """``?category=``, trimmed as entries store it ("" = everyone)."""
        return self.request.GET.get("category", "").strip()[: rules.CATEGORY_MAX_LENGTH]

    def _category_absent(self) -> bool:
        """Whether ``?category=`` names a category no player carries (no rows)."""
        category = self._category()
        return bool(category) and category not in self._categories()

    def get_table_kwargs(self) -> dict[str, Any]:
        # The page leads with the ranking's column; the exports keep fixed columns.
        ranking = None if self._exporting() else self.tournament.ranking
        shown = self._ranking_read()
        kwargs: dict[str, Any] = {
            "ranking": ranking,
            "unconfirmed": self._unconfirmed().players,
            # Which stage placed each player, once a stage is seated.
            "staged": shown.staged and not shown.qualifying,
            "empty_hidden": ranking is not None,
        }
        if self._category_absent():
            # Not "no players have entered yet": the category asked for is nobody's.
            kwargs["empty_text"] = gettext(CATEGORY_ABSENT) % {"category": self._category()}
        return kwargs

    def _exporting(self) -> bool:
        return StandingsExport.is_valid_format(self.request.GET.get(self.export_trigger_param))

    def _unconfirmed(self) -> Unconfirmed:
        if self._waiting is None:
            self._waiting = unconfirmed_of(tournament=self.tournament)
        return self._waiting

    def get_dataset_kwargs(self) -> dict[str, str]:
        return {"title": gettext("Standings")}

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        ranking = self._ranking_read()
        context.update(ranking_said(ranking=ranking, tournament=self.tournament))
        context["export_formats"] = StandingsExport.ALLOWED
        context["unconfirmed"] = self._unconfirmed()
        context["categories"] = self._categories()
        context["category"] = self._category()
        context["category_absent"] = self._category_absent()
        context["stage"] = self.stage or ""
        return context
