"""Ranking players: plain data in, plain data out, no database.

Vocabulary:

* a *tie-break* is a named criterion applied, in the tournament's order, when
  the ranking value (score, table points, average or wins) ties.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.errors import UserError, _

# Every tie-break a tournament may name, in the order they are offered.
TIE_BREAK_NAMES: tuple[str, ...] = (
    "score",
    "wins",
    "table_points",
    "rack_total",
    "games",
    "average",
    "opponents_average",
    "head_to_head",
)
TIE_BREAKS_DEFAULT: tuple[str, ...] = ("wins", "table_points", "rack_total")


def tie_breaks_check(*, names: object) -> list[str]:
    """A tie-break list as stored: a list of known names, none twice; else a ``UserError``."""
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise UserError(_("Tie-breaks must be a list of names."), field="tie_breaks")
    unknown = [str(n) for n in names if n not in TIE_BREAK_NAMES]
    if unknown:
        raise UserError(
            _("Unknown tie-break %(names)s; choose from %(known)s."),
            field="tie_breaks",
            names=", ".join(unknown),
            known=", ".join(TIE_BREAK_NAMES),
        )
    checked = [str(n) for n in names]
    repeated = sorted({n for n in checked if checked.count(n) > 1})
    if repeated:
        raise UserError(
            _("Tie-break %(names)s is listed twice."), field="tie_breaks", names=", ".join(repeated)
        )
    return checked
