"""Matches: a table's seats and games, the match a token opens, and its history.

Vocabulary: a *match* is one table in one round; a *revision* is one
change to one of its games (recorded, corrected, deleted, restored, confirmed,
disputed: the game's audit events), with the game as it was then. A match's
private token is shown to the holder of that token and to the tournament's
organisers, who may also *replace* it (the old one stops working).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import error_responses
from tournaments.access import game_racks_withheld, tournament_organiser
from tournaments.api.auth import MATCH_AUTHENTICATION, MatchTokenAuthentication, match_grant
from tournaments.api.game_serializers import GameSerializer
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.api.permissions import MatchGamesPermission, MatchGrantRequired, OrganiserOnly
from tournaments.api.rounds import MatchBriefSerializer
from tournaments.models import AuditEvent, Game, Match
from tournaments.selectors import visible as selectors
from tournaments.selectors.audit import game_history_of
from tournaments.services.matches import match_token_regenerate

# ----------------------------------------------------------------------------- serializers


class MatchSerializer(MatchBriefSerializer):
    round = serializers.IntegerField(source="round_id", read_only=True)
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    tournament = serializers.IntegerField(source="round.tournament_id", read_only=True)
    games_planned = serializers.IntegerField(source="round.games_per_match", read_only=True)
    games = GameSerializer(many=True, read_only=True)


HISTORY_ACTIONS = [
    ("recorded", _("recorded")),
    ("corrected", _("corrected")),
    ("deleted", _("deleted")),
    ("restored", _("restored")),
    ("confirmed", _("confirmed")),
    ("disputed", _("disputed")),
    ("refused", _("refused: an entry not stored (its snapshot is what was sent)")),
]


class GameRevisionSerializer(serializers.Serializer[Any]):
    game = serializers.SerializerMethodField(help_text=_("Null once the game is deleted."))
    number = serializers.IntegerField(source="game_number", read_only=True)
    version = serializers.IntegerField(read_only=True)
    action = serializers.SerializerMethodField()
    at = serializers.DateTimeField(read_only=True)
    user = serializers.CharField(
        source="username",
        read_only=True,
        allow_null=True,
        default=None,
        help_text=_("Null for a match token."),
    )
    snapshot = serializers.SerializerMethodField(
        help_text=_(
            "The game as it was then: ending, state and racks (player, tiles or points and "
            "jokers, rack value, score, winner)."
        ),
    )

    def get_game(self, event: AuditEvent) -> int | None:
        return event.object_id if getattr(event, "game_exists", False) else None

    @extend_schema_field(serializers.ChoiceField(choices=HISTORY_ACTIONS))
    def get_action(self, event: AuditEvent) -> str:
        return event.action.removeprefix("game.")

    @extend_schema_field(serializers.JSONField())
    def get_snapshot(self, event: AuditEvent) -> Any:
        snapshot = event.new if event.new is not None else event.old
        if event.object_id in self.context.get("withheld", ()):
            # The game waits for its second entry: its racks are for the organisers.
            return {"state": Game.State.ENTERED, "racks": []}
        if isinstance(snapshot, dict) and not self.context.get("organiser"):
            # A dispute's other version is for the organisers to settle.
            snapshot = {k: v for k, v in snapshot.items() if k != "second_entry"}
        return snapshot

    def to_representation(self, instance: Any) -> Any:
        data = super().to_representation(instance)
        data["user"] = data["user"] or None
        return data


# ----------------------------------------------------------------------------- views


class MatchViewSet(
    IdempotentWritesMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Match]
):
    """A match: its table, seats and games. Its token (``X-Match-Token``) reads it too."""

    serializer_class = MatchSerializer
    authentication_classes = MATCH_AUTHENTICATION
    permission_classes = [MatchGamesPermission]
    lookup_value_converter = "api_id"

    def get_queryset(self) -> QuerySet[Match]:
        return selectors.matches_visible(user=self.request.user, grant=match_grant(self.request))

    @extend_schema(summary="A match with its seats and games")
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        match = self.get_object()
        grant = match_grant(request)
        organiser = tournament_organiser(user=request.user, tournament=match.round.tournament)
        shown = (grant is not None and grant.match_id == match.pk) or organiser
        context = {"show_tokens": shown, "organiser": organiser}
        return Response(MatchSerializer(match, context=context).data)

    @extend_schema(
        operation_id="matches_token_create",
        summary="Replace a match's token",
        description=_(
            "Gives the match a new private token (answered in `token`): the old one, its "
            "link `/m/<token>/` and its score sheet's QR code stop working at once, so the "
            "match's score sheet must be printed again. Organisers only (the match's own "
            "token is refused, 403); 409 once the tournament is finished. The trail keeps "
            "only the tokens' last four characters."
        ),
        request=None,
        responses={200: MatchSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="token", permission_classes=[OrganiserOnly])
    def token(self, request: Request, pk: int) -> Response:
        match = match_token_regenerate(match=self.get_object(), user=request.user)
        match = selectors.match_visible(user=request.user, grant=None, match_id=match.pk)
        context = {"show_tokens": True, "organiser": True}
        return Response(MatchSerializer(match, context=context).data)


class MatchByTokenView(generics.GenericAPIView[Match]):
    """The match an ``X-Match-Token`` opens: how a token holder learns the match id and
    the seated players' ids."""

    serializer_class = MatchSerializer
    authentication_classes = [MatchTokenAuthentication]
    permission_classes = [MatchGrantRequired]

    @extend_schema(
        operation_id="matches_by_token_retrieve",
        summary="The match of a match token",
        responses={200: MatchSerializer, **error_responses(401)},
    )
    def get(self, request: Request) -> Response:
        grant = match_grant(request)
        assert grant is not None  # MatchGrantRequired
        match = selectors.match_visible(user=None, grant=grant, match_id=grant.match_id)
        context = {"show_tokens": True, "organiser": False}
        return Response(MatchSerializer(match, context=context).data)


class MatchHistoryView(generics.GenericAPIView[AuditEvent]):
    """Every change to a match's games (its audit events), oldest first."""

    serializer_class = GameRevisionSerializer
    authentication_classes = MATCH_AUTHENTICATION
    permission_classes = [MatchGamesPermission]
    filter_backends: list[Any] = []
    _match: Match

    def get_queryset(self) -> QuerySet[AuditEvent]:
        if getattr(self, "swagger_fake_view", False):
            return AuditEvent.objects.none()
        match = selectors.match_seen(
            user=self.request.user,
            grant=match_grant(self.request),
            match_id=self.kwargs["match_id"],
        )
        if match is None:
            raise NotFound
        self.check_object_permissions(self.request, match)
        self._match = match
        return game_history_of(match=match)

    @extend_schema(
        summary="A match's game history",
        description=_(
            "Corrections keep history: each entry is one recording, correction, deletion, "
            "restoring, confirmation or dispute (a second entry that differs), with the "
            "game's racks, scores and state as they were then. A dispute's snapshot holds "
            "the other version in `second_entry` for the tournament's organisers only."
        ),
        responses={200: GameRevisionSerializer(many=True), **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        tournament = self._match.round.tournament
        organiser = tournament_organiser(user=request.user, tournament=tournament)
        withheld = {
            game.pk
            for game in self._match.games.all()
            if game_racks_withheld(game=game, tournament=tournament, organiser=organiser)
        }
        context = {"organiser": organiser, "withheld": withheld}
        data = GameRevisionSerializer(page, many=True, context=context).data
        return self.get_paginated_response(data)
