"""Adjustments: organisers' penalties and bonuses, and the byes' scores.

Vocabulary: an *adjustment* adds points to one player's score apart from the
game scores (negative for a penalty), with a reason; a *bye* adjustment is
made by seating and goes with its round's seating.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import error_responses
from apikit.serializer_fields import (
    DecimalNumberField,
    EngineChoiceField,
    NumberField,
    StrictCharField,
)
from scoring.rules import SCORE_SETTING_MAX
from tournaments.api.base import TournamentNestedView
from tournaments.api.id_fields import IdRelatedField, id_field
from tournaments.models import Adjustment, Round
from tournaments.selectors.entries import adjustment_of, adjustments_of
from tournaments.services.adjustments import adjustment_add, adjustment_delete

# ----------------------------------------------------------------------------- serializers


class AdjustmentSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(source="player.name", read_only=True)
    round = serializers.IntegerField(source="round_id", read_only=True, allow_null=True)
    kind = serializers.ChoiceField(choices=Adjustment.Kind.choices, read_only=True)
    points = NumberField(help_text=_("Added to the player's score (negative for a penalty)."))
    reason = serializers.CharField(read_only=True)
    created = serializers.DateTimeField(read_only=True)


class AdjustmentInSerializer(serializers.Serializer[Any]):
    """Types only: the service judges the values (sign, size, reason) with its messages."""

    player = id_field(help_text=_("An entered player's id."))
    # A JSON number (text is read too), so that the document can show its bounds.
    points = DecimalNumberField(
        max_digits=None,
        decimal_places=None,
        # Documented and checked here, so that a huge number is no work for the service.
        min_value=-SCORE_SETTING_MAX,
        max_value=SCORE_SETTING_MAX,
        help_text=_(
            "Added to the score: negative for a penalty, positive for a bonus; at most 2 decimals."
        ),
    )
    reason = StrictCharField(
        max_length=1000, allow_blank=True, help_text=_("Why (up to 200 characters).")
    )
    kind = EngineChoiceField(
        choices=[Adjustment.Kind.PENALTY.value, Adjustment.Kind.BONUS.value],
        default=Adjustment.Kind.PENALTY.value,
    )
    round = IdRelatedField(
        queryset=Round.objects.all(),
        required=False,
        allow_null=True,
        help_text=_("A round of this tournament: the adjustment then counts in its stage only."),
    )


# ----------------------------------------------------------------------------- views


class TournamentAdjustmentsView(TournamentNestedView):
    """Organisers' penalties and bonuses, and the byes' scores."""

    serializer_class = AdjustmentSerializer
    input_serializer = AdjustmentInSerializer

    def get_queryset(self) -> QuerySet[Any]:
        if getattr(self, "swagger_fake_view", False):
            return Adjustment.objects.none()
        return adjustments_of(tournament=self.tournament())

    @extend_schema(
        summary="List a tournament's adjustments", responses=AdjustmentSerializer(many=True)
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(AdjustmentSerializer(page, many=True).data)

    @extend_schema(
        summary="Add a penalty or a bonus",
        description=_(
            "A penalty takes points away (negative `points`), a bonus adds them; each needs "
            "a reason. It counts in the standings' `score`, apart from the game scores."
        ),
        request=AdjustmentInSerializer,
        responses={201: AdjustmentSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament()
        given = AdjustmentInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        adjustment = adjustment_add(
            tournament=tournament,
            player_id=data["player"],
            points=data["points"],
            reason=data["reason"],
            kind=data["kind"],
            round=data.get("round"),
            user=request.user,
        )
        read = adjustment_of(tournament=tournament, adjustment_id=adjustment.pk)
        return Response(AdjustmentSerializer(read).data, status=status.HTTP_201_CREATED)


class TournamentAdjustmentView(TournamentNestedView):
    @extend_schema(
        summary="Remove a penalty or a bonus",
        description=_("A bye's score goes with its round's seating: re-seat instead (409)."),
        responses={204: None, **error_responses(401, 403, 404, 409)},
    )
    def delete(self, request: Request, tournament_id: int, adjustment_id: int) -> Response:
        adjustment = adjustment_of(tournament=self.tournament(), adjustment_id=adjustment_id)
        if adjustment is None:
            raise NotFound
        adjustment_delete(adjustment=adjustment, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
