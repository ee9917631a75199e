"""A player's statistics as a viewer may see them.

Vocabulary as in ``tournaments.player_stats`` (game rows, figures,
head-to-head). The games counted are those the *viewer* may see: games of
public tournaments (rated or not) for everyone, and of the private
tournaments the viewer organises (``access.tournaments_visible_q``); and of
those only *confirmed* games, whatever the tournament shows in its standings
(under ``confirmation: none`` every game is confirmed). A tournament without
a date plays on its creation day in the site's time zone, as the ratings
order it.

Four queries whatever the number of games (one when there are none): the
player's racks (with where each game was played), the opponents' scores in
those games, the tournaments (with their seasons' names), and the opponents'
names.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import F, IntegerField
from django.db.models.functions import Cast, Round
from django.utils import timezone

from tournaments.access import tournaments_visible_q
from tournaments.actors import ActingUser
from tournaments.models import Game, Player, Rack, Tournament
from tournaments.player_stats import GameRow, Opponent, PlayerStats, RackRow, player_stats
from tournaments.selectors.statement_rows import rows_as_given


@dataclass(frozen=True)
class TournamentShown:
    pk: int
    name: str
    slug: str
    date: dt.date
    season_id: int | None


@dataclass(frozen=True)
class PlayerStatsShown:
    stats: PlayerStats
    tournaments: dict[int, TournamentShown]
    # Season id -> its name.
    seasons: dict[int, str]
    # Opponent id -> their name.
    opponents: dict[int, str]


def _day(date: dt.date | None, created: dt.datetime) -> dt.date:
    return date if date is not None else timezone.localtime(created).date()


def _cents() -> Any:
    """A rack's score in cents, as an integer (``player_stats``' unit), computed
    by the database: no decimal is built per row."""
    return Cast(Round(F("score") * 100), IntegerField())


def player_stats_seen(*, player: Player, user: ActingUser) -> PlayerStatsShown:
    """The player's statistics over the games ``user`` may see."""
    seen = Tournament.objects.filter(tournaments_visible_q(user=user)).values("pk")
    mine = Rack.objects.filter(
        player_id=player.pk,
        game__state=Game.State.CONFIRMED,
        game__match__round__tournament__in=seen,
    )
    own = (
        mine.order_by()
        .annotate(cents=_cents())
        .values_list(
            "game_id",
            "cents",
            "rack_value",
            "jokers",
            "winner",
            "game__number",
            "game__match__table",
            "game__match__round__number",
            "game__match__round__tournament_id",
        )
    )
    played = rows_as_given(own)
    if not played:
        return PlayerStatsShown(
            stats=player_stats(games=()), tournaments={}, seasons={}, opponents={}
        )
    at_tables = (
        Rack.objects.filter(game_id__in=mine.values("game_id"))
        .exclude(player_id=player.pk)
        .order_by()
        .annotate(cents=_cents())
        .values_list("game_id", "player_id", "cents")
    )
    others: dict[int, list[Opponent]] = {}
    for game_id, player_id, cents in rows_as_given(at_tables):
        seated = others.get(game_id)
        if seated is None:
            seated = others[game_id] = []
        seated.append(Opponent(player_id, cents))
    tournaments: dict[int, TournamentShown] = {}
    seasons: dict[int, str] = {}
    for pk, name, slug, date, created, season_id, season_name in Tournament.objects.filter(
        pk__in={row[-1] for row in played}
    ).values_list("pk", "name", "slug", "date", "created", "season_id", "season__name"):
        tournaments[pk] = TournamentShown(pk, name, slug, _day(date, created), season_id)
        if season_id is not None:
            seasons[season_id] = season_name
    alone: list[Opponent] = []
    rows = []
    for game_id, cents, value, jokers, won, number, table, round_, tour in played:
        shown = tournaments[tour]
        rows.append(
            GameRow(
                game_id,
                tour,
                shown.season_id,
                shown.date,
                round_,
                table,
                number,
                RackRow(cents, value, jokers, won),
                tuple(others.get(game_id, alone)),
            )
        )
    stats = player_stats(games=rows)
    opponents = dict(
        Player.objects.filter(pk__in=[h.opponent_id for h in stats.head_to_head]).values_list(
            "pk", "name"
        )
    )
    return PlayerStatsShown(
        stats=stats, tournaments=tournaments, seasons=seasons, opponents=opponents
    )
