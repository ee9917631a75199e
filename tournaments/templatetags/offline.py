"""What the match page tells its offline queue (``static/js/offline.js``).

Vocabulary: the *offline config* is one JSON block on the match page: where a
kept game is sent (the API's games endpoint of this match, with the match
token), the seats (player ids and names, in seat order), the game numbers the
page knows are recorded (*taken*), those entered on this phone (*mine*) and
those awaiting a second entry (*awaiting*), how many the table plays (*planned*),
the ending names and the words of the queue, translated here so that the
script holds no text of its own. Words with a ``{number}``-style slot are
filled in by the script.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext

from tournaments.models import Game, Match
from tournaments.web.pages import MatchView

register = template.Library()


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
    match: Match, view: MatchView, organiser: bool, mine: list[int]
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
        "words": _words(),
    }
