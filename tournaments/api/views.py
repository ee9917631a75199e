"""API views: thin. Each validates its input with a serializer, calls a
service (writes) or an API selector (reads), and renders the answer.

Vocabulary: a *nested* view works under one tournament, match or round (its
id in the path); it first fetches that *parent* among what the request may
see (404 otherwise) and checks the permission on it (401/403).
"""

from __future__ import annotations

from typing import Any, cast

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, mixins, serializers, status, viewsets
from rest_framework.authentication import BaseAuthentication
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from scoring.api import error_responses, json_parsers
from tournaments.models import (
    Adjustment,
    Club,
    Entry,
    Game,
    GameRevision,
    Match,
    Player,
    Round,
    Tournament,
)
from tournaments.selectors import standings_for, tournaments_visible
from tournaments.services import rounds as round_services
from tournaments.services.games import RackEntry, game_correct, game_delete, game_record

from . import selectors
from .authentication import MatchTokenAuthentication, match_grant
from .filters import ClubFilter, GameFilter, PlayerFilter, TournamentFilter
from .ordering import StableOrderingFilter
from .permissions import (
    ClubPermission,
    GamePermission,
    MatchGamesPermission,
    PlayerPermission,
    RoundPermission,
    TournamentPermission,
    is_organiser,
)
from .preconditions import etag_of, if_match_version
from .serializers import (
    AdjustmentInSerializer,
    AdjustmentSerializer,
    ClubSerializer,
    EntriesInSerializer,
    EntrySerializer,
    EntryStatusInSerializer,
    GameInSerializer,
    GameRevisionSerializer,
    GameSerializer,
    MatchSerializer,
    PlayerSerializer,
    RoundSeatInSerializer,
    RoundSerializer,
    RoundTablesInSerializer,
    StandingsQuerySerializer,
    StandingsSerializer,
    TournamentSerializer,
)

# Credentials of a match's own views: a user's, or the match token (last: a user wins).
MATCH_AUTHENTICATION: list[type[BaseAuthentication]] = [
    *cast(list[type[BaseAuthentication]], api_settings.DEFAULT_AUTHENTICATION_CLASSES),
    MatchTokenAuthentication,
]

ETAG_HEADER = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 201],
    description=_('The game\'s version, quoted (`"3"`); send it back in `If-Match`.'),
)
IF_MATCH_HEADER = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description=_(
        'The `ETag` of the game as read (`"3"`; `W/"3"` and `3` are accepted too). '
        "Missing: 428. Not the current version: 412."
    ),
)


def racks_given(data: dict[str, Any]) -> list[RackEntry]:
    return [
        RackEntry(
            player=rack["player"],
            tiles=rack.get("tiles"),
            points=rack.get("points"),
            jokers=rack.get("jokers"),
        )
        for rack in data["racks"]
    ]


def game_response(game: Game, *, code: int = status.HTTP_200_OK) -> Response:
    game = selectors.game_detail(pk=game.pk)
    headers = {"ETag": etag_of(game)}
    if code == status.HTTP_201_CREATED:
        headers["Location"] = reverse("api-game-detail", kwargs={"pk": game.pk})
    return Response(GameSerializer(game).data, status=code, headers=headers)


# ----------------------------------------------------------------------------- auth


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text=_("Send it as `Authorization: Token <token>`."))


class TokenObtainView(ObtainAuthToken):
    """Exchange a username and password for an API token."""

    authentication_classes: list[Any] = []  # a login form: no session, so no CSRF check
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get an API token",
        tags=["auth"],
        request=AuthTokenSerializer,
        responses={200: TokenResponseSerializer, **error_responses(400)},
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)


# ----------------------------------------------------------------------------- clubs, players


