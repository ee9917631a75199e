"""django-tables2 tables of the web pages, and the standings' columns.

Vocabulary: the *standings table* shows the selector's ``StandingRow`` list
(a plain list, sorted in Python by django-tables2 when a header is clicked)
and is what the CSV/XLSX/ODS/JSON exports are made of; the exports add each
player's games awaiting confirmation, which the page shows as a mark instead. Numbers are shown the
way a score sheet shows them, in the page's language (``tournaments.numbers``:
``24``, ``-3.50``, in Danish ``-3,50``) and exported as plain numbers.
The *lead column* shows the tournament's ranking key (total score, table
points or average): on a page it comes first after the player's name and is
emphasised; the exports keep their fixed columns. *Standings cells* are a
row's numbers as text, in a given column order, for the short tables drawn
without django-tables2 (the tournament page's standings and final places).
The *standings query* is the part of a standings address the page reads
(``stage``, ``category``, ``sort``, ``per_page``, ``page``, ``_export``), each
value one the page can show: its *canonical* form is what the page is
cached under, so a parameter the page does not read, or a value it would
show the same as another, never makes a new cached body.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import django_tables2 as tables
import xlsxwriter
from django.core.paginator import Page, Paginator
from django.urls import reverse
from django.utils.encoding import force_str
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django_tables2.export import TableExport
from tablib import Dataset

from scoring import rules
from tournaments.models import Round, Tournament
from tournaments.numbers import number_text
from tournaments.standings.current import QUALIFYING, RankingCurrent
from tournaments.standings.ranking import COLUMN_LABELS, StandingRow, columns_ranking_first

# Every number a standings row shows: its heading, and whether it shows its sign.
SIGNED = {"score", "average", "adjustments"}
NUMBER_LABELS: dict[str, tuple[Promise, bool]] = {
    name: (_(label), name in SIGNED) for name, label in COLUMN_LABELS.items()
}


# Each stage's name, as the rounds call it.
STAGE_NAMES: dict[str, Any] = dict(Round.Stage.choices)

# What a spreadsheet reads as the start of a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SPREADSHEETS = frozenset({"csv", "xlsx", "ods"})


def cell_inert(value: Any) -> Any:
    """Text a spreadsheet would run as a formula (a player named ``=HYPERLINK(…)``),
    made plain text with a leading apostrophe; numbers and other text as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class StandingsExport(TableExport):  # type: ignore[misc]  # django-tables2 is untyped
    """Only the formats whose libraries are installed: a bad ``?_export=`` is
    ignored (the page is shown) rather than failing. Spreadsheet formats get
    their cells made inert (``cell_inert``); JSON keeps the text as it is."""

    ALLOWED = ("csv", "xlsx", "ods", "json")

    @classmethod
    def is_valid_format(cls, export_format: str | None) -> bool:
        return export_format in cls.ALLOWED

    def __init__(self, export_format: str, table: Any, **kwargs: Any) -> None:
        self.inert = export_format in SPREADSHEETS
        super().__init__(export_format, table, **kwargs)

    def table_to_dataset(self, table: Any, exclude_columns: Any, dataset_kwargs: Any = None) -> Any:
        """The rows as django-tables2 exports them (same headings, order and
        values), read straight from each ``StandingRow``: its per-cell calls
        (an ``inspect.signature`` each) cost most of a 1,000-row export."""
        columns = [
            bound
            for bound in table.columns.iterall()
            if not (bound.column.exclude_from_export or bound.name in (exclude_columns or ()))
        ]
        dataset = Dataset(**{"title": "Export Data", **(dataset_kwargs or {})})
        dataset.headers = [force_str(bound.header, strings_only=True) for bound in columns]
        cells = [_export_cell(table, bound) for bound in columns]
        inert = cell_inert if self.inert else _same
        for record in table.data:
            dataset.append([inert(cell(record)) for cell in cells])
        return dataset

    def export(self) -> Any:
        if self.format == "xlsx":
            return xlsx_of(self.dataset)
        return super().export()


