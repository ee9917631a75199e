"""The stateless score calculator API, and the API pieces every endpoint shares.

Vocabulary: a *rack in* is one player's rack as a client sends it (``tiles``,
or ``points`` plus ``jokers``); a *score out* is one player's line of a scored
game (``rack_value`` and ``score``); a *JSON number* is how scores leave the
API: an integer when whole (``54``), a decimal when not (``33.33``), never a
string.

Serializers here only check *types* (is ``points`` a number, are ``racks`` a
list). Every rule of the rulebook (which tiles exist, how many racks, who won)
is checked by the rules engine, :mod:`scoring.rules`, so that the calculator
and recorded games refuse the same input with the same message.

This module imports nothing from ``tournaments`` (design §3): the tournament
API builds on it, not the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from scoring import rules as engine

# ----------------------------------------------------------------------------- plumbing


def json_parsers() -> list[Any]:
    """The configured parsers for JSON alone: bodies with nested lists are JSON."""
    configured: Sequence[Any] = api_settings.DEFAULT_PARSER_CLASSES
    return [p for p in configured if p.media_type == "application/json"]


def json_number(value: Decimal | int) -> int | float:
    """A score as a JSON number: ``54``, not ``"54.00"``; ``33.33`` when fractional."""
    if isinstance(value, int):
        return value
    if value == value.to_integral_value():
        return int(value)
    return float(value)


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field):
    """A read-only decimal shown as a JSON number (integer when whole)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: Decimal | int) -> int | float:
        return json_number(value)


class EngineChoiceField(serializers.ChoiceField):
    """A choice documented as an enum but judged by the rules engine.

    DRF's own "is not a valid choice" would say less than the engine's message
    (which lists the choices and is the same for every endpoint), so any text
    passes here and the engine refuses what it does not know.
    """

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, bool) or not isinstance(data, str | int | float):
            raise serializers.ValidationError(gettext("Not a valid string."), code="invalid")
        return str(data)


class FieldErrorsSerializer(serializers.Serializer):
    """Only a schema: the body of a 400, 409, 412 or 428 (see FieldErrorsSchema)."""


class DetailErrorSerializer(serializers.Serializer):
    """The body of a 401, 403, 404, 405 or 415."""

    detail = serializers.CharField(help_text=_("What went wrong, for a person."))


class FieldErrorsSchema(OpenApiSerializerExtension):
    """DRF's field-keyed error body: its keys are the input's own field names."""

    target_class = FieldErrorsSerializer

    def get_name(self, auto_schema: Any, direction: Any) -> str:
        return "FieldErrors"

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "description": (
                "Messages keyed by the input field they concern (`non_field_errors` for the "
                "request as a whole). A list field's messages may be a list with one object "
                "per item (e.g. `racks`), a nested object's an object (e.g. `rules`)."
            ),
            "additionalProperties": {
                "oneOf": [
                    {"type": "array", "items": {"type": "string"}},
                    {"type": "array", "items": {"type": "object", "additionalProperties": {}}},
                    {"type": "object", "additionalProperties": {}},
                ]
            },
            "example": {
                "racks": ["Rack 2 (Ben): unknown tile “R14”: numbers run from 1 to 13."],
            },
        }


_ERROR_DESCRIPTIONS: dict[int, str] = {
    400: "Invalid input: every refusal names the field and says why.",
    401: "No credentials, or wrong ones.",
    403: "These credentials may not do this.",
    404: "No such object, or a private tournament you may not see.",
    409: "The request conflicts with the current state (e.g. all games of a match recorded).",
    412: "`If-Match` names a version that is no longer current: reload and try again.",
    428: "This change needs an `If-Match` header with the object's `ETag`.",
}
_FIELD_ERROR_STATUSES = frozenset({400, 409, 412, 428})


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    """Schema entries for the error statuses an operation can answer."""
    return {
        code: OpenApiResponse(
            response=FieldErrorsSerializer
            if code in _FIELD_ERROR_STATUSES
            else DetailErrorSerializer,
            description=_ERROR_DESCRIPTIONS[code],
        )
        for code in codes
    }


def rule_error_as_validation(error: engine.RuleError) -> serializers.ValidationError:
    """An engine refusal as a serializer error on the engine's field."""
    return serializers.ValidationError({error.field: [error.render(gettext)]}, code=error.code)


# ----------------------------------------------------------------------------- input

# The engine's values with words for the OpenAPI document's enums.
ENDING_CHOICES = [
    ("rummikub", _("a player emptied the rack")),
    ("pool_exhausted", _("the pool ran out; the lowest rack wins")),
]
POOL_TIE_CHOICES = [
    ("share", _("joint winners share the plus")),
    ("fewest_tiles", _("the joint winner with the fewest tiles wins")),
]

ENDING_HELP = _(
    "`rummikub`: one rack is empty, its holder wins. `pool_exhausted`: the pool ran out; "
    "the lowest rack wins."
)
TILES_HELP = _(
    "The rack as a tile list: colour K, B, O (or Y), R plus 1-13, `J` for a joker, separated "
    'by spaces or commas, any case: `"R7 r8, J"`. Empty text is an empty rack.'
)
POINTS_HELP = _(
    "The rack's face points summed by hand (0-728), instead of or as well as `tiles` "
    "(then they must agree)."
)
JOKERS_HELP = _("How many jokers the rack holds (0-2), with `points`.")


