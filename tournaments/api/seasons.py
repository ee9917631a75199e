"""Club seasons: a club's seasons listed and created, one season read, changed
and deleted, and its table (design §5).

Vocabulary: a season is read by whoever sees its club in full (a public club:
anyone; a private one: its organisers; ``access.season_visible``), any other
answers 404; its club's organisers create, change and delete it (403 for
anyone else). Its ``evenings`` are the ids of the tournaments whose ``season``
names it, earliest first. The table (``/seasons/{id}/standings/``) has the
ranked players in ``results`` and those not yet qualified in ``unranked``
(``rank`` null), each with their counted points, evenings played, the ids of
the evenings that count and their best single evening.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.defaults import json_parsers
from apikit.errors import error_responses
from apikit.serializer_fields import NumberField
from tournaments.access import club_organiser, season_visible, user_or_none
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.models import Club, Season
from tournaments.selectors.seasons import (
    club_get,
    evening_day,
    season_get,
    season_view,
    seasons_of_club,
)
from tournaments.services import seasons as season_services
from tournaments.standings.season import EVENINGS_MAX, SeasonRow

# ----------------------------------------------------------------------------- serializers


class SeasonSerializer(serializers.ModelSerializer[Season]):
    club = serializers.IntegerField(source="club_id", read_only=True, help_text=_("Its club (id)."))
    evenings = serializers.SerializerMethodField(
        help_text=_("Its evenings: the ids of the tournaments whose season it is.")
    )
    evening_settings = serializers.JSONField(
        required=False,
        help_text=_(
            "The settings each new evening is created with (tournament settings by name, "
            'e.g. {"rounds": 3, "games_per_round": 4} or {"format": "german_city"}); '
            "empty: the club_night format's."
        ),
    )

    class Meta:
        model = Season
        fields = [
            "id",
            "club",
            "name",
            "starts",
            "ends",
            "evening_points",
            "best_of",
            "min_evenings",
            "guests",
            "evening_settings",
            "evenings",
        ]
        extra_kwargs = {
            "best_of": {"min_value": 0, "max_value": EVENINGS_MAX},
            "min_evenings": {"min_value": 0, "max_value": EVENINGS_MAX},
        }

    def get_evenings(self, season: Season) -> list[int]:
        return [t.pk for t in sorted(season.evenings.all(), key=lambda t: (evening_day(t), t.pk))]


class SeasonRowSerializer(serializers.Serializer[SeasonRow]):
    rank = serializers.IntegerField(
        allow_null=True, help_text=_("Shared by full ties; null: not yet qualified.")
    )
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    points = NumberField(help_text=_("The counted evenings' points."))
    evenings = serializers.IntegerField(help_text=_("Evenings played."))
    counted = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("The ids of the evenings that count.")
    )
    best = NumberField(help_text=_("The best single evening's points."))


class SeasonStandingsSerializer(serializers.Serializer[Any]):
    results = SeasonRowSerializer(many=True)
    unranked = SeasonRowSerializer(many=True)


# ----------------------------------------------------------------------------- permissions


class SeasonPermission(BasePermission):
    """Reads: whoever sees the season; changes: its club's organisers."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or user_or_none(request.user) is not None

    def has_object_permission(self, request: Request, view: Any, obj: Season | Club) -> bool:
        club = obj.club if isinstance(obj, Season) else obj
        return request.method in SAFE_METHODS or club_organiser(user=request.user, club=club)


def _season_seen(request: Request, pk: int) -> Season:
    season = season_get(pk=pk)
    if season is None or not season_visible(user=request.user, season=season):
        raise NotFound
    return season


# ----------------------------------------------------------------------------- views


class ClubSeasonsView(IdempotentWritesMixin, generics.ListCreateAPIView[Season]):
    """A club's seasons, latest first; its organisers add one."""

    serializer_class = SeasonSerializer
    permission_classes = [SeasonPermission]
    parser_classes = json_parsers()
    filter_backends: list[Any] = []
    _club: Club | None = None

    def club(self) -> Club:
        if self._club is None:
            found = club_get(pk=self.kwargs["club_id"])
            if found is None or not (
                found.public or club_organiser(user=self.request.user, club=found)
            ):
                raise NotFound
            self.check_object_permissions(self.request, found)
            self._club = found
        return self._club

    def replay_check(self, request: Request, *args: Any, **kwargs: Any) -> None:
        self.club()

    def get_queryset(self) -> Any:
        return seasons_of_club(club=self.club()).prefetch_related("evenings")

    @extend_schema(summary="A club's seasons", responses={200: SeasonSerializer(many=True)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Add a season to a club (its organisers)",
        responses={201: SeasonSerializer, **error_responses(400, 401, 403, 404)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = self.club()
        given = SeasonSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        season = season_services.season_create(
            club=club, user=request.user, **dict(given.validated_data)
        )
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDetailView(IdempotentWritesMixin, generics.RetrieveUpdateDestroyAPIView[Season]):
    """One season: read; its club's organisers change or delete it (its
    evenings stay, as tournaments of no season)."""

    serializer_class = SeasonSerializer
    permission_classes = [SeasonPermission]
    parser_classes = json_parsers()
    filter_backends: list[Any] = []

    def get_object(self) -> Season:
        season = _season_seen(self.request, self.kwargs["pk"])
        self.check_object_permissions(self.request, season)
        return season

    def replay_check(self, request: Request, *args: Any, **kwargs: Any) -> None:
        self.get_object()

    def perform_update(self, serializer: serializers.BaseSerializer[Season]) -> None:
        assert serializer.instance is not None
        serializer.instance = season_services.season_update(
            season=serializer.instance,
            user=self.request.user,
            **dict(serializer.validated_data),
        )

    def perform_destroy(self, instance: Season) -> None:
        season_services.season_delete(season=instance, user=self.request.user)

    @extend_schema(responses={204: None, **error_responses(401, 403, 404)})
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().delete(request, *args, **kwargs)


class SeasonStandingsView(generics.GenericAPIView[Season]):
    """The season table: every row at once (not paginated)."""

    serializer_class = SeasonStandingsSerializer
    permission_classes = [SeasonPermission]
    filter_backends: list[Any] = []

    @extend_schema(summary="A season's table", responses={200: SeasonStandingsSerializer})
    def get(self, request: Request, pk: int) -> Response:
        season = _season_seen(request, pk)
        table = season_view(season=season).table
        return Response(
            SeasonStandingsSerializer({"results": table.ranked, "unranked": table.unranked}).data
        )
