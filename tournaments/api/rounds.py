"""Rounds: seating the next one, seating one again, and tables set by hand.

Vocabulary: a *round* is one sitting of all matches of a tournament; a
*match* is one table in it, its *seats* the players in seat order; a *bye* is
an active player not seated this round. A match's private token is shown to
whoever may record its games (the view says so in the serializer context,
``show_tokens``), null to everyone else.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import error_responses
from apikit.serializer_fields import CalendarDateField, EngineChoiceField
from tournaments.access import tournament_organiser
from tournaments.api.base import TournamentNestedView
from tournaments.api.id_fields import id_field
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.api.permissions import RoundPermission
from tournaments.models import Match, Round
from tournaments.selectors import visible as selectors
from tournaments.selectors.rounds import round_detail
from tournaments.services import rounds as round_services

# ----------------------------------------------------------------------------- serializers


class SeatSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(read_only=True, help_text=_("1 starts game 1."))
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(source="player.name", read_only=True)


class MatchBriefSerializer(serializers.Serializer[Any]):
    """A match in a round. Its private token is shown to whoever may record its games
    (the view says so in the context: ``show_tokens``), null to everyone else."""

    id = serializers.IntegerField(read_only=True)
    table = serializers.IntegerField(read_only=True)
    players = serializers.SerializerMethodField(help_text=_("Player ids in seat order."))
    seats = SeatSerializer(many=True, read_only=True)
    token = serializers.SerializerMethodField(
        help_text=_(
            "The match's private token, for its score sheet's QR code and the `X-Match-Token` "
            "header; shown to organisers only (null for everyone else)."
        )
    )

    def get_players(self, match: Match) -> list[int]:
        return [seat.player_id for seat in match.seats.all()]

    def get_token(self, match: Match) -> str | None:
        return match.token if self.context.get("show_tokens") else None


class RoundSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    number = serializers.IntegerField(read_only=True)
    stage = serializers.ChoiceField(choices=Round.Stage.choices, read_only=True)
    date = serializers.DateField(read_only=True, allow_null=True)
    games_per_match = serializers.IntegerField(read_only=True)
    matches = MatchBriefSerializer(many=True, read_only=True)
    byes = serializers.SerializerMethodField(
        help_text=_("Players not seated this round; they get the tournament's bye score.")
    )

    def get_byes(self, round_: Round) -> list[int]:
        return [bye.player_id for bye in getattr(round_, "byes", ())]


class RoundSeatInSerializer(serializers.Serializer[Any]):
    """What to seat: the next qualifying round (the default), the semi-finals or the final."""

    stage = EngineChoiceField(
        choices=Round.Stage.choices,
        default=Round.Stage.QUALIFYING.value,
        help_text=_(
            "`qualifying` seats with the tournament's seating method; `semifinal` seats the "
            "top players of the qualifying standings; `final` the semi-final winners (or the "
            "top of the standings)."
        ),
    )
    date = CalendarDateField(required=False, allow_null=True)


class RoundTablesInSerializer(serializers.Serializer[Any]):
    """An organiser's own tables for a round."""

    tables = serializers.ListField(
        child=serializers.ListField(child=id_field(), max_length=50),
        max_length=1000,
        help_text=_("Player ids per table, in seat order; every active player once."),
    )
    byes = serializers.ListField(
        child=id_field(),
        required=False,
        default=list,
        max_length=1000,
        help_text=_("Active players who sit this round out (they get the bye score)."),
    )


# ----------------------------------------------------------------------------- views


class TournamentRoundsView(TournamentNestedView):
    """A tournament's rounds, and seating the next one."""

    serializer_class = RoundSerializer
    input_serializer = RoundSeatInSerializer

    def get_queryset(self) -> QuerySet[Any]:
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        return selectors.rounds_of(tournament=self.tournament())

    def get_serializer_context(self) -> dict[str, Any]:
        shown = tournament_organiser(user=self.request.user, tournament=self.tournament())
        return {**super().get_serializer_context(), "show_tokens": shown}

    @extend_schema(summary="List a tournament's rounds", responses=RoundSerializer(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        context = self.get_serializer_context()
        return self.get_paginated_response(RoundSerializer(page, many=True, context=context).data)

    @extend_schema(
        summary="Seat the next round",
        description=_(
            "Seats the next qualifying round (active players, the tournament's seating "
            "method), or with `stage` the semi-finals or the final, and answers the new "
            "round. The body may be empty. 409 when the last round still misses results, "
            "all planned rounds are seated, or fewer than 2 players are active."
        ),
        request=RoundSeatInSerializer,
        responses={201: RoundSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament()
        given = RoundSeatInSerializer(data=request.data or {})
        given.is_valid(raise_exception=True)
        round_ = round_services.round_seat_next(
            tournament=tournament, user=request.user, **given.validated_data
        )
        return Response(
            RoundSerializer(
                round_detail(round_id=round_.pk), context=self.get_serializer_context()
            ).data,
            status=status.HTTP_201_CREATED,
        )


@extend_schema_view(retrieve=extend_schema(summary="A round with its matches"))
class RoundViewSet(
    IdempotentWritesMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Round]
):
    """A round with its matches, in seat order; an organiser also sees each match's token."""

    serializer_class = RoundSerializer
    permission_classes = [RoundPermission]
    lookup_value_converter = "api_id"

    def get_queryset(self) -> QuerySet[Round]:
        return selectors.rounds_visible(user=self.request.user)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.round_response(self.get_object())

    def round_response(self, round_: Round, *, changed: bool = False) -> Response:
        if changed:  # read back what the service stored
            round_ = round_detail(round_id=round_.pk)
        shown = tournament_organiser(user=self.request.user, tournament=round_.tournament)
        return Response(RoundSerializer(round_, context={"show_tokens": shown}).data)

    @extend_schema(
        summary="Seat a round again",
        description=_(
            "Seats the last round again with the same method (after check-ins or "
            "withdrawals), while none of its games is recorded; its matches and their tokens "
            "are kept table by table. 409 once it has results or a later round exists."
        ),
        request=None,
        responses={200: RoundSerializer, **error_responses(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def reseat(self, request: Request, pk: int) -> Response:
        round_ = round_services.round_reseat(round=self.get_object(), user=request.user)
        return self.round_response(round_, changed=True)

    @extend_schema(
        summary="Set a round's tables by hand",
        description=_(
            "The organiser's own tables for the last round (seat order as given), while none "
            "of its games is recorded: a qualifying round seats every active player once or "
            "gives them a bye; a semi-final or final seats the same players it seats now."
        ),
        request=RoundTablesInSerializer,
        responses={200: RoundSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["put"])
    def seating(self, request: Request, pk: int) -> Response:
        round_ = self.get_object()
        given = RoundTablesInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = round_services.round_manual_set(
            round=round_, user=request.user, **given.validated_data
        )
        return self.round_response(round_, changed=True)
