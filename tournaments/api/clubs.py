"""Clubs: the club itself, its members, who organises it, and one's invitations.

Vocabulary: a club answers its ``slug`` (its page is ``/c/<slug>/``), whether
it is ``public`` and its ``organisers`` (usernames: its creator first, then its
co-organisers). Anyone reads the clubs they may see (``access.clubs_visible_q``:
public ones; a private one only its organisers and staff, and by name the
organisers of a tournament naming it); any other id answers 404. A logged-in
user creates one and is its creator; its organisers change its name, city and
slug and manage its members (``/clubs/{id}/members/``: players whose club it
is; an organiser adds a new one by name or one of their own players by id,
and removes one, who keeps their results); its creator (and staff) alone
changes ``public``, deletes it and says who organises it: invites a username
(``POST /clubs/{id}/invitations/``), withdraws an invitation and removes a
co-organiser (a co-organiser may remove themselves). The invited user answers
under ``/club-invitations/``. Every write goes through ``services.clubs``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.defaults import json_parsers
from apikit.errors import error_responses
from apikit.serializer_fields import StrictTextMixin
from tournaments.access import club_editable, club_organiser, user_or_none
from tournaments.api.auth import match_grant
from tournaments.api.base import InputFormMixin, ServiceModelViewSet
from tournaments.api.filters import ClubFilter
from tournaments.api.id_fields import id_field
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.api.permissions import InvitedUser
from tournaments.models import Club, ClubInvitation, Player
from tournaments.selectors.clubs import (
    club_invitations_pending,
    club_shown_by_id,
    clubs_shown,
    member_of,
    members_shown,
)
from tournaments.selectors.people import players_owned
from tournaments.services import clubs as club_services
from tournaments.services.clubs import SLUG_MAX
from tournaments.services.co_organisers import USERNAME_MAX

# ----------------------------------------------------------------------------- permissions


class ClubPermission(BasePermission):
    """Anyone reads what they may see; creating needs a login; its organisers
    change a club; its creator and staff delete it (a match token writes nothing)."""

    message = _("Only the club's organisers may change it.")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return match_grant(request) is None and user_or_none(request.user) is not None

    def has_object_permission(self, request: Request, view: Any, obj: Club) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if request.method == "DELETE" and getattr(view, "action", None) == "destroy":
            self.message = _("Only the club's creator may do this.")
            return club_editable(user=request.user, club=obj)
        return club_organiser(user=request.user, club=obj)


# ----------------------------------------------------------------------------- serializers


class ClubSerializer(StrictTextMixin, serializers.ModelSerializer[Club]):
    slug = serializers.SlugField(
        max_length=SLUG_MAX,
        required=False,
        allow_blank=True,
        help_text=_(
            "The club's address (its page is /c/<slug>/): letters, numbers, hyphens and "
            "underscores; made from the name when not given."
        ),
    )
    public = serializers.BooleanField(
        required=False,
        help_text=_(
            "Anyone may see a public club; a private one only its organisers (and staff). "
            "Only its creator changes it."
        ),
    )
    organisers = serializers.SerializerMethodField(
        help_text=_("Who organises the club (usernames): its creator first, then co-organisers.")
    )

    class Meta:
        model = Club
        fields = ["id", "name", "city", "slug", "public", "organisers"]
        # A name or slug in use is the service's refusal, with its message.
        extra_kwargs: dict[str, dict[str, Any]] = {"name": {"validators": []}}

    def get_organisers(self, club: Club) -> list[str]:
        creator = [club.created_by.get_username()] if club.created_by is not None else []
        return creator + sorted(u.get_username() for u in club.co_organisers.all())


class MemberSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name"]
        read_only_fields = fields


class MemberAddSerializer(StrictTextMixin, serializers.Serializer[Any]):
    player = id_field(
        required=False,
        help_text=_("One of your players (its id): they become a member."),
    )
    name = serializers.CharField(
        required=False,
        max_length=Player._meta.get_field("name").max_length or 120,
        help_text=_("A new player of this name, a member from now on."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("player" in attrs) == ("name" in attrs):
            raise serializers.ValidationError(_("Give either player or name."))
        return attrs


class ClubInviteSerializer(StrictTextMixin, serializers.Serializer[Any]):
    username = serializers.CharField(max_length=USERNAME_MAX)


class ClubInvitationSerializer(serializers.ModelSerializer[ClubInvitation]):
    club = serializers.IntegerField(source="club_id", read_only=True, help_text=_("The club's id."))
    club_name = serializers.CharField(source="club.name", read_only=True)
    invited_by = serializers.SerializerMethodField(
        help_text=_("Who invited you (username); null when no user did.")
    )

    class Meta:
        model = ClubInvitation
        fields = ["id", "club", "club_name", "invited_by", "created"]
        read_only_fields = fields

    def get_invited_by(self, invitation: ClubInvitation) -> str | None:
        by = invitation.invited_by
        return by.get_username() if by is not None else None


# ----------------------------------------------------------------------------- the club


class ClubViewSet(ServiceModelViewSet[Club]):
    """Clubs. Anyone reads those they may see (public ones, their own); a
    logged-in user creates one; its organisers change it; its creator or staff
    deletes it or changes ``public``."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    permission_classes = [ClubPermission]
    filterset_class = ClubFilter
    search_fields = ["name", "city"]
    ordering_fields = ["name", "city", "id"]
    ordering = ["name", "id"]
    lookup_value_converter = "api_id"

    def get_queryset(self) -> Any:
        return clubs_shown(user=self.request.user)

    def object_create(self, data: dict[str, Any]) -> Club:
        return club_services.club_create(created_by=self.request.user, **data)

    def object_update(self, instance: Club, data: dict[str, Any]) -> Club:
        return club_services.club_update(club=instance, user=self.request.user, **data)

    def object_delete(self, instance: Club) -> None:
        club_services.club_delete(club=instance, user=self.request.user)


