"""A player's statistics: ``GET /api/v1/players/{id}/stats/``.

Vocabulary as in ``tournaments.player_stats``: *figures* (games, wins, win
rate, averages, jokers left, the best and worst game, the longest winning
run) over all the player's games, per table size, per season, per tournament,
and *head-to-head* against each opponent. The games counted are those the
caller may see (``selectors.player_stats``): public tournaments, the private
ones the caller organises, confirmed games only. A player the caller may not
see answers 404.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import error_responses
from apikit.serializer_fields import NumberField
from tournaments.selectors.people import player_visible
from tournaments.selectors.player_stats import PlayerStatsShown, player_stats_seen


class GamePickedSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(source="game_id", read_only=True)
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    round = serializers.IntegerField(source="round_number", read_only=True)
    table = serializers.IntegerField(read_only=True)
    number = serializers.IntegerField(read_only=True)
    score = NumberField()


class FiguresSerializer(serializers.Serializer[Any]):
    games = serializers.IntegerField(read_only=True)
    wins = serializers.IntegerField(read_only=True)
    win_rate = NumberField(allow_null=True, help_text=_("Wins per game; null without games."))
    average_score = NumberField(allow_null=True)
    average_place = NumberField(
        allow_null=True, help_text=_("1 is the best score at the table; equal scores share.")
    )
    average_left_losing = NumberField(
        allow_null=True, help_text=_("Points left on the rack in the games not won.")
    )
    jokers_left = serializers.IntegerField(read_only=True)
    best = GamePickedSerializer(read_only=True, allow_null=True)
    worst = GamePickedSerializer(read_only=True, allow_null=True)
    longest_winning_run = serializers.IntegerField(read_only=True)


class TableSizeFiguresSerializer(FiguresSerializer):
    size = serializers.IntegerField(read_only=True)


class SeasonFiguresSerializer(FiguresSerializer):
    season = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)


class TournamentFiguresSerializer(FiguresSerializer):
    tournament = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    slug = serializers.CharField(read_only=True)
    date = serializers.DateField(read_only=True)


class HeadToHeadSerializer(serializers.Serializer[Any]):
    opponent = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    games = serializers.IntegerField(read_only=True, help_text=_("Games at one table."))
    wins = serializers.IntegerField(read_only=True)
    average_score = NumberField()


class PlayerStatsSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    overall = FiguresSerializer(read_only=True)
    by_table_size = TableSizeFiguresSerializer(many=True, read_only=True)
    seasons = SeasonFiguresSerializer(many=True, read_only=True)
    tournaments = TournamentFiguresSerializer(many=True, read_only=True)
    head_to_head = HeadToHeadSerializer(many=True, read_only=True)


def _answer(player_id: int, name: str, shown: PlayerStatsShown) -> dict[str, Any]:
    stats = shown.stats
    return {
        "player": player_id,
        "name": name,
        "overall": asdict(stats.overall),
        "by_table_size": [
            {"size": size, **asdict(figures)} for size, figures in stats.by_table_size.items()
        ],
        "seasons": [
            {"season": pk, "name": shown.seasons[pk], **asdict(figures)}
            for pk, figures in stats.seasons.items()
        ],
        "tournaments": [
            {
                "tournament": pk,
                "name": shown.tournaments[pk].name,
                "slug": shown.tournaments[pk].slug,
                "date": shown.tournaments[pk].date,
                **asdict(figures),
            }
            for pk, figures in stats.tournaments.items()
        ],
        "head_to_head": [
            {"opponent": h.opponent_id, "name": shown.opponents.get(h.opponent_id, ""), **asdict(h)}
            for h in stats.head_to_head
        ],
    }


class PlayerStatsView(generics.GenericAPIView[Any]):
    serializer_class = PlayerStatsSerializer
    pagination_class = None
    filter_backends: list[Any] = []

    @extend_schema(
        summary="A player's statistics",
        description=_(
            "Over all time, per table size, per season, per tournament and head-to-head, "
            "counting the confirmed games of public tournaments and of the private ones "
            "you organise."
        ),
        responses={200: PlayerStatsSerializer, **error_responses(404)},
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = player_visible(user=request.user, player_id=player_id)
        if player is None:
            raise Http404
        shown = player_stats_seen(player=player, user=request.user)
        return Response(PlayerStatsSerializer(_answer(player.pk, player.name, shown)).data)
