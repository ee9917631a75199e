"""The public pages: the home page, a tournament, one round, the standings.

Vocabulary: a tournament page shows its rounds *inline* (every table of every
round) while they are few; past ``ROUNDS_INLINE_TABLES`` tables it shows only
the latest round and links the others, each of which has its own *round
page*. The *standings page* is the whole ranked list, sortable, paged, and
exported (CSV, XLSX, ODS, JSON) with every row; it marks the players with
games that await confirmation and says whether the standings count them. Both show the tournament's
ranking key first after the name (``tables``). Wherever standings or a
round's tables appear, games awaiting confirmation are said: a mark and a
footnote by the standings, each game's state in the tables. A *finished* tournament's page
shows its *final places*, read by the same selector as the final report PDF
(``standings.queries.final_places_for``), so the two always agree: once
semi-finals or a final are played, the places are decided there, and the
standings (every round counted) may put someone else first, so both pages
then say where the places are. Any user
sees these pages of a visible tournament; an organiser also gets links to the
organiser desk and to the match pages.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin
from django_tables2.export.views import ExportMixin

from scoring import rules
from tournaments.caching import tournament_version
from tournaments.models import Round, Tournament
from tournaments.selectors import clubs_listed, rounds_listed, tournaments_mine, tournaments_visible
from tournaments.selectors.standings import final_places_for, standings_shared
from tournaments.selectors.unconfirmed import Unconfirmed, unconfirmed_of
from tournaments.standings.ranking import StandingRow, categories_of, category_rows
from tournaments.web.pages import can_organise, tournament_shown
from tournaments.web.public_cache import body_cached, query_mark, round_boxes, view_cached
from tournaments.web.standings_table import (
    StandingsCells,
    StandingsExport,
    StandingsTable,
    standings_cells,
)

STANDINGS_TOP = 10
ROUNDS_INLINE_TABLES = 40
# The tournament page's short standings: the ranking's column first, then these.
STANDINGS_SHORT = ("score", "games", "wins")


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/home.html",
        {
            "tournaments": tournaments_visible(user=request.user),
            "mine": tournaments_mine(user=request.user),
            "clubs": clubs_listed(user=request.user),
        },
    )


def _rounds_shown(
    tournament: Tournament, numbers: list[int], *, organiser: bool
) -> list[tuple[Round, list[SafeString]]]:
    """Those rounds, each with its tables' boxes (rendered only where a game changed)."""
    rounds = list(tournament.round_set.filter(number__in=numbers).order_by("number"))
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


def _staged(rows: list[StandingRow]) -> bool:
    return any(row.stage != Round.Stage.QUALIFYING for row in rows)


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_shown(request, slug)
    organiser = can_organise(request, tournament)
    # Read once for the body's key and the standings it shows.
    version = tournament_version(tournament=tournament)
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
        request, "tournaments/tournament_detail.html", {"tournament": tournament, "body": body}
    )


def _tournament_body(tournament: Tournament, *, organiser: bool, version: int) -> dict[str, Any]:
    listed = rounds_listed(tournament=tournament)
    # A club night shows every table; a big event only its latest round (each
    # round has its own page), so the page stays light at 1,000 players.
    every_round = sum(r.tables for r in listed) <= ROUNDS_INLINE_TABLES
    shown = [r.number for r in (listed if every_round else listed[-1:])]
    standings = standings_shared(tournament=tournament, version=version)
    standings_table = standings_cells(
        standings[:STANDINGS_TOP], ranking=tournament.ranking, columns=STANDINGS_SHORT
    )
    finished = tournament.status == Tournament.Status.FINISHED
    places = final_places_for(tournament=tournament) if finished else []
    places_shown = standings_cells(places, ranking=tournament.ranking, columns=())
    stages = dict(Round.Stage.choices)
    unconfirmed = unconfirmed_of(tournament=tournament)
    return {
        "tournament": tournament,
        "rounds": _rounds_shown(tournament, shown, organiser=organiser),
        "round_links": [] if every_round else listed,
        "standings": standings[:STANDINGS_TOP],
        "standings_table": standings_table,
        "standings_rows": _marked(standings_table, unconfirmed),
        "unconfirmed": unconfirmed,
        **_trust(tournament),
        "places": places_shown.labels if finished else None,
        # Each place with the stage that decided it, once semi-finals or a final were played.
        "places_staged": _staged(places),
        "places_rows": [
            (row, cells, stages.get(row.stage, ""), waiting)
            for row, cells, waiting in _marked(places_shown, unconfirmed)
        ],
        "staged": any(r.stage != Round.Stage.QUALIFYING for r in listed),
        "standings_more": len(standings) > STANDINGS_TOP,
        "players_count": len(standings),
        "can_organise": organiser,
    }


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_shown(request, slug)
    organiser = can_organise(request, tournament)

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
        tournament=tournament, page="round", organiser=organiser, build=build, parts=(number,)
    )
    return render(
        request,
        "tournaments/round_detail.html",
        {"tournament": tournament, "current": number, "body": body},
    )


