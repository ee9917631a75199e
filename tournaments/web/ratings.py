"""The rating list: ``/ratings/`` (every club, or one with ``?club=<id>``).

Vocabulary as in ``selectors.ratings``. The page shows a page of 100 players
at a time, sortable by rank, name, rating or games, and exports every row as
CSV, XLSX, ODS or JSON (spreadsheet cells made inert, as the standings'
exports are). A ``club`` that is not a club the visitor may see with a rated
member is a 404. ``page`` and ``per_page`` are read as on the standings page
(``standings_table.RowsPaginator``): a page that is not a number, or below 1,
is the first, one past the last the last; 1 to 1,000 rows a page, a
``per_page`` of 0 or not a number the default. The club page's rating list
(``rating_list_top``) is the club's first players, drawn from the same
template.
"""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from django_tables2.export.views import ExportMixin
from django_tables2.views import SingleTableMixin
from tablib import Dataset

from tournaments.models import Club
from tournaments.numbers import number_text
from tournaments.ratings.engine import PROVISIONAL_GAMES
from tournaments.selectors.ratings import rating_clubs, rating_list
from tournaments.web.standings_table import RowsPaginator, StandingsExport, cell_inert

PER_PAGE = 100
# The players a club's page lists before its link to the whole list.
CLUB_PAGE_ROWS = 10


class RatingsExport(StandingsExport):
    """The standings' export formats and inert cells, over the rating rows (dicts)."""

    def table_to_dataset(self, table: Any, exclude_columns: Any, dataset_kwargs: Any = None) -> Any:
        values = list(table.as_values(exclude_columns=exclude_columns))
        dataset = Dataset(**{"title": "Export Data", **(dataset_kwargs or {})})
        dataset.headers = values[0] if values else []
        for row in values[1:]:
            dataset.append([cell_inert(v) for v in row] if self.inert else row)
        return dataset


class RatingsTable(tables.Table):  # type: ignore[misc]  # django-tables2 is untyped
    num = {"td": {"class": "num"}, "th": {"class": "num"}}
    narrow = {"td": {"class": "num hide-narrow"}, "th": {"class": "num hide-narrow"}}

    rank = tables.Column(verbose_name="#", attrs=num)
    name = tables.Column(verbose_name=_("Player"))
    club_name = tables.Column(
        verbose_name=_("Club"),
        attrs={"td": {"class": "hide-narrow"}, "th": {"class": "hide-narrow"}},
        orderable=False,
    )
    rating = tables.Column(
        verbose_name=_("Rating"), attrs={"td": {"class": "num lead"}, "th": {"class": "num lead"}}
    )
    games = tables.Column(verbose_name=_("Rated games"), attrs=num)
    mu = tables.Column(verbose_name="μ", attrs=narrow, orderable=False)
    sigma = tables.Column(verbose_name="σ", attrs=narrow, orderable=False)
    # Exports only (the page marks the rating instead).
    provisional = tables.Column(
        verbose_name=_("Provisional"), accessor="games", visible=False, orderable=False
    )
    player = tables.Column(verbose_name=_("Player id"), visible=False, orderable=False)

    class Meta:
        template_name = "tournaments/_data_table.html"
        attrs = {"class": "data ratings"}
        empty_text = _("No rated games yet.")
        # A ``?per_page=0`` falls back to the table's own size: the page's.
        per_page = PER_PAGE
        sequence = ("rank", "name", "club_name", "rating", "games", "mu", "sigma", "...")

    def render_name(self, value: str, record: dict[str, Any]) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("web:player", args=[record["player"]]), value
        )

    def render_club_name(self, value: str, record: dict[str, Any]) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("web:club", args=[record["club_slug"]]), value
        )

    def render_rating(self, value: int, record: dict[str, Any]) -> str:
        if record["games"] >= PROVISIONAL_GAMES:
            return str(value)
        note = gettext("provisional: fewer than %(count)s rated games") % {
            "count": PROVISIONAL_GAMES
        }
        return format_html(
            '{}<sup class="provisional-mark" title="{}">?<span class="visually-hidden"> ({})'
            "</span></sup>",
            value,
            note,
            note,
        )

    def render_mu(self, value: float) -> str:
        return number_text(value, places=2)

    def render_sigma(self, value: float) -> str:
        return number_text(value, places=2)

    def value_mu(self, value: float) -> float:
        return value

    def value_sigma(self, value: float) -> float:
        return value

    def value_name(self, value: str) -> str:
        return value

    def value_club_name(self, value: str | None) -> str:
        return value or ""

    def value_rating(self, value: int) -> int:
        return value

    def value_provisional(self, value: int) -> bool:
        return value < PROVISIONAL_GAMES


def _club_asked(request: HttpRequest, choices: list[tuple[int, str]]) -> int | None:
    raw = request.GET.get("club")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or int(raw) not in dict(choices):
        raise Http404
    return int(raw)


class RatingsView(ExportMixin, SingleTableMixin, TemplateView):  # type: ignore[misc]  # django-tables2 is untyped
    """Every rated player, best first; ``?club=<id>``: a club's members."""

    template_name = "tournaments/ratings.html"
    table_class = RatingsTable
    table_pagination = {"per_page": PER_PAGE, "paginator_class": RowsPaginator}
    export_class = RatingsExport
    export_formats = RatingsExport.ALLOWED

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        self.clubs = rating_clubs(user=request.user)
        self.club_id = _club_asked(request, self.clubs)
        self.export_name = "ratings" + (f"-club-{self.club_id}" if self.club_id else "")
        return super().dispatch(request, *args, **kwargs)

    def get_table_data(self) -> Any:
        return rating_list(user=self.request.user, club_id=self.club_id)

    def get_dataset_kwargs(self) -> dict[str, str]:
        return {"title": gettext("Ratings")}

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)
        context["clubs"] = self.clubs
        context["club_id"] = self.club_id
        context["club_name"] = dict(self.clubs).get(self.club_id or 0, "")
        context["export_formats"] = RatingsExport.ALLOWED
        context["provisional_games"] = PROVISIONAL_GAMES
        return context


ratings_list = RatingsView.as_view()


def rating_list_top(*, request: HttpRequest, club: Club) -> dict[str, Any]:
    """The club page's rating section: its best ``CLUB_PAGE_ROWS`` rated members
    (rank within the club) and the address of its whole list; one query."""
    rows = list(rating_list(user=request.user, club_id=club.pk)[:CLUB_PAGE_ROWS])
    return {
        "rating_rows": rows,
        "rating_list_url": f"{reverse('web:ratings')}?club={club.pk}",
        "provisional_games": PROVISIONAL_GAMES,
    }