def xlsx_of(dataset: Dataset) -> bytes:
    """The dataset as an XLSX workbook, headings bold and frozen, as tablib writes
    it, but with XlsxWriter: a 1,000-row sheet in a third of openpyxl's time."""
    out = io.BytesIO()
    # Text stays text: no string is read as a formula, a link or a number.
    book = xlsxwriter.Workbook(
        out,
        {
            "in_memory": True,
            "strings_to_formulas": False,
            "strings_to_urls": False,
            "strings_to_numbers": False,
        },
    )
    sheet = book.add_worksheet(dataset.title or "Sheet1")
    sheet.write_row(0, 0, dataset.headers or (), book.add_format({"bold": True}))
    sheet.freeze_panes(1, 0)
    for number, row in enumerate(dataset, start=1):
        sheet.write_row(number, 0, row)
    book.close()
    return out.getvalue()


def _same(value: Any) -> Any:
    return value


def _export_cell(table: Any, bound: Any) -> Callable[[StandingRow], Any]:
    """How one column's export value is read from a row (as ``BoundRow.get_cell_value``)."""
    if bound.name == "unconfirmed_games":
        return lambda record: table.unconfirmed.get(record.player_id, 0)
    if bound.name == "stage":
        return lambda record: table.value_stage(record.stage)
    accessor = str(bound.accessor)
    empty = bound.column.empty_values
    # A plain column's export value is the value itself (``Column.value``).
    convert: Callable[[Any], Any] = (
        number_plain if isinstance(bound.column, NumberColumn) else _same
    )

    def cell(record: StandingRow) -> Any:
        value = getattr(record, accessor)
        return None if value in empty else force_str(convert(value), strings_only=True)

    return cell


