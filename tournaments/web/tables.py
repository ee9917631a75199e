"""django-tables2 tables of the web pages.

Vocabulary: the *standings table* shows the selector's ``StandingRow`` list
(a plain list, sorted in Python by django-tables2 when a header is clicked)
and is what the CSV/XLSX/ODS/JSON exports are made of. Numbers are shown the
way a score sheet shows them (``24``, ``-3.50``) and exported as plain numbers.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import django_tables2 as tables
from django.template.defaultfilters import floatformat
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django_tables2.export import TableExport

from ..standings.ranking import StandingRow


class StandingsExport(TableExport):
    """Only the formats whose libraries are installed: a bad ``?_export=`` is
    ignored (the page is shown) rather than failing."""

    ALLOWED = ("csv", "xlsx", "ods", "json")

    @classmethod
    def is_valid_format(cls, export_format: str | None) -> bool:
        return export_format in cls.ALLOWED


def number_plain(value: Decimal | int) -> int | float:
    """A whole number as an int, else a float with two places (for exports)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


class NumberColumn(tables.Column):
    """A score-like number: no ``.00`` when whole; right-aligned."""

    def __init__(self, *args: Any, signed: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        self.signed = signed
        super().__init__(*args, **kwargs)

    def render(self, value: Decimal | int) -> str:
        text = floatformat(value, "-2")
        return f"+{text}" if self.signed and value > 0 else text

    def value(self, value: Decimal | int) -> int | float:
        return number_plain(value)


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    name = tables.Column(verbose_name=_("Player"))
    # A phone at the table has room for the numbers, not the club.
    club = tables.Column(
        verbose_name=_("Club"),
        attrs={"td": {"class": "hide-narrow"}, "th": {"class": "hide-narrow"}},
    )
    score = NumberColumn(verbose_name=_("Score"), signed=True)
    games = NumberColumn(verbose_name=_("Games"))
    wins = NumberColumn(verbose_name=_("Wins"))
    rack_total = NumberColumn(verbose_name=_("Rack total"))
    table_points = NumberColumn(verbose_name=_("Table points"))
    adjustments = NumberColumn(verbose_name=_("Adjustments"), signed=True)

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "data standings"}
        orderable = True
        empty_text = _("No players have entered yet.")
        row_attrs = {"class": lambda record: "withdrawn" if record.withdrawn else ""}

    def render_name(self, value: str, record: StandingRow) -> str:
        if record.withdrawn:
            return format_html('{} <span class="tag">{}</span>', value, _("withdrawn"))
        return value

    def value_name(self, value: str, record: StandingRow) -> str:
        return value

    def value_rank(self, value: int) -> int:
        return value
