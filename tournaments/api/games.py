"""Games: recording a match's games, reading, correcting and deleting them.

Vocabulary: a *game in* is a game as played (its ending and one rack in per
seated player), validated into the engine's ``RackIn`` list that the game
services take; a *game out* is a recorded game with its computed scores by
seat. Reading a game answers its ``ETag``; correcting or deleting it needs
``If-Match`` (see ``preconditions``). A game in may name its *number*: a
number already recorded is a *taken* game (409 with that game), except that
under double entry it is the game's second entry (``services.results``). Every
game answers its confirmation ``state``; a disputed game's ``second_entry`` is
shown to its organisers only. Confirming and restoring games is in ``confirm``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, mixins, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.defaults import StableOrderingFilter, json_parsers
from apikit.errors import error_responses
from tournaments.access import organised_by, tournament_organiser
from tournaments.api.auth import MATCH_AUTHENTICATION, match_grant
from tournaments.api.base import InputFormMixin
from tournaments.api.filters import GameFilter
from tournaments.api.game_serializers import (
    GameInSerializer,
    GameRecordInSerializer,
    GameSerializer,
    GameTakenSerializer,
    game_response,
    game_taken_response,
)
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.api.permissions import GamePermission, MatchGamesPermission
from tournaments.api.preconditions import ETAG_HEADER, IF_MATCH_HEADER, if_match_version
from tournaments.models import Game, Match
from tournaments.selectors import visible as selectors
from tournaments.selectors.matches import match_seated
from tournaments.services.game_scoring import GameAhead, game_score_ahead
from tournaments.services.games import (
    GameTakenError,
    game_correct,
    game_delete,
)
from tournaments.services.results import (
    SecondEntryRefusedError,
    game_enter,
    game_entry_conflict,
    game_entry_refused,
)

# ----------------------------------------------------------------------------- views


class MatchGamesView(IdempotentWritesMixin, InputFormMixin, generics.GenericAPIView[Game]):
    """A match's games: list them, or record the next one (validated and scored
    in ``write_prepare``, before the write's transaction)."""

    serializer_class = GameSerializer
    input_serializer = GameRecordInSerializer
    authentication_classes = MATCH_AUTHENTICATION
    permission_classes = [MatchGamesPermission]
    parser_classes = json_parsers()
    filter_backends: list[Any] = []
    _match: Match | None = None
    _entry: tuple[dict[str, Any], GameAhead] | None = None

    def match(self) -> Match:
        if self._match is None:
            grant = match_grant(self.request)
            if (
                grant is not None
                and grant.match is not None
                and grant.match_id == self.kwargs["match_id"]
            ):
                self._match = grant.match  # read with the token, its round and tournament
            elif self.request.method not in SAFE_METHODS:
                # A write: the match with its seats in one read, and what it is
                # shown to only when the permission refuses (404 for a match the
                # user may not see, 403 for one they see but do not organise).
                found = match_seated(match_id=self.kwargs["match_id"])
                if found is None:
                    raise Http404
                try:
                    self.check_object_permissions(self.request, found)
                except PermissionDenied:
                    seen = selectors.matches_seen(user=self.request.user, grant=grant)
                    if not seen.filter(pk=found.pk).exists():
                        raise Http404 from None
                    raise
                self._match = found
                return found
            else:
                self._match = get_object_or_404(
                    selectors.matches_seen(user=self.request.user, grant=grant),
                    pk=self.kwargs["match_id"],
                )
            self.check_object_permissions(self.request, self._match)
        return self._match

    def get_queryset(self) -> QuerySet[Game]:
        if getattr(self, "swagger_fake_view", False):
            return Game.objects.none()
        return selectors.games_of(match=self.match())

    @extend_schema(summary="List a match's games", responses=GameSerializer(many=True))
    def get(self, request: Request, match_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        match = self.match()
        organiser = tournament_organiser(user=request.user, tournament=match.round.tournament)
        data = GameSerializer(page, many=True, context={"organiser": organiser}).data
        return self.get_paginated_response(data)

    def write_prepare(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # Validated and scored before the write's transaction, which then holds only the writes.
        match = self.match()
        given = GameRecordInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        self._entry = (
            data,
            game_score_ahead(match=match, ending=data["ending"], racks=data["racks"]),
        )

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, GameTakenError | SecondEntryRefusedError):
            self._refusal_keep(exc)
        if isinstance(exc, GameTakenError):
            return game_taken_response(exc, request=self.request)
        return super().handle_exception(exc)

    def _refusal_keep(self, exc: GameTakenError | SecondEntryRefusedError) -> None:
        """A refused entry, kept in the match's history once its answer is final."""
        if self._entry is None:  # pragma: no cover - refused entries were prepared
            return
        data, _ahead = self._entry
        if isinstance(exc, GameTakenError):
            game_entry_conflict(
                taken=exc.game,
                match=self.match(),
                ending=data["ending"],
                racks=data["racks"],
                user=self.request.user,
            )
            return
        game_entry_refused(
            match=self.match(),
            number=exc.game.number,
            ending=data["ending"],
            racks=data["racks"],
            reason=exc.reason,
            user=self.request.user,
            game=exc.game,
        )

    @extend_schema(
        summary="Record a game",
        description=_(
            "Scores the game with the rules engine (the same as `POST /api/v1/score/`) and "
            "stores it as the match's game `number` (left out: its next game); `scores` "
            "follow the seat order. Every refusal (an unknown tile, a tile more than twice, "
            "a player not seated at this match, a number beyond the round's games, …) is a "
            "400 that names the field and says why; nothing is stored.\n\n"
            "When game `number` is recorded already the answer is 409: the message at "
            "`number` and, in `game`, the game as stored; nothing is stored (a second phone "
            "at the table, or a retry, sees what the first stored). Under the tournament's "
            "`confirmation` = `double_entry` a second entry of a game still `entered` is "
            "not refused: it answers 200 with the game, `confirmed` when its racks are the "
            "same, `disputed` (for an organiser to settle) when they differ; entering the "
            "same game twice yourself is a 409. A second entry counts only from someone "
            "other than the first: over the API that is an organiser (`Authorization`), "
            "never a match token (`X-Match-Token`): a token names no phone, so whoever holds "
            "it could enter both versions. A match token's second entry is refused (409, "
            "nothing stored); the table enters it on its page `/m/<token>/`, on another "
            "phone than the first (one that had the page open before the first entry), or "
            "an organiser enters it. A refused second entry, and a game sent with a number "
            "recorded already with other racks, are kept in the match's history "
            "(`game.refused`, with what was sent; a few per match per minute). Also 409 "
            "when all the match's games are recorded or the tournament is finished."
        ),
        request=GameRecordInSerializer,
        responses={
            201: OpenApiResponse(GameSerializer, description=_("The game is recorded.")),
            200: OpenApiResponse(
                GameSerializer,
                description=_("Double entry: this second entry confirmed the game or disputed it."),
            ),
            409: OpenApiResponse(
                GameTakenSerializer,
                description=_(
                    "That game number is recorded already (`game` holds it), all games are "
                    "recorded, or the tournament is finished."
                ),
            ),
            **error_responses(400, 401, 403, 404),
        },
        parameters=[ETAG_HEADER],
        examples=[
            OpenApiExample(
                "Rummikub at a table of 3",
                value={
                    "number": 2,
                    "ending": "rummikub",
                    "racks": [
                        {"player": 11, "tiles": ""},
                        {"player": 12, "tiles": "R5 J"},
                        {"player": 13, "points": 16, "jokers": 0},
                    ],
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, match_id: int) -> Response:
        if self._entry is None:  # pragma: no cover - write_prepare runs first
            raise RuntimeError("post needs write_prepare")
        data, ahead = self._entry
        entered = game_enter(
            match=self.match(),
            ending=data["ending"],
            racks=data["racks"],
            number=data.get("number"),
            user=request.user,
            ahead=ahead,
            savepoint=not self.write_keyed,
        )
        recorded = entered.outcome == "recorded"
        code = status.HTTP_201_CREATED if recorded else status.HTTP_200_OK
        # A new game is answered from memory; a confirmed or disputed one is read again.
        return game_response(entered.game, request=request, code=code, fresh=recorded)


@extend_schema_view(
    list=extend_schema(summary="List games", description=_("Every game you may see.")),
    retrieve=extend_schema(
        summary="A recorded game",
        description=_("Answers an `ETag`: send it in `If-Match` to correct or delete the game."),
        parameters=[ETAG_HEADER],
    ),
    update=extend_schema(
        summary="Correct a game",
        description=_(
            "Replaces the racks and recomputes the game's scores (and so the standings); the "
            "previous state stays in the game's history. Needs `If-Match`."
        ),
        request=GameInSerializer,
        responses={200: GameSerializer, **error_responses(400, 401, 403, 404, 412, 428)},
        parameters=[IF_MATCH_HEADER, ETAG_HEADER],
    ),
    destroy=extend_schema(
        summary="Delete a game",
        description=_(
            "Later games keep their numbers; the next game recorded fills the gap. Needs "
            "`If-Match`."
        ),
        responses={204: None, **error_responses(401, 403, 404, 412, 428)},
        parameters=[IF_MATCH_HEADER],
    ),
)
class GameViewSet(
    IdempotentWritesMixin,
    InputFormMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Game],
):
    serializer_class = GameSerializer
    input_serializer = GameInSerializer
    authentication_classes = MATCH_AUTHENTICATION
    permission_classes = [GamePermission]
    filterset_class = GameFilter
    filter_backends = [DjangoFilterBackend, StableOrderingFilter]
    ordering_fields = ["id", "number"]
    lookup_value_converter = "api_id"
    http_method_names = ["get", "put", "delete", "head", "options"]
    parser_classes = json_parsers()

    def get_queryset(self) -> QuerySet[Game]:
        return selectors.games_visible(user=self.request.user, grant=match_grant(self.request))

    def get_serializer_context(self) -> dict[str, Any]:
        organises = organised_by(user=self.request.user)
        return {
            **super().get_serializer_context(),
            "organiser": lambda game: organises(game.match.round.tournament),
        }

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return game_response(self.get_object(), request=request)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        version = if_match_version(request, game)
        given = GameInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        game = game_correct(
            game=game,
            ending=data["ending"],
            racks=data["racks"],
            version=version,
            user=request.user,
        )
        return game_response(game, request=request)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        game_delete(game=game, version=if_match_version(request, game), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
