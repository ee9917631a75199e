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

from decimal import ROUND_HALF_UP, Decimal

from django.template.defaultfilters import floatformat
from django.utils.formats import get_format

# floatformat's argument: two places, dropped when the number is whole.
CENTS_WHEN_SOME = -2
_CENT = Decimal("0.01")


def number_text(
    value: Decimal | int | float, *, signed: bool = False, places: int = CENTS_WHEN_SOME
) -> str:
    """``value`` in the active language's way: ``places`` decimals as floatformat
    reads them (the default: two, none when whole), ``+`` before a positive
    number when ``signed``.

    The default is written out here, exactly as floatformat writes it (half up,
    no grouping, the language's decimal mark): a report prints 40,000 numbers,
    and floatformat's own way costs a second of them."""
    if places != CENTS_WHEN_SOME:
        text = str(floatformat(value, places))
    else:
        exact = value if isinstance(value, Decimal) else Decimal(repr(value))
        if exact == exact.to_integral_value():  # whole as given: no cents
            text = str(int(exact))
        else:
            cents = exact.quantize(_CENT, rounding=ROUND_HALF_UP)
            # A number that rounds to nothing has no sign ("0.00", not "-0.00").
            text = f"{cents if cents else abs(cents):f}"
            text = text.replace(".", str(get_format("DECIMAL_SEPARATOR")))
    return f"+{text}" if signed and value > 0 else text
