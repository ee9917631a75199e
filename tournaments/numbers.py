"""Numbers as people read them, on the pages and in the prints.

Vocabulary: a number's *text* is the way a score sheet writes it, in the
active language: cents only when there are some (``24``, ``-3.50``), the
decimal mark the language uses ("3.50" in English; "3,50" in Danish,
Swedish, Norwegian, German and Dutch: Django's localized formats, as the
templates' ``floatformat``), a ``+`` when asked for. Every page and every PDF
shows its numbers through ``number_text``; the machine formats (CSV, XLSX,
ODS and JSON exports, the API, backups) keep plain numbers and never come here.
"""

from __future__ import annotations

from decimal import Decimal

from django.template.defaultfilters import floatformat

# floatformat's argument: two places, dropped when the number is whole.
CENTS_WHEN_SOME = -2


def number_text(
    value: Decimal | int | float, *, signed: bool = False, places: int = CENTS_WHEN_SOME
) -> str:
    """``value`` in the active language's way: ``places`` decimals as floatformat
    reads them (the default: two, none when whole), ``+`` before a positive
    number when ``signed``."""
    text = str(floatformat(value, places))
    return f"+{text}" if signed and value > 0 else text
