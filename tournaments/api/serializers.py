"""Serializers of the tournament API: what goes in, what comes out.

Vocabulary: an *in* serializer checks the types of a request body and hands
plain data to a service; an *out* serializer renders objects that selectors
planned (related rows already fetched, so rendering runs no query). Clubs,
players and tournaments are plain records and use DRF's model serializers.

Rules of the rulebook are never checked here: tournament rule settings go
through ``scoring.rules.Rules`` and games through the services, so every
refusal carries the engine's message.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, cast

from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.validators import UniqueValidator

from scoring import rules as engine
from scoring.api import (
    ENDING_CHOICES,
    ENDING_HELP,
    POOL_TIE_CHOICES,
    EngineChoiceField,
    NumberField,
    RackInSerializer,
    json_number,
    rule_error_as_validation,
)
from scoring.errors import UserError
from tournaments.fields import table_points_rules
from tournaments.models import (
    Adjustment,
    Club,
    Entry,
    Game,
    GameRevision,
    Match,
    Player,
    Rack,
    Round,
    Tournament,
)
from tournaments.selectors import StandingRow
from tournaments.standings.ranking import TIE_BREAK_NAMES, tie_breaks_check

from .filters import ID_MAX

TABLE_SIZES = (2, 3, 4)


class IdRelatedField(serializers.PrimaryKeyRelatedField):
    """A related object by id; a number no database can hold is 'does not exist'."""

    def to_internal_value(self, data: Any) -> models.Model:
        if isinstance(data, bool):
            self.fail("incorrect_type", data_type=type(data).__name__)
        try:
            number = int(data)
        except (TypeError, ValueError):
            self.fail("incorrect_type", data_type=type(data).__name__)
        if not 1 <= number <= ID_MAX:
            self.fail("does_not_exist", pk_value=data)
        return super().to_internal_value(number)


class DecimalNumberField(serializers.DecimalField):
    """A decimal setting read and written as a JSON number (an integer when whole)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(coerce_to_string=False, **kwargs)

    def to_representation(self, value: Any) -> int | float:  # type: ignore[override]
        return json_number(Decimal(value))


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, **kwargs)


# ----------------------------------------------------------------------------- clubs, players


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "city"]


class PlayerSerializer(serializers.ModelSerializer):
    club = IdRelatedField(
        queryset=Club.objects.all(),
        allow_null=True,
        required=False,
        help_text=_("The player's club (its id), or null."),
    )
    club_name = serializers.CharField(source="club.name", read_only=True, allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "name", "club", "club_name"]


# ----------------------------------------------------------------------------- tournaments