class ClubViewSet(viewsets.ModelViewSet):
    """Clubs. Anyone reads; a logged-in user creates; staff or an organiser of one of
    the club's tournaments changes or deletes."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    permission_classes = [ClubPermission]
    filterset_class = ClubFilter
    search_fields = ["name", "city"]
    ordering_fields = ["name", "city", "id"]
    ordering = ["name", "id"]
    lookup_value_converter = "api_id"


class PlayerViewSet(viewsets.ModelViewSet):
    """Players. Anyone reads; a logged-in user creates; staff or an organiser of a
    tournament the player entered changes or deletes (a player with results cannot
    be deleted: 409)."""

    queryset = Player.objects.select_related("club")
    serializer_class = PlayerSerializer
    permission_classes = [PlayerPermission]
    filterset_class = PlayerFilter
    search_fields = ["name"]
    ordering_fields = ["name", "id"]
    ordering = ["name", "id"]
    lookup_value_converter = "api_id"

    @extend_schema(responses={204: None, **error_responses(401, 403, 404, 409)})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().destroy(request, *args, **kwargs)


# ----------------------------------------------------------------------------- tournaments


class TournamentViewSet(viewsets.ModelViewSet):
    """Tournaments with their rule settings. Anyone reads public ones (private ones
    answer 404 to all but their organisers); a logged-in user creates one and owns it;
    its owner and staff change or delete it."""

    serializer_class = TournamentSerializer
    permission_classes = [TournamentPermission]
    filterset_class = TournamentFilter
    search_fields = ["name", "slug"]
    ordering_fields = ["date", "name", "id", "status"]
    ordering = ["-date", "-id"]
    lookup_value_converter = "api_id"

    def get_queryset(self) -> QuerySet[Tournament]:
        return tournaments_visible(user=self.request.user)

    def perform_create(self, serializer: Any) -> None:
        serializer.save(owner=self.request.user)


class InputFormMixin:
    """The browsable API's form for a change shows the body it takes (``input_serializer``),
    not the answer's shape."""

    input_serializer: type[serializers.Serializer] | None = None

    def get_serializer_class(self) -> Any:
        method = getattr(self, "request").method  # noqa: B009 - the view's, set by dispatch
        if self.input_serializer is not None and method not in SAFE_METHODS:
            return self.input_serializer
        return super().get_serializer_class()  # type: ignore[misc]


class TournamentNestedView(InputFormMixin, generics.GenericAPIView):
    """A view under ``/tournaments/{tournament_id}/``."""

    permission_classes = [TournamentPermission]
    parser_classes = json_parsers()
    filter_backends: list[Any] = []  # a tournament's own rows, in their natural order
    _tournament: Tournament | None = None

    def tournament(self) -> Tournament:
        if self._tournament is None:
            self._tournament = get_object_or_404(
                tournaments_visible(user=self.request.user), pk=self.kwargs["tournament_id"]
            )
            self.check_object_permissions(self.request, self._tournament)
        return self._tournament


