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

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import generics, mixins, serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.calculator import ENDING_CHOICES, ENDING_HELP, RackInSerializer
from scoring.api.defaults import StableOrderingFilter, json_parsers
from scoring.api.errors import error_responses
from scoring.api.fields import EngineChoiceField, NumberField, RacksField
from scoring.errors import NON_FIELD, UserError
from scoring.rules import GAME_NUMBER_MAX
from tournaments.access import game_racks_withheld, tournament_organiser
from tournaments.models import Game, Match, Rack
from tournaments.services.game_scoring import game_score_ahead
from tournaments.services.games import (
    GameTakenError,
    game_correct,
    game_delete,
    game_racks_entered,
)
from tournaments.services.results import game_enter

from . import selectors
from .auth import MATCH_AUTHENTICATION, match_grant
from .base import InputFormMixin
from .fields import id_field
from .filters import GameFilter
from .idempotency import idempotency_begin, idempotency_deferred
from .permissions import GamePermission, MatchGamesPermission, organiser_check
from .preconditions import ETAG_HEADER, IF_MATCH_HEADER, etag_of, if_match_version

# ----------------------------------------------------------------------------- serializers


class RackOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id", read_only=True)
    position = serializers.IntegerField(read_only=True, help_text=_("The player's seat."))
    tiles = serializers.SerializerMethodField(
        help_text=_("The tiles as entered (canonical order), or null when entered as points.")
    )
    points = serializers.IntegerField(read_only=True, help_text=_("Face points."))
    jokers = serializers.IntegerField(read_only=True)
    rack_value = NumberField(help_text=_("Face points plus the penalty per joker."))
    score = NumberField(help_text=_("This game's score; the game sums to zero."))
    winner = serializers.BooleanField(read_only=True)
    table_points = NumberField(help_text=_("This game's table points."))

    def get_tiles(self, rack: Rack) -> str | None:
        return rack.tiles if rack.entered_as_tiles else None


class GameRackInSerializer(RackInSerializer):
    player = id_field(help_text=_("The id of a player seated at the match."))  # type: ignore[assignment]


class GameInSerializer(serializers.Serializer):
    """A game as played: how it ended and one rack per seated player."""

    ending = EngineChoiceField(choices=ENDING_CHOICES, help_text=ENDING_HELP)
    racks = RacksField(
        child=GameRackInSerializer(), help_text=_("One rack per seated player, in seat order.")
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        """A recorded game as the body that would record it again (the browsable API's
        correction form starts from it)."""
        if isinstance(instance, Game):
            instance = {
                "ending": instance.ending,
                "racks": game_racks_entered(racks=instance.racks.all()),
            }
        return dict(super().to_representation(instance))


class GameRecordInSerializer(GameInSerializer):
    """A game to record, optionally naming its number."""

    number = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=GAME_NUMBER_MAX,
        help_text=_(
            "The game number the client means (the entry form's “Game 2”); left out, the "
            "lowest free number. When that game is recorded already the answer is 409 with it."
        ),
    )


class GameSerializer(serializers.Serializer):
    """A recorded game. ``second_entry`` is shown to organisers only, and so are the
    racks of a game waiting for its second entry: the view says who they are in the
    context (``organiser``: a bool, or a check of a game)."""

    id = serializers.IntegerField(read_only=True)
    match = serializers.IntegerField(source="match_id", read_only=True)
    number = serializers.IntegerField(read_only=True, help_text=_("1, 2, … within the match."))
    ending = serializers.ChoiceField(choices=ENDING_CHOICES, read_only=True)
    version = serializers.IntegerField(
        read_only=True, help_text=_("Bumped by every correction; the ETag.")
    )
    state = serializers.ChoiceField(
        choices=Game.State.choices,
        read_only=True,
        help_text=_(
            "`confirmed`; `entered` while it awaits an organiser's confirmation or, under "
            "double entry, its second entry; `disputed` when two entries differ."
        ),
    )
    second_entry = serializers.SerializerMethodField(
        help_text=_(
            "A disputed game's other version (ending and racks as entered), for its "
            "organisers; null otherwise and for everyone else."
        )
    )
    winners = serializers.SerializerMethodField(help_text=_("Winners' player ids."))
    scores = RackOutSerializer(
        source="racks",
        many=True,
        read_only=True,
        help_text=_(
            "By seat. Empty, like `winners`, while the game waits for its second entry "
            "under double entry, except for organisers: the second entry is typed on its own."
        ),
    )

    def _organiser(self, game: Game) -> bool:
        shown: bool | Callable[[Game], bool] = self.context.get("organiser", False)
        return shown(game) if callable(shown) else shown

    def get_winners(self, game: Game) -> list[int]:
        return [rack.player_id for rack in game.racks.all() if rack.winner]

    @extend_schema_field(GameInSerializer(allow_null=True, read_only=True))
    def get_second_entry(self, game: Game) -> dict[str, Any] | None:
        if game.second_entry is None:
            return None
        return game.second_entry if self._organiser(game) else None

    def to_representation(self, instance: Game) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        tournament = instance.match.round.tournament
        organiser = self._organiser(instance)
        if game_racks_withheld(game=instance, tournament=tournament, organiser=organiser):
            data["scores"], data["winners"] = [], []
        return data