_TABLE_POINTS_SCHEMA = {
    "type": "object",
    "description": (
        "Points per place, first place first, for tables of 2, 3 and 4 players; tied places "
        "share. Sizes left out are unchanged."
    ),
    "properties": {
        str(size): {
            "type": "array",
            "items": {"type": "integer"},
            "minItems": size,
            "maxItems": size,
        }
        for size in TABLE_SIZES
    },
    "additionalProperties": False,
    "example": {"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]},
}


@extend_schema_field(_TABLE_POINTS_SCHEMA)
class TablePointsField(serializers.Field):
    """``{"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]}``; sizes left out keep their points."""

    default_error_messages = {
        "not_a_map": _("Give an object mapping a table size (2, 3 or 4) to its points."),
    }

    def to_representation(self, value: dict[str, list[int]]) -> dict[str, list[int]]:
        return value

    def to_internal_value(self, data: Any) -> dict[str, list[int]]:
        if not isinstance(data, Mapping):
            self.fail("not_a_map")
        current = self.parent.instance.table_points if self.parent.instance else {}
        try:
            vectors = table_points_rules({**current, **data})
        except engine.RuleError as error:
            raise serializers.ValidationError(error.render(gettext), code=error.code) from error
        return {str(size): list(points) for size, points in vectors.items()}


class TieBreaksField(serializers.ListField):
    """The tie-breaks in order, as a list, judged by ``ranking.tie_breaks_check``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=EngineChoiceField(choices=TIE_BREAK_NAMES),
            **kwargs,
        )

    def to_representation(self, data: Any) -> list[str]:
        return list(data)

    def to_internal_value(self, data: Any) -> list[str]:  # type: ignore[override]
        names = super().to_internal_value(data)
        try:
            return tie_breaks_check(names=names)
        except UserError as error:
            raise serializers.ValidationError(error.render(gettext), code=error.code) from error


class TournamentSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(
        source="owner.username", read_only=True, help_text=_("Who created it (username).")
    )
    club = IdRelatedField(
        queryset=Club.objects.all(),
        allow_null=True,
        required=False,
        help_text=_("The organising club (its id), or null."),
    )
    slug = serializers.SlugField(
        max_length=80,
        required=False,
        validators=[UniqueValidator(queryset=Tournament.objects.all())],
        help_text=_("Its address, /t/<slug>/; made from the name when left out."),
    )
    # Plain integer and text here: the rules engine judges them, with its messages.
    joker_penalty = serializers.IntegerField(
        required=False,
        max_value=32767,
        help_text=_("Points per joker left on a rack (30; 25 in Dutch/Belgian rules)."),
    )
    pool_tie = EngineChoiceField(
        choices=POOL_TIE_CHOICES,
        required=False,
        help_text=_("A tie for the lowest rack: joint winners `share`, or `fewest_tiles` wins."),
    )
    table_points = TablePointsField(required=False)
    bye_score = DecimalNumberField(
        max_digits=8,
        decimal_places=2,
        required=False,
        help_text=_("What a player with a bye scores for the round."),
    )
    tie_breaks = TieBreaksField(
        required=False, help_text=_("Applied in order when the ranking value ties.")
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "slug",
            "date",
            "club",
            "owner",
            "public",
            "status",
            "kind",
            "language",
            "paper",
            "rounds",
            "games_per_round",
            "seating",
            "ranking",
            "joker_penalty",
            "pool_tie",
            "table_points",
            "tie_breaks",
            "min_games",
            "max_table_size",
            "bye_score",
            "seed",
            "semifinal_players",
            "final_carry_over",
        ]
        extra_kwargs = {
            "rounds": {"min_value": 0, "max_value": 100, "help_text": _("Rounds planned.")},
            "games_per_round": {"min_value": 1, "max_value": 30},
            "max_table_size": {"min_value": 2, "max_value": 4},
            "public": {"help_text": _("Private tournaments are seen by their organisers only.")},
        }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        current = self.instance

        def setting(name: str) -> Any:
            if name in attrs:
                return attrs[name]
            if current is not None:
                return getattr(current, name)
            return cast(models.Field[Any, Any], Tournament._meta.get_field(name)).get_default()

        try:
            engine.Rules(joker_penalty=setting("joker_penalty"), pool_tie=setting("pool_tie"))
        except engine.RuleError as error:
            raise rule_error_as_validation(error) from error
        if current is None and not attrs.get("slug"):
            attrs["slug"] = slug_free(attrs["name"])
        return attrs


def slug_free(name: str) -> str:
    """A slug made from the name that no tournament uses yet."""
    base = (slugify(name) or "tournament")[:70]
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, suffix = base, 1
    while slug in taken:
        suffix += 1
        slug = f"{base}-{suffix}"
    return slug


# ----------------------------------------------------------------------------- entries


ENTRY_STATUS_HELP = _(
    "`active`: seated in the next round; `absent`: entered but checked out (a late "
    "arrival, a no-show, a skipped club night); `withdrawn`: left the event. Results "
    "already played always count."
)


class EntrySerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(source="player.name", read_only=True)
    club = serializers.IntegerField(source="player.club_id", read_only=True, allow_null=True)
    status = serializers.ChoiceField(
        choices=Entry.Status.choices, read_only=True, help_text=ENTRY_STATUS_HELP
    )


class EntryStatusInSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Entry.Status.choices, help_text=ENTRY_STATUS_HELP)


class EntriesInSerializer(serializers.Serializer):
    """One player (``player``) or several (``players``): exactly one of the two."""

    player = id_field(required=False, help_text=_("One player's id."))
    players = serializers.ListField(
        child=id_field(),
        required=False,
        allow_empty=False,
        max_length=1000,
        help_text=_("Several players' ids."),
    )
    status = serializers.ChoiceField(
        choices=Entry.Status.choices,
        default=Entry.Status.ACTIVE,
        help_text=_("`absent` enters late arrivals who are checked in later."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("player" in attrs) == ("players" in attrs):
            raise serializers.ValidationError(
                gettext("Give either “player” (one id) or “players” (a list of ids)."),
                code="one_of",
            )
        ids = attrs["players"] if "players" in attrs else [attrs["player"]]
        return {"player_ids": ids, "status": attrs["status"]}


# ----------------------------------------------------------------------------- rounds, matches


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(read_only=True, help_text=_("1 starts game 1."))
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(source="player.name", read_only=True)


class MatchBriefSerializer(serializers.Serializer):
    """A match in a round. Its private token is shown to whoever may record its games
    (the view says so in the context: ``show_tokens``), null to everyone else."""

    id = serializers.IntegerField(read_only=True)
    table = serializers.IntegerField(read_only=True)
    players = serializers.SerializerMethodField(help_text=_("Player ids in seat order."))
    seats = SeatSerializer(many=True, read_only=True)
    token = serializers.SerializerMethodField(
        help_text=_(
            "The match's private token, for its score sheet's QR code and the `X-Match-Token` "
            "header; shown to organisers only (null for everyone else)."
        )
    )

    def get_players(self, match: Match) -> list[int]:
        return [seat.player_id for seat in match.seats.all()]

    def get_token(self, match: Match) -> str | None:
        return match.token if self.context.get("show_tokens") else None


class RoundSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    number = serializers.IntegerField(read_only=True)
    stage = serializers.ChoiceField(choices=Round.Stage.choices, read_only=True)
    date = serializers.DateField(read_only=True, allow_null=True)
    games_per_match = serializers.IntegerField(read_only=True)
    matches = MatchBriefSerializer(many=True, read_only=True)
    byes = serializers.SerializerMethodField(
        help_text=_("Players not seated this round; they get the tournament's bye score.")
    )

    def get_byes(self, round_: Round) -> list[int]:
        return [bye.player_id for bye in getattr(round_, "byes", ())]


class RoundSeatInSerializer(serializers.Serializer):
    """What to seat: the next qualifying round (the default), the semi-finals or the final."""

    stage = EngineChoiceField(
        choices=Round.Stage.choices,
        default=Round.Stage.QUALIFYING.value,
        help_text=_(
            "`qualifying` seats with the tournament's seating method; `semifinal` seats the "
            "top players of the qualifying standings; `final` the semi-final winners (or the "
            "top of the standings)."
        ),
    )
    date = serializers.DateField(required=False, allow_null=True)


class RoundTablesInSerializer(serializers.Serializer):
    """An organiser's own tables for a round."""

    tables = serializers.ListField(
        child=serializers.ListField(child=id_field(), max_length=50),
        max_length=1000,
        help_text=_("Player ids per table, in seat order; every active player once."),
    )
    byes = serializers.ListField(
        child=id_field(),
        required=False,
        default=list,
        max_length=1000,
        help_text=_("Active players who sit this round out (they get the bye score)."),
    )


# ----------------------------------------------------------------------------- games


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


class GameSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    match = serializers.IntegerField(source="match_id", read_only=True)
    number = serializers.IntegerField(read_only=True, help_text=_("1, 2, … within the match."))
    ending = serializers.ChoiceField(choices=ENDING_CHOICES, read_only=True)
    version = serializers.IntegerField(
        read_only=True, help_text=_("Bumped by every correction; the ETag.")
    )
    winners = serializers.SerializerMethodField(help_text=_("Winners' player ids."))
    scores = RackOutSerializer(source="racks", many=True, read_only=True, help_text=_("By seat."))

    def get_winners(self, game: Game) -> list[int]:
        return [rack.player_id for rack in game.racks.all() if rack.winner]


class GameRackInSerializer(RackInSerializer):
    player = serializers.IntegerField(  # type: ignore[assignment]
        help_text=_("The id of a player seated at the match.")
    )


class GameInSerializer(serializers.Serializer):
    """A game as played: how it ended and one rack per seated player."""

    ending = EngineChoiceField(choices=ENDING_CHOICES, help_text=ENDING_HELP)
    # The engine counts the racks (2-4) with its own message; the cap only bounds work.
    racks = GameRackInSerializer(many=True, allow_empty=True, max_length=50)  # type: ignore[call-arg]

    def to_representation(self, instance: Any) -> dict[str, Any]:
        """A recorded game as the body that would record it again (the browsable API's
        correction form starts from it)."""
        if not isinstance(instance, Game):
            return dict(super().to_representation(instance))
        return {
            "ending": instance.ending,
            "racks": [
                {
                    "player": rack.player_id,
                    "tiles": rack.tiles if rack.entered_as_tiles else None,
                    "points": rack.points,
                    "jokers": rack.jokers,
                }
                for rack in instance.racks.all()
            ],
        }


class MatchSerializer(MatchBriefSerializer):
    round = serializers.IntegerField(source="round_id", read_only=True)
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    tournament = serializers.IntegerField(source="round.tournament_id", read_only=True)
    games_planned = serializers.IntegerField(source="round.games_per_match", read_only=True)
    games = GameSerializer(many=True, read_only=True)


# ----------------------------------------------------------------------------- standings


class GameRevisionSerializer(serializers.Serializer):
    game = serializers.IntegerField(
        source="game_id",
        read_only=True,
        allow_null=True,
        help_text=_("Null once the game is deleted."),
    )
    number = serializers.IntegerField(source="game_number", read_only=True)
    version = serializers.IntegerField(read_only=True)
    action = serializers.ChoiceField(choices=GameRevision.Action.choices, read_only=True)
    at = serializers.DateTimeField(read_only=True)
    user = serializers.CharField(
        source="user.get_username",
        read_only=True,
        allow_null=True,
        default=None,
        help_text=_("Null for a match token."),
    )
    snapshot = serializers.JSONField(
        read_only=True,
        help_text=_(
            "The game as it was then: ending and racks (player, tiles or points and jokers, "
            "rack value, score, winner)."
        ),
    )


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(read_only=True, help_text=_("Shared by full ties."))
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(read_only=True)
    club = serializers.CharField(read_only=True, help_text=_("Club name, or empty."))
    score = NumberField(help_text=_("Game scores plus adjustments."))
    game_score = NumberField(help_text=_("The sum of the game scores."))
    adjustments = NumberField(help_text=_("Penalties, bonuses and byes."))
    games = serializers.IntegerField(read_only=True)
    wins = serializers.IntegerField(read_only=True)
    rack_total = serializers.IntegerField(
        read_only=True, help_text=_("The sum of the player's rack values (fewer is better).")
    )
    table_points = NumberField()
    average = NumberField(help_text=_("Score (adjustments included) per game played."))
    withdrawn = serializers.BooleanField(read_only=True)
    absent = serializers.BooleanField(read_only=True, help_text=_("Checked out for now."))


class StandingsSerializer(serializers.Serializer):
    results = StandingSerializer(many=True, read_only=True, help_text=_("Best first."))


def standings_payload(rows: list[StandingRow]) -> dict[str, Any]:
    return {"results": rows}


# ----------------------------------------------------------------------------- adjustments


class StandingsQuerySerializer(serializers.Serializer):
    stage = serializers.ChoiceField(
        choices=Round.Stage.choices,
        required=False,
        help_text=_(
            "Count only this stage's rounds (`qualifying` also counts adjustments that belong "
            "to no round). Default: every round."
        ),
    )


class AdjustmentSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(source="player.name", read_only=True)
    round = serializers.IntegerField(source="round_id", read_only=True, allow_null=True)
    kind = serializers.ChoiceField(choices=Adjustment.Kind.choices, read_only=True)
    points = NumberField(help_text=_("Added to the player's score (negative for a penalty)."))
    reason = serializers.CharField(read_only=True)
    created = serializers.DateTimeField(read_only=True)


class AdjustmentInSerializer(serializers.Serializer):
    """Types only: the service judges the values (sign, size, reason) with its messages."""

    player = id_field(help_text=_("An entered player's id."))
    points = serializers.DecimalField(
        max_digits=None,
        decimal_places=None,
        help_text=_(
            "Added to the score: negative for a penalty, positive for a bonus; at most 2 decimals."
        ),
    )
    reason = serializers.CharField(
        max_length=1000, allow_blank=True, help_text=_("Why (up to 200 characters).")
    )
    kind = EngineChoiceField(
        choices=[Adjustment.Kind.PENALTY.value, Adjustment.Kind.BONUS.value],
        default=Adjustment.Kind.PENALTY.value,
    )
    round = IdRelatedField(
        queryset=Round.objects.all(),
        required=False,
        allow_null=True,
        help_text=_("A round of this tournament: the adjustment then counts in its stage only."),
    )