class TournamentEntriesView(TournamentNestedView):
    """The players entered in a tournament."""

    serializer_class = EntrySerializer
    input_serializer = EntriesInSerializer

    def get_queryset(self) -> QuerySet[Any]:
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI generator's visit
            return Entry.objects.none()
        return selectors.entries_of(tournament=self.tournament())

    @extend_schema(summary="List a tournament's entries", responses=EntrySerializer(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(EntrySerializer(page, many=True).data)

    @extend_schema(
        summary="Enter players",
        description=_(
            '`{"player": id}` or `{"players": [ids]}`. Entering a player twice changes '
            "nothing; a withdrawn player is made active again."
        ),
        request=EntriesInSerializer,
        responses={201: EntrySerializer(many=True)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament()
        given = EntriesInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        entries = round_services.entries_add(tournament=tournament, **given.validated_data)
        return Response(EntrySerializer(entries, many=True).data, status=status.HTTP_201_CREATED)


class TournamentAttendanceView(TournamentNestedView):
    """A league's club night: who plays tonight."""

    serializer_class = EntrySerializer
    input_serializer = EntriesInSerializer

    @extend_schema(
        summary="Set who plays tonight (a league's club night)",
        description=_(
            '`{"players": [ids]}`: exactly these players are active for the next round; '
            "players not yet entered are entered, every other entry that is not withdrawn is "
            "checked out (`absent`) until it is checked in again. Answers every entry."
        ),
        request=EntriesInSerializer,
        responses={200: EntrySerializer(many=True)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament()
        given = EntriesInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_services.attendance_set(
            tournament=tournament, player_ids=given.validated_data["player_ids"]
        )
        entries = selectors.entries_of(tournament=tournament)
        return Response(EntrySerializer(entries, many=True).data)


ENTRY_STATUS_SERVICES = {
    Entry.Status.ACTIVE: round_services.entry_activate,
    Entry.Status.ABSENT: round_services.entry_check_out,
    Entry.Status.WITHDRAWN: round_services.entry_withdraw,
}


class TournamentEntryView(TournamentNestedView):
    """One player's entry: check them in or out, or withdraw them."""

    serializer_class = EntrySerializer
    input_serializer = EntryStatusInSerializer

    @extend_schema(
        summary="Check a player in or out",
        description=_(
            "`active` checks a player in (a late arrival, a returning absentee, an undone "
            "withdrawal); `absent` checks them out for the next round; `withdrawn` withdraws "
            "them. Results already played always count. A round already seated keeps its "
            "tables: re-seat it while it has no results."
        ),
        request=EntryStatusInSerializer,
        responses={200: EntrySerializer},
    )
    def patch(self, request: Request, tournament_id: int, player_id: int) -> Response:
        tournament = self.tournament()
        given = EntryStatusInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        service = ENTRY_STATUS_SERVICES[given.validated_data["status"]]
        entry = service(tournament=tournament, player_id=player_id)
        return Response(EntrySerializer(entry).data)

    @extend_schema(
        summary="Withdraw a player",
        description=_(
            "The player is not seated in later rounds; the results played are kept (so is "
            "the entry, as `withdrawn`)."
        ),
        responses={200: EntrySerializer},
    )
    def delete(self, request: Request, tournament_id: int, player_id: int) -> Response:
        entry = round_services.entry_withdraw(tournament=self.tournament(), player_id=player_id)
        return Response(EntrySerializer(entry).data)


class TournamentRoundsView(TournamentNestedView):
    """A tournament's rounds, and seating the next one."""

    serializer_class = RoundSerializer
    input_serializer = RoundSeatInSerializer

    def get_queryset(self) -> QuerySet[Any]:
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        return selectors.rounds_of(tournament=self.tournament())

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "show_tokens": self.organiser()}

    def organiser(self) -> bool:
        return is_organiser(self.request.user, self.tournament())

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
        round_ = round_services.round_seat_next(tournament=tournament, **given.validated_data)
        return Response(
            RoundSerializer(
                selectors.round_detail(round_id=round_.pk), context=self.get_serializer_context()
            ).data,
            status=status.HTTP_201_CREATED,
        )


class StandingsView(TournamentNestedView):
    """Every standings row at once (not paginated)."""

    serializer_class = StandingsSerializer
    pagination_class = None

    @extend_schema(
        summary="A tournament's standings",
        description=_(
            "Every entered player, best first, ranked by the tournament's ranking and "
            "tie-breaks; `score` includes adjustments."
        ),
        parameters=[StandingsQuerySerializer],
        responses={200: StandingsSerializer, **error_responses(400, 401, 404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament()
        query = StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = standings_for(tournament=tournament, stage=query.validated_data.get("stage"))
        return Response(StandingsSerializer({"results": rows}).data)


class TournamentAdjustmentsView(TournamentNestedView):
    """Organisers' penalties and bonuses, and the byes' scores."""

    serializer_class = AdjustmentSerializer
    input_serializer = AdjustmentInSerializer

    def get_queryset(self) -> QuerySet[Any]:
        if getattr(self, "swagger_fake_view", False):
            return Adjustment.objects.none()
        return selectors.adjustments_of(tournament=self.tournament())

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
        adjustment = round_services.adjustment_add(
            tournament=tournament,
            player_id=data["player"],
            points=data["points"],
            reason=data["reason"],
            kind=data["kind"],
            round=data.get("round"),
            user=request.user,
        )
        adjustment = selectors.adjustments_of(tournament=tournament).get(pk=adjustment.pk)
        return Response(AdjustmentSerializer(adjustment).data, status=status.HTTP_201_CREATED)


class TournamentAdjustmentView(TournamentNestedView):
    @extend_schema(
        summary="Remove a penalty or a bonus",
        description=_("A bye's score goes with its round's seating: re-seat instead (409)."),
        responses={204: None, **error_responses(401, 403, 404, 409)},
    )
    def delete(self, request: Request, tournament_id: int, adjustment_id: int) -> Response:
        adjustment = get_object_or_404(
            selectors.adjustments_of(tournament=self.tournament()), pk=adjustment_id
        )
        round_services.adjustment_delete(adjustment=adjustment)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ----------------------------------------------------------------------------- rounds


@extend_schema_view(retrieve=extend_schema(summary="A round with its matches"))
class RoundViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = RoundSerializer
    permission_classes = [RoundPermission]
    lookup_value_converter = "api_id"

    def get_queryset(self) -> QuerySet[Round]:
        return selectors.rounds_visible(user=self.request.user)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.round_response(self.get_object())

    def round_response(self, round_: Round, *, changed: bool = False) -> Response:
        if changed:  # read back what the service stored
            round_ = selectors.round_detail(round_id=round_.pk)
        shown = is_organiser(self.request.user, round_.tournament)
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
        round_ = round_services.round_reseat(round=self.get_object())
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
        round_ = round_services.round_manual_set(round=round_, **given.validated_data)
        return self.round_response(round_, changed=True)


# ----------------------------------------------------------------------------- matches, games


class MatchGrantRequired(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return match_grant(request) is not None


class MatchViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
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
        shown = (grant is not None and grant.match_id == match.pk) or is_organiser(
            request.user, match.round.tournament
        )
        return Response(MatchSerializer(match, context={"show_tokens": shown}).data)


class MatchByTokenView(generics.GenericAPIView):
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
        match = selectors.matches_visible(user=None, grant=grant).get(pk=grant.match_id)
        return Response(MatchSerializer(match, context={"show_tokens": True}).data)


class MatchHistoryView(generics.GenericAPIView):
    """Every record, correction and deletion of a match's games, oldest first."""

    serializer_class = GameRevisionSerializer
    authentication_classes = MATCH_AUTHENTICATION
    permission_classes = [MatchGamesPermission]
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[GameRevision]:
        if getattr(self, "swagger_fake_view", False):
            return GameRevision.objects.none()
        match = get_object_or_404(
            selectors.matches_seen(user=self.request.user, grant=match_grant(self.request)),
            pk=self.kwargs["match_id"],
        )
        self.check_object_permissions(self.request, match)
        return selectors.revisions_of(match=match)

    @extend_schema(
        summary="A match's game history",
        description=_(
            "Corrections keep history: each entry is one recording, correction or deletion, "
            "with the game's racks and scores as they were then."
        ),
        responses={200: GameRevisionSerializer(many=True), **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, match_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(GameRevisionSerializer(page, many=True).data)


class MatchGamesView(InputFormMixin, generics.GenericAPIView):
    """A match's games: list them, or record the next one."""

    serializer_class = GameSerializer
    input_serializer = GameInSerializer
    authentication_classes = MATCH_AUTHENTICATION
    permission_classes = [MatchGamesPermission]
    parser_classes = json_parsers()
    filter_backends: list[Any] = []
    _match: Match | None = None

    def match(self) -> Match:
        if self._match is None:
            self._match = get_object_or_404(
                selectors.matches_seen(user=self.request.user, grant=match_grant(self.request)),
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
        return self.get_paginated_response(GameSerializer(page, many=True).data)

    @extend_schema(
        summary="Record a game",
        description=_(
            "Scores the game with the rules engine (the same as `POST /api/v1/score/`) and "
            "stores it as the match's next game; `scores` follow the seat order. Every "
            "refusal (an unknown tile, a tile more than twice, a player not seated at this "
            "match, …) is a 400 that names the field and says why; nothing is stored. 409 "
            "when all the match's games are recorded."
        ),
        request=GameInSerializer,
        responses={
            201: GameSerializer,
            **error_responses(400, 401, 403, 404, 409),
        },
        parameters=[ETAG_HEADER],
        examples=[
            OpenApiExample(
                "Rummikub at a table of 3",
                value={
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
        match = self.match()
        given = GameInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        game = game_record(
            match=match,
            ending=given.validated_data["ending"],
            racks=racks_given(given.validated_data),
            user=request.user,
        )
        return game_response(game, code=status.HTTP_201_CREATED)


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

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return game_response(self.get_object())

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        version = if_match_version(request, game)
        given = GameInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        game = game_correct(
            game=game,
            ending=given.validated_data["ending"],
            racks=racks_given(given.validated_data),
            version=version,
            user=request.user,
        )
        return game_response(game)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        game_delete(game=game, version=if_match_version(request, game), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