def number_plain(value: Decimal | int) -> int | float:
    """A whole number as an int, else a float with two places (for exports)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


class NumberColumn(tables.Column):  # type: ignore[misc]  # django-tables2 is untyped
    """A score-like number: no ``.00`` when whole; right-aligned."""

    def __init__(self, *args: Any, signed: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        self.signed = signed
        super().__init__(*args, **kwargs)

    def render(self, value: Decimal | int) -> str:
        return number_text(value, signed=self.signed)

    def value(self, value: Decimal | int) -> int | float:
        return number_plain(value)


class StandingsTable(tables.Table):  # type: ignore[misc]  # django-tables2 is untyped
    """The standings; given a ``ranking``, its lead column comes first after
    the name, emphasised. Without one (the exports) the columns are fixed."""

    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    name = tables.Column(verbose_name=_("Player"))
    # A phone at the table has room for the numbers, not the club.
    club = tables.Column(
        verbose_name=_("Club"),
        attrs={"td": {"class": "hide-narrow"}, "th": {"class": "hide-narrow"}},
    )
    score = NumberColumn(verbose_name=NUMBER_LABELS["score"][0], signed=True)
    games = NumberColumn(verbose_name=NUMBER_LABELS["games"][0])
    wins = NumberColumn(verbose_name=NUMBER_LABELS["wins"][0])
    rack_total = NumberColumn(verbose_name=NUMBER_LABELS["rack_total"][0])
    table_points = NumberColumn(verbose_name=NUMBER_LABELS["table_points"][0])
    adjustments = NumberColumn(verbose_name=NUMBER_LABELS["adjustments"][0], signed=True)
    # Shown only when the tournament ranks by it.
    average = NumberColumn(verbose_name=NUMBER_LABELS["average"][0], signed=True)
    # Once a semi-final or final is seated: the stage that placed the player.
    stage = tables.Column(verbose_name=_("Stage"), orderable=False)
    # Exports only (the page marks the name instead): games awaiting confirmation.
    unconfirmed_games = tables.Column(
        verbose_name=_("Unconfirmed games"), accessor="player_id", visible=False, orderable=False
    )

    NUMBERS = ("score", "games", "wins", "rack_total", "table_points", "adjustments")

    def __init__(
        self,
        *args: Any,
        ranking: str | None = None,
        unconfirmed: dict[int, int] | None = None,
        staged: bool = False,
        empty_hidden: bool = False,
        **kwargs: Any,
    ) -> None:
        # Player id → games awaiting confirmation: the page marks those players.
        self.unconfirmed = unconfirmed or {}
        numbers = list(self.NUMBERS)
        if ranking is not None:
            numbers = columns_ranking_first(ranking=ranking, columns=numbers)
            kwargs["sequence"] = ["rank", "name", numbers[0], "club", *numbers[1:], "..."]
        else:
            kwargs["sequence"] = ["rank", "name", "club", *numbers, "..."]
        # The page leaves out a column of nothing (no one has an adjustment): its long
        # heading would squeeze the names onto several lines. The exports keep it.
        empty = empty_hidden and not self._any(kwargs, self.EMPTY_HIDDEN)
        kwargs["exclude"] = [
            *([] if "average" in numbers else ["average"]),
            *([] if staged else ["stage"]),
            *(self.EMPTY_HIDDEN if empty else []),
        ]
        super().__init__(*args, **kwargs)
        if ranking is not None:
            lead = {"class": "num lead"}
            self.columns[numbers[0]].column.attrs = {"td": lead, "th": lead}

    EMPTY_HIDDEN = ("adjustments",)

    @staticmethod
    def _any(kwargs: Mapping[str, Any], names: Sequence[str]) -> bool:
        """Whether some row of the table's ``data`` has one of ``names`` (not zero)."""
        rows: Sequence[StandingRow] = kwargs.get("data") or []
        return any(getattr(row, name) for row in rows for name in names)

    class Meta:
        template_name = "tournaments/_data_table.html"
        attrs = {"class": "data standings"}
        orderable = True
        empty_text = _("No players have entered yet.")
        row_attrs = {"class": lambda record: "withdrawn" if record.withdrawn else ""}

    def render_name(self, value: str, record: StandingRow) -> str:
        shown = format_html(
            '<a href="{}">{}</a>', reverse("web:player", args=[record.player_id]), value
        )
        if record.withdrawn:
            shown = format_html('{} <span class="tag">{}</span>', shown, _("withdrawn"))
        waiting = self.unconfirmed.get(record.player_id)
        if waiting:
            note = ngettext(
                "%(count)s game awaits confirmation", "%(count)s games await confirmation", waiting
            ) % {"count": waiting}
            shown = format_html(
                '{} <sup class="unconfirmed-mark" title="{}">*<span class="visually-hidden"> '
                "({})</span></sup>",
                shown,
                note,
                note,
            )
        return shown

    def render_stage(self, value: str) -> str:
        return str(STAGE_NAMES.get(value, value)).capitalize()

    def value_stage(self, value: str) -> str:
        return self.render_stage(value)

    def value_name(self, value: str, record: StandingRow) -> str:
        return value

    def value_rank(self, value: int) -> int:
        return value

    def value_unconfirmed_games(self, record: StandingRow) -> int:
        return self.unconfirmed.get(record.player_id, 0)


@dataclass(frozen=True)
class StandingsCells:
    """A short standings table: the number columns' labels and each row's numbers as text."""

    labels: list[Promise]
    rows: list[tuple[StandingRow, list[str]]]


def standings_cells(
    rows: Sequence[StandingRow], *, ranking: str, columns: Sequence[str]
) -> StandingsCells:
    """``rows`` with the numbers of ``columns``, the ranking's lead column first."""
    order = columns_ranking_first(ranking=ranking, columns=columns)
    return StandingsCells(
        labels=[NUMBER_LABELS[c][0] for c in order],
        rows=[
            (row, [number_text(getattr(row, c), signed=NUMBER_LABELS[c][1]) for c in order])
            for row in rows
        ],
    )


def ranking_said(*, ranking: RankingCurrent, tournament: Tournament) -> dict[str, Any]:
    """What every view says of the order it shows: the stage's name (when the
    tournament has stages, or the placings are final), and whether to link the
    qualifying table."""
    return {
        "ranking": ranking,
        "ranking_label": gettext(ranking.label),
        "ranking_named": ranking.staged or ranking.decided or tournament.semifinal_players >= 2,
        # Once a stage is seated the qualifying table is another order: one click away.
        "qualifying_linked": ranking.staged,
    }