class RackInSerializer(serializers.Serializer):
    """One rack as entered: ``tiles``, or ``points`` (and ``jokers``)."""

    player = serializers.CharField(
        max_length=100, help_text=_("Any label for the player; unique within the game.")
    )
    # Bounds the engine does not check are kept loose on purpose: every count the
    # rulebook limits (points, jokers, tiles) is refused by the engine with its message.
    tiles = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=1000, help_text=TILES_HELP
    )
    points = serializers.IntegerField(required=False, allow_null=True, help_text=POINTS_HELP)
    jokers = serializers.IntegerField(required=False, allow_null=True, help_text=JOKERS_HELP)


class RulesInSerializer(serializers.Serializer):
    """The settings that change scores; the calculator's are optional."""

    joker_penalty = serializers.IntegerField(
        required=False,
        default=engine.DEFAULT_RULES.joker_penalty,
        help_text=_("Points a joker left on a rack costs (30; 25 in Dutch/Belgian rules)."),
    )
    pool_tie = EngineChoiceField(
        choices=POOL_TIE_CHOICES,
        required=False,
        default=engine.DEFAULT_RULES.pool_tie,
        help_text=_(
            "A tie for the lowest rack: `share` the plus, or `fewest_tiles` wins outright."
        ),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            engine.Rules(joker_penalty=attrs["joker_penalty"], pool_tie=attrs["pool_tie"])
        except engine.RuleError as error:
            raise rule_error_as_validation(error) from error
        return attrs


class CalculatorInSerializer(serializers.Serializer):
    """A game to score: how it ended and the racks, in seat order."""

    rules = RulesInSerializer(required=False, help_text=_("Defaults: 30 per joker, share."))
    ending = EngineChoiceField(choices=ENDING_CHOICES, help_text=ENDING_HELP)
    # The engine counts the racks (2-4) with its own message; the cap only bounds work.
    racks = RackInSerializer(many=True, allow_empty=True, max_length=50)  # type: ignore[call-arg]


# ----------------------------------------------------------------------------- output


class PlayerScoreSerializer(serializers.Serializer):
    player = serializers.CharField(read_only=True)
    rack_value = NumberField(help_text=_("Face points plus the penalty per joker."))
    score = NumberField(help_text=_("This game's score; the game sums to zero."))


class CalculatorOutSerializer(serializers.Serializer):
    ending = serializers.ChoiceField(choices=ENDING_CHOICES, read_only=True)
    winners = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text=_("Joint winners share a tie for the lowest rack."),
    )
    scores = PlayerScoreSerializer(
        many=True, read_only=True, help_text=_("In the order of the racks sent.")
    )


def score_response(result: engine.GameOut) -> dict[str, Any]:
    return {
        "ending": result.ending,
        "winners": [str(player) for player in result.winners],
        "scores": [
            {"player": str(rack.player), "rack_value": rack.rack_value, "score": rack.score}
            for rack in result.racks
        ],
    }


def racks_in(racks: Sequence[Mapping[str, Any]]) -> list[engine.RackIn]:
    return [
        engine.RackIn(
            player=rack["player"],
            tiles=rack.get("tiles"),
            points=rack.get("points"),
            jokers=rack.get("jokers"),
        )
        for rack in racks
    ]


# ----------------------------------------------------------------------------- view

_EXAMPLE_REQUEST = {
    "rules": {"joker_penalty": 30, "pool_tie": "share"},
    "ending": "rummikub",
    "racks": [
        {"player": "Anna", "tiles": ""},
        {"player": "Ben", "tiles": "R5 J"},
        {"player": "Cleo", "points": 16},
        {"player": "Dan", "points": 3, "jokers": 0},
    ],
}
_EXAMPLE_RESPONSE = {
    "ending": "rummikub",
    "winners": ["Anna"],
    "scores": [
        {"player": "Anna", "rack_value": 0, "score": 54},
        {"player": "Ben", "rack_value": 35, "score": -35},
        {"player": "Cleo", "rack_value": 16, "score": -16},
        {"player": "Dan", "rack_value": 3, "score": -3},
    ],
}


class ScoreCalculatorView(APIView):
    """Score one game without storing anything; no login needed."""

    authentication_classes: list[Any] = []  # nothing to protect, and no CSRF to demand
    permission_classes = [AllowAny]
    parser_classes = json_parsers()

    @extend_schema(
        operation_id="score_calculate",
        summary="Score one game (stateless calculator)",
        description=(
            "Scores a game with the same rules engine, and refuses bad input with the same "
            "messages, as `POST /api/v1/matches/{id}/games/`. Nothing is stored."
        ),
        tags=["calculator"],
        request=CalculatorInSerializer,
        responses={200: CalculatorOutSerializer, **error_responses(400)},
        examples=[
            OpenApiExample("A rummikub", value=_EXAMPLE_REQUEST, request_only=True),
            OpenApiExample("Its scores", value=_EXAMPLE_RESPONSE, response_only=True),
        ],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        given = CalculatorInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        settings = data.get("rules") or {}
        result = engine.game_score(
            ending=data["ending"],
            racks=racks_in(data["racks"]),
            rules=engine.Rules(**settings) if settings else engine.DEFAULT_RULES,
        )
        return Response(CalculatorOutSerializer(score_response(result)).data)


__all__ = [
    "ENDING_CHOICES",
    "POOL_TIE_CHOICES",
    "DetailErrorSerializer",
    "EngineChoiceField",
    "FieldErrorsSerializer",
    "NumberField",
    "RackInSerializer",
    "ScoreCalculatorView",
    "error_responses",
    "json_number",
    "json_parsers",
    "racks_in",
    "rule_error_as_validation",
]
