"""Games as the API reads and answers them: the serializers of a game in and a
game out, and the answers built from them (see ``games`` for the vocabulary)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import (
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.serializer_fields import (
    EngineChoiceField,
    LightFieldsMixin,
    NumberField,
    RacksField,
    json_number,
)
from calculator.api import ENDING_CHOICES, ENDING_HELP, RackInSerializer
from scoring.errors import NON_FIELD
from scoring.rules import GAME_NUMBER_MAX
from tournaments.access import game_racks_withheld, tournament_organiser
from tournaments.api.id_fields import id_field
from tournaments.api.preconditions import etag_of
from tournaments.models import Game, Rack
from tournaments.racks_entered import game_racks_entered
from tournaments.selectors import visible as selectors
from tournaments.services.games import GameTakenError, game_racks

# ----------------------------------------------------------------------------- serializers


class RackOutSerializer(LightFieldsMixin, serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id", read_only=True)
    position = serializers.IntegerField(read_only=True, help_text=_("The player's seat."))
    tiles = serializers.SerializerMethodField(
        help_text=_("The tiles as entered (canonical order), or null when entered as points.")
    )
    points = serializers.IntegerField(read_only=True, help_text=_("Face points."))
    jokers = serializers.IntegerField(read_only=True)
    rack_value = NumberField(help_text=_("Face points plus the penalty per joker."))
    score = NumberField(help_text=_("This game's score; the game sums to zero."))
    bonus = NumberField(help_text=_("A bonus paid on top of the score; 0 when none."))
    winner = serializers.BooleanField(read_only=True)
    table_points = NumberField(help_text=_("This game's table points."))

    def get_tiles(self, rack: Rack) -> str | None:
        return game_racks_entered(racks=[rack])[0].tiles


class GameRackInSerializer(RackInSerializer):
    player = id_field(help_text=_("The id of a player seated at the match."))


class GameInSerializer(LightFieldsMixin, serializers.Serializer[Any]):
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


class GameSerializer(LightFieldsMixin, serializers.Serializer[Any]):
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

    def fields_data(self, game: Game) -> dict[str, Any]:
        """The fields declared above, written out: DRF's walk over them took
        more time than recording the game did. Tests hold the two equal."""
        racks = game_racks(game)  # kept by the service that just stored them, or prefetched
        entered = game_racks_entered(racks=racks)
        return {
            "id": game.pk,
            "match": game.match_id,
            "number": game.number,
            "ending": game.ending,
            "version": game.version,
            "state": game.state,
            "second_entry": self.get_second_entry(game),
            "winners": [r.player_id for r in racks if r.winner],
            "scores": [
                {
                    "player": r.player_id,
                    "position": r.position,
                    "tiles": given.tiles,
                    "points": r.points,
                    "jokers": r.jokers,
                    "rack_value": json_number(r.rack_value),
                    "score": json_number(r.score),
                    "bonus": json_number(r.bonus),
                    "winner": r.winner,
                    "table_points": json_number(r.table_points),
                }
                for r, given in zip(racks, entered, strict=True)
            ],
        }

    def _organiser(self, game: Game) -> bool:
        shown: bool | Callable[[Game], bool] = self.context.get("organiser", False)
        return shown(game) if callable(shown) else shown

    def get_winners(self, game: Game) -> list[int]:
        return [rack.player_id for rack in game_racks(game) if rack.winner]

    @extend_schema_field(GameInSerializer(allow_null=True, read_only=True))
    def get_second_entry(self, game: Game) -> dict[str, Any] | None:
        if game.second_entry is None:
            return None
        return game.second_entry if self._organiser(game) else None

    def to_representation(self, instance: Game) -> dict[str, Any]:
        data = self.fields_data(instance)
        tournament = instance.match.round.tournament
        organiser = self._organiser(instance)
        if game_racks_withheld(game=instance, tournament=tournament, organiser=organiser):
            data["scores"], data["winners"] = [], []
        return data


class GameTakenSerializer(serializers.Serializer[Any]):
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
