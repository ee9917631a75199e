"""The stateless score calculator: ``POST /api/v1/score/``.

Vocabulary: a *rack in* is one player's rack as a client sends it (``tiles``,
or ``points`` plus ``jokers``), turned into the engine's ``RackIn`` by
``rules.rack_entered`` (the one converter every input path uses); a *score
out* is one player's line of a scored game (``rack_value``, the zero-sum
``score`` and the ``bonus`` paid on top of it).

Serializers here only check *types* (is ``points`` a number, are ``racks`` a
list). Every rule of the rulebook (which tiles exist, how many racks, who won)
is checked by the rules engine, :mod:`scoring.rules`, so that the calculator
and recorded games refuse the same input with the same message. The game
input pieces (endings, the rack in) are shared with the tournament API.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.defaults import json_parsers
from apikit.errors import error_responses, rule_error_as_validation
from apikit.serializer_fields import (
    EngineChoiceField,
    EngineIntegerField,
    LightFieldsMixin,
    NumberField,
    RacksField,
    StrictCharField,
)
from scoring import rules as engine

# ----------------------------------------------------------------------------- input

# The engine's values with words for the OpenAPI document's enums.
ENDING_CHOICES = [
    ("rummikub", _("a player emptied the rack")),
    ("pool_exhausted", _("the pool ran out; the lowest rack wins")),
    ("time_up", _("the round's time ran out; scored as pool_exhausted")),
]
POOL_TIE_CHOICES = [
    ("share", _("joint winners share the plus")),
    ("fewest_tiles", _("the joint winner with the fewest tiles wins")),
    ("draw", _("a draw: joint lowest racks share the plus, nobody wins")),
]

ENDING_HELP = _(
    "`rummikub`: one rack is empty, its holder wins. `pool_exhausted`: the pool ran out; "
    "the lowest rack wins. `time_up`: the round's time ran out; scored as `pool_exhausted`."
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


class RackInSerializer(LightFieldsMixin):
    """One rack as entered: ``tiles``, or ``points`` (and ``jokers``)."""

    # A label here; a seated player's id where a match records a game.
    player: serializers.Field[Any, Any, Any, Any] = StrictCharField(
        max_length=100, help_text=_("Any label for the player; unique within the game.")
    )
    # Every count the rulebook limits (points, jokers, tiles) is documented with its
    # bounds and refused by the engine with its message; the text's cap only bounds work.
    tiles = StrictCharField(
        required=False, allow_null=True, allow_blank=True, max_length=1000, help_text=TILES_HELP
    )
    points = EngineIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=engine.TILE_SET_FACE_TOTAL,
        help_text=POINTS_HELP,
    )
    jokers = EngineIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=engine.JOKERS_IN_SET,
        help_text=JOKERS_HELP,
    )

    def validate(self, attrs: dict[str, Any]) -> engine.RackIn:
        # Validated into the engine's type by the one converter every input path uses.
        return engine.rack_entered(**attrs)


class RulesInSerializer(serializers.Serializer[Any]):
    """The settings that change scores; the calculator's are optional."""

    joker_penalty = EngineIntegerField(
        required=False,
        default=engine.DEFAULT_RULES.joker_penalty,
        min_value=0,
        max_value=engine.JOKER_PENALTY_MAX,
        help_text=_("Points a joker left on a rack costs (30; 25 in Dutch/Belgian rules)."),
    )
    pool_tie = EngineChoiceField(
        choices=POOL_TIE_CHOICES,
        required=False,
        default=engine.DEFAULT_RULES.pool_tie,
        help_text=_(
            "A tie for the lowest rack: `share` the plus, `fewest_tiles` wins outright, or "
            "`draw` (shared as `share`, but nobody wins and no winner bonus is paid)."
        ),
    )
    loss_cap = EngineIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=engine.LOSS_CAP_MAX,
        help_text=_(
            "The most a player who did not win can lose in a game (null: no cap); the "
            "winner's plus is the sum of the capped minuses."
        ),
    )
    winner_bonus = EngineIntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=engine.BONUS_MAX,
        help_text=_("Points paid to the winner on top of the score; joint winners share them."),
    )
    runner_up_bonus = EngineIntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=engine.BONUS_MAX,
        help_text=_("Points paid to the lowest rack among those who did not win; ties share them."),
    )

    def validate(self, attrs: dict[str, Any]) -> engine.Rules:
        try:
            return engine.Rules(**attrs)
        except engine.RuleError as error:
            raise rule_error_as_validation(error) from error


class CalculatorInSerializer(serializers.Serializer[Any]):
    """A game to score: how it ended and the racks, in seat order."""

    rules = RulesInSerializer(
        required=False, help_text=_("Defaults: 30 per joker, share, no loss cap, no bonuses.")
    )
    ending = EngineChoiceField(choices=ENDING_CHOICES, help_text=ENDING_HELP)
    racks = RacksField(child=RackInSerializer(), help_text=_("One rack per player, 2 to 4."))


# ----------------------------------------------------------------------------- output


class PlayerScoreSerializer(serializers.Serializer[Any]):
    player = serializers.CharField(read_only=True)
    rack_value = NumberField(help_text=_("Face points plus the penalty per joker."))
    score = NumberField(help_text=_("This game's score; the game sums to zero."))
    bonus = NumberField(
        help_text=_("Bonus points on top of the score (0 when none); the total is score + bonus.")
    )


class CalculatorOutSerializer(serializers.Serializer[Any]):
    ending = serializers.ChoiceField(choices=ENDING_CHOICES, read_only=True)
    winners = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text=_("Joint winners share a tie for the lowest rack; a draw has none."),
    )
    scores = PlayerScoreSerializer(
        many=True, read_only=True, help_text=_("In the order of the racks sent.")
    )


def score_response(result: engine.GameOut) -> dict[str, Any]:
    return {
        "ending": result.ending,
        "winners": [str(player) for player in result.winners],
        "scores": [
            {
                "player": str(rack.player),
                "rack_value": rack.rack_value,
                "score": rack.score,
                "bonus": rack.bonus,
            }
            for rack in result.racks
        ],
    }


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
        {"player": "Anna", "rack_value": 0, "score": 54, "bonus": 0},
        {"player": "Ben", "rack_value": 35, "score": -35, "bonus": 0},
        {"player": "Cleo", "rack_value": 16, "score": -16, "bonus": 0},
        {"player": "Dan", "rack_value": 3, "score": -3, "bonus": 0},
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
        result = engine.game_score(
            ending=data["ending"],
            racks=data["racks"],
            rules=data.get("rules") or engine.DEFAULT_RULES,
        )
        return Response(CalculatorOutSerializer(score_response(result)).data)
