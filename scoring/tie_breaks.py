"""Tie-breaks: the names a tournament may list to settle a tied ranking.

Vocabulary: a *tie-break* is a named criterion applied, in the tournament's
order, when the ranking key ties (``tournaments.standings.ranking`` applies
them); a *tie-break list* is a tournament's setting, a list of known names,
none twice. The names and the list's check live with the rulebook so that the
model field storing the setting and the ranking judge it alike.

Plain Python (stdlib only), like the rest of the rulebook.
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
    "best_game",
    "countback",
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