class RowsPaginator(Paginator):
    """Takes ``?per_page=`` from the address bar, but only 1 to 1,000."""

    def __init__(self, object_list: Any, per_page: int | str, *args: Any, **kwargs: Any) -> None:
        super().__init__(object_list, min(max(int(per_page), 1), 1000), *args, **kwargs)


class StandingsView(ExportMixin, SingleTableMixin, TemplateView):
    """The full standings, sortable, with ``?_export=csv|xlsx|ods|json``."""

    template_name = "tournaments/standings.html"
    table_class = StandingsTable
    # A page of 100 rows keeps a 1,000-player event light; exports carry every row.
    table_pagination = {"per_page": 100, "paginator_class": RowsPaginator}
    export_class = StandingsExport
    export_formats = StandingsExport.ALLOWED

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.tournament = tournament_shown(request, kwargs["slug"])
        category = slugify(request.GET.get("category", "").strip())
        self.export_name = f"{self.tournament.slug}-standings" + (
            f"-{category}" if category else ""
        )
        self._rows: list[StandingRow] | None = None
        self._waiting: Unconfirmed | None = None
        # Read once for the cached body's key and the standings rows'.
        self.version = tournament_version(tournament=self.tournament)
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        export_format = request.GET.get(self.export_trigger_param)
        query = query_mark(request.GET)
        if export_format is not None and StandingsExport.is_valid_format(export_format):
            content, headers = view_cached(
                tournament=self.tournament,
                page="standings-export",
                view=(export_format, query),
                build=lambda: self._export(export_format),
                version=self.version,
            )
            return HttpResponse(content, headers=headers)
        # The sort and page links repeat the query string: the body is one per query.
        body = body_cached(
            tournament=self.tournament,
            page="standings",
            organiser=False,
            parts=(query,),
            version=self.version,
            build=lambda: render_to_string(
                "tournaments/_standings_body.html", self.get_context_data(**kwargs), request
            ),
        )
        return render(request, self.template_name, {"tournament": self.tournament, "body": body})

    def _export(self, export_format: str) -> tuple[bytes, dict[str, str]]:
        response = self.create_export(export_format)
        return response.content, dict(response.headers)

    def get_table_data(self) -> list[StandingRow]:
        # Asked for twice when exporting (page context, then the export).
        if self._rows is None:
            self._rows = standings_shared(tournament=self.tournament, version=self.version)
        category = self._category()
        # One category: its players ranked from 1; one nobody carries: no rows.
        return category_rows(self._rows, category=category) if category else list(self._rows)

    def _category(self) -> str:
        """``?category=``, trimmed as entries store it ("" = everyone)."""
        return self.request.GET.get("category", "").strip()[: rules.CATEGORY_MAX_LENGTH]

    def get_table_kwargs(self) -> dict[str, Any]:
        # The page leads with the ranking's column; the exports keep fixed columns.
        ranking = None if self._exporting() else self.tournament.ranking
        return {"ranking": ranking, "unconfirmed": self._unconfirmed().players}

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
        # A finished tournament's places are decided on its page, not by this list.
        context["finished"] = self.tournament.status == Tournament.Status.FINISHED
        context["export_formats"] = StandingsExport.ALLOWED
        context["unconfirmed"] = self._unconfirmed()
        self.get_table_data()  # the rows, read once
        context["categories"] = categories_of(self._rows or [])
        context["category"] = self._category()
        return context
