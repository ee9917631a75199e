"""What the match page tells its offline queue (``static/js/offline.js``).

Vocabulary: the *offline config* is one JSON block on the match page: where a
kept game is sent (the API's games endpoint of this match, with the match
token), the seats (player ids and names, in seat order), the game numbers the
page knows are recorded (*taken*), those entered on this phone (*mine*) and
those awaiting a second entry (*awaiting*), how many the table plays (*planned*),
the ending names, the colour letters' aliases (the rules engine's, so that a
queued tile list compares as the engine reads it) and the words of the queue,
translated here so that the script holds no text of its own. Words with a
``{number}``-style slot are filled in by the script.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from django import template
from django.urls import reverse
from django.utils.translation import gettext

from scoring.tiles import COLOUR_ALIASES
from tournaments.game_numbers import game_numbers_free
from tournaments.models import Game, Match, Seat

register = template.Library()


class MatchLaidOut(Protocol):
    """What the queue reads of the match page's laid-out match (the page's ``MatchLayout``)."""

    @property
    def planned(self) -> int: ...

    @property
    def seats(self) -> Sequence[Seat]: ...

    @property
    def games(self) -> Sequence[tuple[Game, Any]]: ...


def _words() -> dict[str, str]:
    slot = {"number": "{number}"}
    return {
        "title": gettext("Waiting to send"),
        "intro": gettext(
            "No connection: these games are kept on this phone and sent by themselves when "
            "the network returns. Keep this page open or come back to it."
        ),
        "waiting": gettext("Game %(number)s: waiting to send") % slot,
        "sending": gettext("Sending…"),
        "send_now": gettext("Send now"),
        "sent": gettext("Game %(number)s was sent and stored.") % slot,
        "conflict": gettext(
            "Game %(number)s was already recorded from elsewhere with other racks; yours was "
            "not stored. The recorded game:"
        )
        % slot,
        "refused": gettext("Game %(number)s was not stored:") % slot,
        "own": gettext(
            "You entered game %(number)s on this phone: its second entry has to come from "
            "another phone or an organiser."
        )
        % slot,
        "withheld": gettext(
            "Its racks are not shown until a second entry, so that each entry is typed on its own."
        ),
        "yours": gettext("Your entry"),
        "dismiss": gettext("Dismiss"),
        "record": gettext("Record game %(number)s") % slot,
        "all_entered": gettext("Every game of this table is entered: nothing more to do here."),
        "player": gettext("Player"),
        "rack": gettext("Rack"),
        "score": gettext("Score"),
        "emptied": gettext("Emptied the rack"),
        "points": gettext("%(points)s pts, %(jokers)s J")
        % {"points": "{points}", "jokers": "{jokers}"},
    }


@register.simple_tag
def offline_config(
    match: Match, view: MatchLaidOut, organiser: bool, mine: list[int]
) -> dict[str, Any]:
    """The offline queue's settings for this match page (``mine``: the games
    entered on this phone)."""
    return {
        "api": reverse("api-match-games", kwargs={"match_id": match.pk}),
        "token": match.token,
        "page": reverse("web:match", kwargs={"token": match.token}),
        "worker": reverse("service-worker"),
        # An organiser sends as themselves (their session); anyone else with the match token.
        "organiser": organiser,
        "planned": view.planned,
        "taken": sorted(game.number for game, _racks in view.games),
        # The games still to record, lowest first: the queue offers the first not waiting here.
        "free": game_numbers_free(
            taken=(game.number for game, _racks in view.games), planned=view.planned
        ),
        # A game entered here and awaiting its second entry is not sent again from here.
        "mine": mine,
        "awaiting": sorted(
            game.number for game, _racks in view.games if game.state == Game.State.ENTERED
        ),
        "mark": reverse("web:match-mine", kwargs={"token": match.token}),
        "seats": [
            {"player": seat.player_id, "position": seat.position, "name": seat.player.name}
            for seat in view.seats
        ],
        "endings": {str(value): str(label) for value, label in Game.Ending.choices},
        # Tiles are compared as the engine reads them: "s5" is K5.
        "aliases": dict(COLOUR_ALIASES),
        "words": _words(),
    }