class GameTakenSerializer(serializers.Serializer):
    """The 409 of a game number already recorded: the message at `number`, the game
    in `game`. Other conflicts (all games recorded, a finished tournament) answer the
    message alone."""

    number = serializers.ListField(child=serializers.CharField(), required=False)
    non_field_errors = serializers.ListField(child=serializers.CharField(), required=False)
    game = GameSerializer(required=False, help_text=_("The game recorded under that number."))


def game_data(game: Game, *, request: Request) -> dict[str, Any]:
    """A game as answered to this request (its second entry for organisers only)."""
    organiser = tournament_organiser(user=request.user, tournament=game.match.round.tournament)
    return dict(GameSerializer(game, context={"organiser": organiser}).data)


def game_response(
    game: Game, *, request: Request, code: int = status.HTTP_200_OK, fresh: bool = False
) -> Response:
    """The game with its ETag. ``fresh``: ``game`` is as its service just stored it
    (its racks and tournament in memory), so it is answered without reading it again."""
    if not fresh:
        game = selectors.game_detail(pk=game.pk)
    headers = {"ETag": etag_of(game)}
    if code == status.HTTP_201_CREATED:
        headers["Location"] = reverse("api-game-detail", kwargs={"pk": game.pk})
    return Response(game_data(game, request=request), status=code, headers=headers)


def game_taken_response(taken: GameTakenError, *, request: Request) -> Response:
    """409: the field-errors body at ``number``, and the game already recorded."""
    body: dict[str, Any] = {taken.field or NON_FIELD: [taken.render(gettext)]}
    body["game"] = game_data(selectors.game_detail(pk=taken.game.pk), request=request)
    return Response(body, status=status.HTTP_409_CONFLICT)


# ----------------------------------------------------------------------------- views


class MatchGamesView(InputFormMixin, generics.GenericAPIView):
    """A match's games: list them, or record the next one."""

    serializer_class = GameSerializer
    input_serializer = GameRecordInSerializer
    authentication_classes = MATCH_AUTHENTICATION
    permission_classes = [MatchGamesPermission]
    parser_classes = json_parsers()
    filter_backends: list[Any] = []
    _match: Match | None = None

    def match(self) -> Match:
        if self._match is None:
            grant = match_grant(self.request)
            if (
                grant is not None
                and grant.match is not None
                and grant.match_id == self.kwargs["match_id"]
            ):
                self._match = grant.match  # read with the token, its round and tournament
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
            "same game twice yourself is a 409. Also 409 when all the match's games are "
            "recorded or the tournament is finished."
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
    @idempotency_deferred
    def post(self, request: Request, match_id: int) -> Response:
        match = self.match()
        given = GameRecordInSerializer(data=request.data)
        try:
            given.is_valid(raise_exception=True)
            data = given.validated_data
            # Scored before the key's transaction, which then holds only the writes.
            ahead = game_score_ahead(match=match, ending=data["ending"], racks=data["racks"])
        except (serializers.ValidationError, UserError):
            idempotency_begin(request)  # a refusal is kept on the key as well
            raise
        idempotency_begin(request)
        try:
            entered = game_enter(
                match=match,
                ending=data["ending"],
                racks=data["racks"],
                number=data.get("number"),
                user=request.user,
                ahead=ahead,
            )
        except GameTakenError as taken:
            return game_taken_response(taken, request=request)
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
    InputFormMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
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
        organises = organiser_check(self.request.user)
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
