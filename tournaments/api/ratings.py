"""Ratings: ``GET /api/v1/ratings/`` and ``GET /api/v1/players/{id}/ratings/``.

Vocabulary as in ``selectors.ratings``: the *rating list* ranks every player
with a rated game by their shown rating (equal ratings share a rank), of one
club with ``?club=<id>``; ``mu`` and ``sigma`` are answered unrounded,
``provisional`` while a player has fewer than 20 rated games. A player's
*history* is their rating after each rated game, oldest first. Public reads:
every rated game is of a public tournament; a player the caller may not see
answers 404, and a club the caller may not see is not named.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import error_responses
from tournaments.api.filters import IdFilter, StrictFilterSet
from tournaments.models import PlayerRating
from tournaments.ratings.engine import PROVISIONAL_GAMES
from tournaments.selectors.people import player_visible
from tournaments.selectors.ratings import rating_history, rating_list, rating_rows_of_club


class RatingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(read_only=True, help_text=_("Equal ratings share a rank."))
    player = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    club = serializers.IntegerField(read_only=True, allow_null=True)
    club_name = serializers.CharField(read_only=True, allow_null=True)
    rating = serializers.IntegerField(
        read_only=True, help_text=_("The shown rating: round(1500 + 24 × (mu − 3 × sigma)).")
    )
    mu = serializers.FloatField(read_only=True)
    sigma = serializers.FloatField(read_only=True)
    games = serializers.IntegerField(read_only=True, help_text=_("Rated games played."))
    provisional = serializers.SerializerMethodField(
        help_text=_("True while the player has fewer than 20 rated games.")
    )

    def get_provisional(self, row: dict[str, Any]) -> bool:
        return int(row["games"]) < PROVISIONAL_GAMES


class RatingPointSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(read_only=True)
    tournament = serializers.IntegerField(read_only=True)
    date = serializers.DateField(
        read_only=True, help_text=_("The tournament's date (its creation day when it has none).")
    )
    mu = serializers.FloatField(read_only=True)
    sigma = serializers.FloatField(read_only=True)
    rating = serializers.IntegerField(read_only=True)


class RatingFilter(StrictFilterSet):
    club = IdFilter(
        method="club_members",
        help_text="Members of this club (its id); none for a club you may not see.",
    )

    class Meta:
        model = PlayerRating
        fields = ["club"]

    def club_members(
        self, queryset: QuerySet[PlayerRating, Any], name: str, value: int
    ) -> QuerySet[PlayerRating, Any]:
        return rating_rows_of_club(queryset, club_id=value, user=self.request.user)


class RatingListView(generics.ListAPIView[Any]):
    serializer_class = RatingRowSerializer
    filter_backends = [django_filters.rest_framework.DjangoFilterBackend]
    filterset_class = RatingFilter

    def get_queryset(self) -> QuerySet[PlayerRating, dict[str, Any]]:
        return rating_list(user=self.request.user)

    @extend_schema(
        summary="The rating list",
        description=_(
            "Players with at least one rated game, best first; ranks count within the list "
            "asked for (a club's members with ?club=)."
        ),
        responses={200: RatingRowSerializer(many=True), **error_responses(400)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class PlayerRatingsView(generics.GenericAPIView[Any]):
    serializer_class = RatingPointSerializer
    pagination_class = None
    filter_backends: list[Any] = []

    @extend_schema(
        summary="A player's rating history",
        description=_("The player's rating after each rated game, oldest first."),
        responses={200: RatingPointSerializer(many=True), **error_responses(404)},
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = player_visible(user=request.user, player_id=player_id)
        if player is None:
            raise Http404
        points = rating_history(player_id=player.pk, user=request.user)
        return Response(RatingPointSerializer(points, many=True).data)
