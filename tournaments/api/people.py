"""Players (clubs are in ``clubs``).

Vocabulary: a *club* has a unique name and a city; a *player* a name and,
optionally, a club. Each lists and answers only those the request may see
(``access.clubs_visible_q`` / ``players_visible_q``: others are 404); a player
names only a club its user may use (``access.clubs_usable_q``: a public one or
their own; or the one named already): any other id answers as one that does
not exist, so that naming a club neither reveals nor publishes it; a
logged-in user creates them and becomes their *creator*; who may change or
delete one is ``access.club_editable`` / ``access.player_editable``: its
creator and staff (a player with results cannot be deleted: 409).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.defaults import StableOrderingFilter
from apikit.errors import error_responses
from apikit.serializer_fields import StrictTextMixin
from tournaments.api.base import ServiceModelViewSet
from tournaments.api.filters import PlayerFilter, PlayerSearch
from tournaments.api.permissions import PlayerPermission
from tournaments.api.tournament_fields import UsableClubField
from tournaments.models import Club, Player
from tournaments.selectors.people import players_listed
from tournaments.services import players as player_services

# ----------------------------------------------------------------------------- serializers


class PlayerSerializer(StrictTextMixin, serializers.ModelSerializer[Player]):
    club = UsableClubField(
        queryset=Club.objects.all(),
        allow_null=True,
        required=False,
        help_text=_(
            "The player's club (its id), or null: a club you created, or one a public "
            "tournament shows (or the one named already); any other id does not exist."
        ),
    )
    club_name = serializers.CharField(source="club.name", read_only=True, allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "name", "club", "club_name"]

    def to_representation(self, instance: Player) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        # A private club is named only to those who may see it (selectors.players_listed);
        # a player just written is answered to its creator, who may.
        if not getattr(instance, "club_seen", True):
            data["club"] = data["club_name"] = None
        return data


# ----------------------------------------------------------------------------- views


class PlayerViewSet(ServiceModelViewSet[Player]):
    """Players. Anyone reads those they may see (a public tournament's, their own);
    a logged-in user creates; their creator or staff changes or deletes (a player
    with results cannot be deleted: 409)."""

    queryset = Player.objects.select_related("club")
    serializer_class = PlayerSerializer
    permission_classes = [PlayerPermission]
    filterset_class = PlayerFilter
    filter_backends = [DjangoFilterBackend, PlayerSearch, StableOrderingFilter]
    search_fields = ["name", "club__name"]
    ordering_fields = ["name", "id"]
    ordering = ["name", "id"]
    lookup_value_converter = "api_id"

    def get_queryset(self) -> Any:
        return players_listed(user=self.request.user)

    def object_create(self, data: dict[str, Any]) -> Player:
        return player_services.player_create(created_by=self.request.user, **data)

    def object_update(self, instance: Player, data: dict[str, Any]) -> Player:
        return player_services.player_update(player=instance, user=self.request.user, **data)

    def object_delete(self, instance: Player) -> None:
        player_services.player_delete(player=instance, user=self.request.user)

    @extend_schema(responses={204: None, **error_responses(401, 403, 404, 409)})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().destroy(request, *args, **kwargs)