# ----------------------------------------------------------------------------- under one club


class ClubNestedView(IdempotentWritesMixin, InputFormMixin, generics.GenericAPIView[Any]):
    """A view under ``/clubs/{club_id}/``: the club among those the request may
    see (404 otherwise), its organisers for a write (401/403)."""

    permission_classes = [ClubPermission]
    parser_classes = json_parsers()
    filter_backends: list[Any] = []
    _club: Club | None = None

    def club(self) -> Club:
        if self._club is None:
            found = club_shown_by_id(user=self.request.user, pk=self.kwargs["club_id"])
            if found is None:
                raise NotFound
            self._club = found
            self.check_object_permissions(self.request, found)
        return self._club

    def replay_check(self, request: Request, *args: Any, **kwargs: Any) -> None:
        self.club()


class ClubMembersView(ClubNestedView):
    """The club's members: all of them for its organisers, for anyone else those
    they may see anyway; its organisers add one."""

    serializer_class = MemberSerializer
    input_serializer = MemberAddSerializer

    @extend_schema(
        summary="A club's members",
        responses={200: MemberSerializer(many=True), **error_responses(404)},
    )
    def get(self, request: Request, club_id: int) -> Response:
        shown = members_shown(user=request.user, club=self.club())
        page = self.paginate_queryset(shown)
        return self.get_paginated_response(MemberSerializer(page, many=True).data)

    @extend_schema(
        summary="Add a member",
        description=_(
            "A new player by ``name``, or one of your players by id (``player``), becomes a "
            "member. The club's organisers only (403); a player you may not change is 403, "
            "an id you may not see 400."
        ),
        request=MemberAddSerializer,
        responses={201: MemberSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.club()
        given = MemberAddSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        player = None
        if "player" in given.validated_data:
            owned = players_owned(user=request.user)
            player = owned.filter(pk=given.validated_data["player"]).first()
            if player is None:
                raise serializers.ValidationError(
                    {"player": [_("No player with this id is yours to add.")]}
                )
        added = club_services.member_add(
            club=club,
            user=request.user,
            name=given.validated_data.get("name", ""),
            player=player,
        )
        return Response(MemberSerializer(added).data, status=status.HTTP_201_CREATED)


class ClubMemberView(ClubNestedView):
    """One member: leaving the club (its organisers, or the player's creator)."""

    serializer_class = MemberSerializer

    @extend_schema(
        summary="A member leaves the club",
        description=_(
            "The player keeps their results, without a club. The club's organisers only "
            "(403); 404 when the player is no member of it."
        ),
        request=None,
        responses={204: None, **error_responses(401, 403, 404)},
    )
    def delete(self, request: Request, club_id: int, player_id: int) -> Response:
        club = self.club()
        player = member_of(club=club, player_id=player_id)
        if player is None:
            raise NotFound
        club_services.member_remove(club=club, player=player, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubInvitationsView(ClubNestedView):
    """Inviting a user to co-organise the club (its creator and staff)."""

    serializer_class = ClubInviteSerializer

    @extend_schema(
        summary="Invite a co-organiser",
        description=_(
            "The club's creator (or staff) invites a username; the answer is the same "
            "whether or not an account has it. Inviting again answers the waiting "
            "invitation. Other organisers may not (403); 409 when they co-organise it already."
        ),
        request=ClubInviteSerializer,
        responses={201: ClubInviteSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.club()
        given = ClubInviteSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        invitation = club_services.club_invitation_send(
            club=club, by=request.user, username=given.validated_data["username"]
        )
        return Response({"username": invitation.username}, status=status.HTTP_201_CREATED)


@extend_schema_view(
    delete=extend_schema(
        operation_id="clubs_invitations_withdraw",
        summary="Withdraw a club invitation",
        description=_(
            "The club's creator (or staff) withdraws the invitation waiting for this "
            "username; other organisers may not (403). 404 when none waits."
        ),
        request=None,
        responses={204: None, **error_responses(400, 401, 403, 404)},
    )
)
class ClubInvitationView(ClubNestedView):
    serializer_class = ClubInviteSerializer

    def delete(self, request: Request, club_id: int, username: str) -> Response:
        club_services.club_invitation_withdraw(club=self.club(), by=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    delete=extend_schema(
        operation_id="clubs_co_organisers_remove",
        summary="Remove a club co-organiser",
        description=_(
            "The club's creator (or staff) removes a co-organiser, or a co-organiser "
            "removes themselves; other co-organisers may not (403). 404 when the username "
            "is no co-organiser of the club."
        ),
        request=None,
        responses={204: None, **error_responses(400, 401, 403, 404)},
    )
)
class ClubCoOrganiserView(ClubNestedView):
    serializer_class = ClubInviteSerializer

    def delete(self, request: Request, club_id: int, username: str) -> Response:
        club_services.club_co_organiser_remove(club=self.club(), by=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ----------------------------------------------------------------------------- one's invitations


class ClubInvitationViewSet(
    IdempotentWritesMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[ClubInvitation],
):
    """Your pending invitations to co-organise a club (logged-in users)."""

    serializer_class = ClubInvitationSerializer
    permission_classes = [InvitedUser]
    filter_backends: list[Any] = []
    lookup_value_converter = "api_id"

    def get_queryset(self) -> QuerySet[ClubInvitation]:
        if getattr(self, "swagger_fake_view", False):
            return ClubInvitation.objects.none()
        return club_invitations_pending(user=self.request.user)

    @extend_schema(
        summary="Accept a club invitation",
        description=_(
            "You co-organise the club from now on. 404 when no invitation with this id "
            "waits for you; 409 when it was withdrawn meanwhile."
        ),
        request=None,
        responses={200: ClubSerializer, **error_responses(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: int) -> Response:
        club = club_services.club_invitation_accept(invitation=self.get_object(), user=request.user)
        return Response(ClubSerializer(club, context=self.get_serializer_context()).data)

    @extend_schema(
        summary="Decline a club invitation",
        description=_(
            "The invitation goes; nothing else changes. 404 when no invitation with this id "
            "waits for you; 409 when it was withdrawn meanwhile."
        ),
        request=None,
        responses={204: None, **error_responses(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def decline(self, request: Request, pk: int) -> Response:
        club_services.club_invitation_decline(invitation=self.get_object(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
