"""Invitations to co-organise a tournament, and who organises it.

Vocabulary: the owner of a tournament (or staff) *invites* a user by writing
their username into the tournament's ``co_organisers`` (``tournaments.py``);
the invited user lists their *pending* invitations here
(``GET /api/v1/invitations/``) and *accepts* or *declines* each. Until they
accept they have no right on the tournament. On the tournament's side, the
owner *withdraws* a waiting invitation and *removes* a co-organiser, both by
username, through one view (``TournamentByUsernameView``, given the service);
a co-organiser may remove themselves (leave). An invitation not
addressed to the user, or none, is a 404.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import error_responses
from tournaments.api.base import TournamentNestedView
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.api.permissions import InvitedUser, OrganiserOnly
from tournaments.api.tournaments import TournamentSerializer
from tournaments.models import CoOrganiserInvitation
from tournaments.selectors.tournaments import invitations_pending
from tournaments.services.co_organisers import (
    co_organiser_invitation_accept,
    co_organiser_invitation_decline,
    co_organiser_invitation_withdraw,
    co_organiser_remove,
)


class InvitationSerializer(serializers.ModelSerializer[CoOrganiserInvitation]):
    tournament = serializers.IntegerField(
        source="tournament_id", read_only=True, help_text=_("The tournament's id.")
    )
    tournament_name = serializers.CharField(source="tournament.name", read_only=True)
    invited_by = serializers.SerializerMethodField(
        help_text=_("Who invited you (username); null when no user did.")
    )

    class Meta:
        model = CoOrganiserInvitation
        fields = ["id", "tournament", "tournament_name", "invited_by", "created"]
        read_only_fields = fields

    def get_invited_by(self, invitation: CoOrganiserInvitation) -> str | None:
        by = invitation.invited_by
        return by.get_username() if by is not None else None


class InvitationViewSet(
    IdempotentWritesMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[CoOrganiserInvitation],
):
    """Your pending invitations to co-organise a tournament (logged-in users)."""

    serializer_class = InvitationSerializer
    permission_classes = [InvitedUser]
    filter_backends: list[Any] = []
    lookup_value_converter = "api_id"

    def get_queryset(self) -> QuerySet[CoOrganiserInvitation]:
        if getattr(self, "swagger_fake_view", False):
            return CoOrganiserInvitation.objects.none()
        return invitations_pending(user=self.request.user).order_by("created", "id")

    @extend_schema(
        summary="Accept an invitation",
        description=_(
            "You co-organise the tournament from now on: it answers as its organisers see "
            "it. 404 when no invitation with this id waits for you; 409 when it was "
            "withdrawn meanwhile."
        ),
        request=None,
        responses={200: TournamentSerializer, **error_responses(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: int) -> Response:
        tournament = co_organiser_invitation_accept(invitation=self.get_object(), user=request.user)
        context = self.get_serializer_context()
        return Response(TournamentSerializer(tournament, context=context).data)

    @extend_schema(
        summary="Decline an invitation",
        description=_(
            "The invitation goes; nothing else changes. 404 when no invitation with this id "
            "waits for you; 409 when it was withdrawn meanwhile."
        ),
        request=None,
        responses={204: None, **error_responses(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def decline(self, request: Request, pk: int) -> Response:
        co_organiser_invitation_decline(invitation=self.get_object(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentByUsernameView(TournamentNestedView):
    """One of the tournament's people by username, taken away by ``remove`` (a
    service of ``(tournament, by, username)`` that refuses with 403 or 404):
    the one DELETE of a waiting invitation and of a co-organiser."""

    permission_classes = [OrganiserOnly]
    serializer_class = InvitationSerializer
    remove: ClassVar[Callable[..., None]]

    def delete(self, request: Request, tournament_id: int, username: str) -> Response:
        type(self).remove(tournament=self.tournament(), by=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _deletion_documented(
    *, operation_id: str, summary: str, description: Any
) -> Callable[[type[TournamentByUsernameView]], type[TournamentByUsernameView]]:
    return extend_schema_view(
        delete=extend_schema(
            operation_id=operation_id,
            summary=summary,
            description=description,
            request=None,
            responses={204: None, **error_responses(400, 401, 403, 404)},
        )
    )


@_deletion_documented(
    operation_id="tournaments_invitations_withdraw",
    summary="Withdraw an invitation",
    description=_(
        "The owner (or staff) withdraws the invitation waiting for this username; "
        "co-organisers may not (403). 404 when none waits."
    ),
)
class TournamentInvitationView(TournamentByUsernameView):
    """An invitation waiting for its answer, by username: the owner withdraws it."""

    remove = staticmethod(co_organiser_invitation_withdraw)


@_deletion_documented(
    operation_id="tournaments_co_organisers_remove",
    summary="Remove a co-organiser",
    description=_(
        "The owner (or staff) removes a co-organiser, or a co-organiser removes "
        "themselves; other co-organisers may not (403). 404 when the username is no "
        "co-organiser of the tournament."
    ),
)
class TournamentCoOrganiserView(TournamentByUsernameView):
    """A co-organiser, by username: the owner removes them, or they leave."""

    remove = staticmethod(co_organiser_remove)
