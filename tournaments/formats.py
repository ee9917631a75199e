"""Formats: named presets of a tournament's rule and plan settings.

Vocabulary: a *format* is a name (``belgian_club``, ...) for the settings a
real event plays with, a short *description* of it and its *source* (where
the event's rules come from). *Applying* a format to the settings given on
create fills every setting the format names and the caller did not give;
what the caller gives always wins. The tournament remembers the format's name
(``Tournament.format``), not its settings: changing a setting later does not
forget where the tournament started.

Nothing here is stored: a format names settings, the services store them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from scoring.errors import UserError, _
from tournaments.models import Tournament


@dataclass(frozen=True)
class Format:
    name: str
    title: str | Promise
    description: str | Promise
    source: str | Promise
    settings: Mapping[str, Any] = field(default_factory=dict)


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format(
            name="club_night",
            title=gettext_lazy("Club night"),
            description=gettext_lazy(
                "The defaults: Swiss seating, 3 rounds of 4 games, joker 30, ranked by score."
            ),
            source=gettext_lazy("The Rummikub rulebook's scoring; a club's usual evening."),
            settings={
                "seating": "swiss",
                "rounds": 3,
                "games_per_round": 4,
                "max_table_size": 4,
                "joker_penalty": 30,
                "ranking": "score",
            },
        ),
        Format(
            name="belgian_club",
            title=gettext_lazy("Belgian club championship"),
            description=gettext_lazy(
                "Joker 25; one qualifying round of 3 games; 8 semi-finalists seated 1/3/5/7 "
                "and 2/4/6/8 play 2 games; the best 4 by semi-final points alone play a "
                "final of 1 game."
            ),
            source=gettext_lazy("Belgian Rummikub clubs' championship rules."),
            settings={
                "joker_penalty": 25,
                "rounds": 1,
                "games_per_round": 3,
                "max_table_size": 4,
                "semifinal_players": 8,
                "semifinal_games": 2,
                "final_games": 1,
                "final_from": "stage_points",
                "carry_over": "0",
            },
        ),
        Format(
            name="german_city",
            title=gettext_lazy("German city tournament"),
            description=gettext_lazy(
                "3 rounds of 4 games at tables of 4; round 1 drawn at random, then seated "
                "by the standings; ranked by table points 4/3/1/0; 60-second turns."
            ),
            source=gettext_lazy("German city and club tournaments' rules."),
            settings={
                "seating": "swiss",
                "rounds": 3,
                "games_per_round": 4,
                "max_table_size": 4,
                "ranking": "table_points",
                "table_points": {"4": [4, 3, 1, 0]},
                "turn_seconds": 60,
            },
        ),
        Format(
            name="dutch_championship",
            title=gettext_lazy("Dutch championship"),
            description=gettext_lazy(
                "2 qualifying rounds; 8 semi-finalists; the final table plays until a "
                "player has won 4 games."
            ),
            source=gettext_lazy("The Dutch Rummikub championship's rules."),
            settings={
                "rounds": 2,
                "max_table_size": 4,
                "semifinal_players": 8,
                "final_first_to": 4,
            },
        ),
        Format(
            name="japanese_qualifier",
            title=gettext_lazy("Japanese qualifier"),
            description=gettext_lazy(
                "Joker 50; tables of 4, 3 games a round; ranked by games won, then score, "
                "then countback; the final carries half the points, rounded up."
            ),
            source=gettext_lazy("The Japan Rummikub Association's qualifying rules."),
            settings={
                "joker_penalty": 50,
                "max_table_size": 4,
                "games_per_round": 3,
                "ranking": "wins",
                "tie_breaks": ["score", "countback"],
                "carry_over": "0.5",
            },
        ),
        Format(
            name="two_player_swiss",
            title=gettext_lazy("Two-player Swiss"),
            description=gettext_lazy("Tables of 2, Swiss seating, 5 rounds of 1 game, joker 50."),
            source=gettext_lazy("Online and two-player Rummikub events."),
            settings={
                "max_table_size": 2,
                "seating": "swiss",
                "rounds": 5,
                "games_per_round": 1,
                "joker_penalty": 50,
            },
        ),
        Format(
            name="bonus_league",
            title=gettext_lazy("Bonus league"),
            description=gettext_lazy(
                "A league: each loss capped at 25, 50 bonus points to the winner and 5 to "
                "the runner-up; ranked by score."
            ),
            source=gettext_lazy("Club leagues paying bonuses on top of the score."),
            settings={
                "kind": "league",
                "loss_cap": 25,
                "winner_bonus": 50,
                "runner_up_bonus": 5,
                "ranking": "score",
            },
        ),
    )
}


def format_settings(*, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings given on create with their format's filled in.

    No format (absent or blank): the settings as given. An unknown format is
    the caller's error, named at ``format``. Table points merge by table size,
    so that a caller giving only ``{"3": ...}`` keeps the format's other sizes.
    """
    given = dict(settings)
    name = given.get("format") or ""
    if not name:
        return given
    preset = FORMATS.get(name) if isinstance(name, str) else None
    if preset is None:
        raise UserError(
            _("%(format)s is not a format; the formats are %(formats)s."),
            field="format",
            format=name,
            formats=", ".join(FORMATS),
        )
    filled = {**preset.settings, **given}
    if isinstance(preset.settings.get("table_points"), Mapping) and isinstance(
        given.get("table_points"), Mapping
    ):
        filled["table_points"] = {**preset.settings["table_points"], **given["table_points"]}
    return filled


def format_tournament(*, name: str) -> Tournament:
    """An unsaved tournament with a format's settings (an unknown name: the
    defaults), for a form to start from."""
    tournament = Tournament()
    preset = FORMATS.get(name)
    for setting, value in (preset.settings if preset else {}).items():
        if setting == "table_points":
            value = {**tournament.table_points, **value}
        setattr(tournament, setting, value)
    if preset:
        tournament.format = preset.name
    return tournament
