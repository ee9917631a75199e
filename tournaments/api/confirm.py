"""Confirming and restoring games: an organiser's word on a result.

Vocabulary: *confirming* a game makes a game ``entered`` through a match link
(or awaiting its second entry) ``confirmed``; for a ``disputed`` game it
*settles* the dispute, keeping the first version (``take: first``) or taking
the second entry as a correction (``take: second``). *Restoring* brings a
deleted game back from its history (its ``game.deleted`` audit event), under
its old id and number. Both are for the tournament's organisers only: a match
token is refused (403), nobody confirms their own entry (409).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.defaults import json_parsers
from apikit.errors import error_responses
from tournaments.api.auth import MATCH_AUTHENTICATION, match_grant
from tournaments.api.base import InputFormMixin
from tournaments.api.game_serializers import GameSerializer, game_response
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.api.permissions import OrganiserOnly
from tournaments.models import AuditEvent, Game
from tournaments.selectors import visible as selectors
from tournaments.selectors.audit import game_deleted_visible
from tournaments.services.results import game_confirm, game_restore

TAKE_CHOICES = [
    ("first", _("first: the game as recorded stands")),
    ("second", _("second: the second entry replaces it")),
]


class GameConfirmInSerializer(serializers.Serializer[Any]):
    take = serializers.ChoiceField(
        choices=TAKE_CHOICES,
        required=False,
        help_text=_(
            "For a disputed game (required there), which version stands: `first` (the game "
            "as recorded) or `second` (its `second_entry`, stored as a correction)."
        ),
    )


class GameConfirmView(IdempotentWritesMixin, InputFormMixin, generics.GenericAPIView[Game]):
    """Confirm a game, or settle a disputed one."""

    serializer_class = GameSerializer
    input_serializer = GameConfirmInSerializer
    authentication_classes = MATCH_AUTHENTICATION  # so that a match token is told 403
    permission_classes = [OrganiserOnly]
    parser_classes = json_parsers()
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        return selectors.games_visible(user=self.request.user, grant=match_grant(self.request))

    def replay_check(self, request: Request, *args: Any, **kwargs: Any) -> None:
        game = generics.get_object_or_404(self.get_queryset(), pk=kwargs["game_id"])
        self.check_object_permissions(request, game)

    @extend_schema(
        operation_id="games_confirm",
        summary="Confirm a game",
        description=_(
            "An organiser confirms a game that is `entered` (recorded through a match link "
            "under `confirmation` = `organiser`, or awaiting its second entry under "
            "`double_entry`), or settles a `disputed` one: `take` = `first` keeps the game "
            "as recorded, `second` stores its `second_entry` as a correction (a disputed game "
            "without `take` is a 400). Otherwise the body may be empty. A confirmed game "
            "answers as it is. Organisers only: a match token "
            "is refused (403); 409 when you entered the game yourself (someone else "
            "confirms it) or the tournament is finished; 400 for `second` without a "
            "second entry."
        ),
        request=GameConfirmInSerializer,
        responses={200: GameSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = generics.get_object_or_404(self.get_queryset(), pk=game_id)
        self.check_object_permissions(request, game)
        given = GameConfirmInSerializer(data=request.data or {})
        given.is_valid(raise_exception=True)
        confirmed = game_confirm(
            game=game, user=request.user, take=given.validated_data.get("take")
        )
        return game_response(confirmed, request=request)


class GameRestoreView(IdempotentWritesMixin, generics.GenericAPIView[Game]):
    """Bring a deleted game back."""

    serializer_class = GameSerializer
    authentication_classes = MATCH_AUTHENTICATION  # so that a match token is told 403
    permission_classes = [OrganiserOnly]
    filter_backends: list[Any] = []

    def deletion(self, game_id: int) -> AuditEvent:
        """The last deletion of a game in a tournament the user may see."""
        event = game_deleted_visible(user=self.request.user, game_id=game_id)
        if event is None or event.match is None:
            raise Http404
        return event

    def replay_check(self, request: Request, *args: Any, **kwargs: Any) -> None:
        self.check_object_permissions(request, self.deletion(kwargs["game_id"]).match)

    @extend_schema(
        operation_id="games_restore",
        summary="Restore a deleted game",
        description=_(
            "Brings a deleted game back from its history, under its old id and number, with "
            "its racks re-scored by the tournament's rules (a disputed game comes back "
            "`entered`, to confirm again); the restoring is itself in the audit trail. "
            "Organisers of its tournament only (a match token is refused, 403). 404 when "
            "no game with this id was deleted in a tournament you may see (or it is not "
            "deleted); 409 when its number was recorded again since, or the tournament is "
            "finished."
        ),
        request=None,
        responses={201: GameSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        event = self.deletion(game_id)
        self.check_object_permissions(request, event.match)
        game = game_restore(event=event, user=request.user)
        return game_response(game, request=request, code=status.HTTP_201_CREATED)
