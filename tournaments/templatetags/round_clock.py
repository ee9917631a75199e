"""Template tags of the hall: the round clock's panel on the organiser desk.

The desk's view knows nothing of the clock; the panel reads it here (one
selector, no query beyond the round the desk has read already).
"""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Round, Tournament
from tournaments.selectors.hall import round_clock_of

register = template.Library()


@register.inclusion_tag("tournaments/desk/_clock_panel.html")
def desk_round_clock(tournament: Tournament, round_: Round | None) -> dict[str, Any]:
    """The clock of the desk's latest round, and what can be done with it."""
    return {
        "tournament": tournament,
        "round": round_,
        "clock": round_clock_of(tournament=tournament, round_=round_),
        "frozen": tournament.is_finished,
    }