# Rows a standings page shows: the default, and the sizes ``?per_page=`` may ask
# for (another number is rounded up to the next of them; 1,000 at most).
PER_PAGE_DEFAULT = 100
PER_PAGE_CHOICES = (10, 25, 50, 100, 250, 500, 1000)
EXPORT_PARAMETER = "_export"


class RowsPaginator(Paginator[Any]):
    """The pages of a list (the standings, the ratings), as the address bar asks
    for them: 1 to 1,000 rows a page (``?per_page=``); a page (``?page=``) that
    is not a number or is below 1 is the first, one past the last the last
    (never a 404: the standings' canonical address says the same page)."""

    def __init__(self, object_list: Any, per_page: int | str, *args: Any, **kwargs: Any) -> None:
        most = PER_PAGE_CHOICES[-1]
        super().__init__(object_list, min(max(int(per_page), 1), most), *args, **kwargs)

    def page(self, number: Any) -> Page[Any]:
        try:
            asked = int(number)
        except (TypeError, ValueError):
            asked = 1
        return super().page(min(max(asked, 1), self.num_pages))


@dataclass(frozen=True)
class StandingsQuery:
    """A standings address's query as the page reads it.

    ``pairs``: the canonical parameters, sorted (the page's own defaults left
    out); ``export_pairs``: those an export depends on (not the page);
    ``category_known``: no category, or one a player carries (the page is
    cached only then: any other text shows no rows, and is not kept)."""

    pairs: tuple[tuple[str, str], ...]
    export_pairs: tuple[tuple[str, str], ...]
    category_known: bool


def sort_names() -> frozenset[str]:
    """What ``?sort=`` may name: each sortable column, ascending or descending."""
    # A column's own None means the table's: orderable.
    columns = StandingsTable.base_columns.items()
    names = [name for name, column in columns if column.orderable is not False]
    return frozenset([*names, *(f"-{name}" for name in names)])


def _whole(text: str | None) -> int | None:
    try:
        return int((text or "").strip())
    except ValueError:
        return None


def standings_query(
    query: Mapping[str, str], *, rows: int, categories: Collection[str]
) -> StandingsQuery:
    """The canonical form of ``query`` (a ``request.GET``): ``rows`` is how many
    rows the asked stage and category hold (a page past the last is the last),
    ``categories`` those the players carry."""
    pairs: dict[str, str] = {}
    if (query.get("stage") or "").strip() == QUALIFYING:
        pairs["stage"] = QUALIFYING
    category_given = query.get("category") or ""
    category = category_given.strip()[: rules.CATEGORY_MAX_LENGTH]
    category_known = not category or category in categories
    if category:
        # A category nobody carries is left as given: it shows no rows, uncached.
        pairs["category"] = category if category_known else category_given
    sort = (query.get("sort") or "").strip()
    if sort in sort_names():
        pairs["sort"] = sort
    export_format = query.get(EXPORT_PARAMETER)
    if export_format is not None and StandingsExport.is_valid_format(export_format):
        pairs[EXPORT_PARAMETER] = export_format
    export_pairs = tuple(sorted(pairs.items()))
    per_page = PER_PAGE_DEFAULT
    asked = _whole(query.get("per_page"))
    if asked is not None:
        per_page = next(size for size in PER_PAGE_CHOICES if size >= min(asked, 1000))
        if per_page != PER_PAGE_DEFAULT:
            pairs["per_page"] = str(per_page)
    page = _whole(query.get("page"))
    last = max(math.ceil(rows / per_page), 1)
    if page is not None and min(page, last) > 1:
        pairs["page"] = str(min(page, last))
    return StandingsQuery(
        pairs=tuple(sorted(pairs.items())),
        export_pairs=export_pairs,
        category_known=category_known,
    )
