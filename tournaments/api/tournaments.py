"""Tournaments and their settings.

Vocabulary: a tournament's *settings* are its model fields (rules of play,
plan, ranking); ``table_points`` is an object mapping a table size to its
points per place (sizes left out keep theirs) and ``tie_breaks`` a list.
The serializer checks types; the tournament services judge the values (the
rules engine's and the standings' own checks, a slug in use), so every
refusal carries their message. ``co_organisers`` are the other users (by
username) who organise the tournament too, having accepted the owner's
invitation; ``invited`` the usernames invited and not answered yet; only its
organisers see either. Writing ``co_organisers`` *invites*: every name not yet
there is invited (the answer's ``invited`` says who), and the list must still
hold the current co-organisers (removing one, or withdrawing an invitation,
has its own address: ``invitations.py``). Anyone reads public tournaments
(private ones answer 404 to all but their organisers); a logged-in user creates
one and owns it; its organisers change it, and *finish* and *reopen* it (its
``status`` follows: it is not written as a setting, and a finished tournament
keeps everything but its description); only its owner (and staff) deletes it,
changes ``public`` and who organises it (403 for a co-organiser). The ``club``
named is one the user may use (a public one, or their own): any other id
answers as one that does not exist.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.defaults import json_parsers
from apikit.errors import error_responses
from apikit.serializer_fields import (
    DecimalNumberField,
    EngineChoiceField,
    EngineIntegerField,
    StrictTextMixin,
)
from calculator.api import POOL_TIE_CHOICES
from scoring import rules
from scoring.errors import UserError
from tournaments.access import tournament_organiser, user_or_none
from tournaments.api.base import ServiceModelViewSet
from tournaments.api.filters import TournamentFilter
from tournaments.api.permissions import TournamentOwnerDeletes
from tournaments.api.tournament_fields import (
    CarryOverField,
    TablePointsField,
    TieBreaksField,
    UsableClubField,
    UsableSeasonField,
    UsernamesField,
)
from tournaments.formats import FORMATS
from tournaments.models import Club, Season, Tournament
from tournaments.selectors.tournaments import invited_names, tournaments_visible
from tournaments.services.tournaments import (
    tournament_create,
    tournament_delete,
    tournament_finish,
    tournament_reopen,
    tournament_update,
)

# ----------------------------------------------------------------------------- serializers


class TournamentSerializer(StrictTextMixin, serializers.ModelSerializer[Tournament]):
    owner = serializers.CharField(
        source="owner.username", read_only=True, help_text=_("Who created it (username).")
    )
    club = UsableClubField(
        queryset=Club.objects.all(),
        allow_null=True,
        required=False,
        help_text=_(
            "The organising club (its id), or null: a club you created, or one a public "
            "tournament shows (or the one named already); any other id does not exist."
        ),
    )
    season = UsableSeasonField(
        queryset=Season.objects.all(),
        allow_null=True,
        required=False,
        help_text=_(
            "The club season this tournament is an evening of (its id), or null: a season "
            "of a club you organise (or the one named already); any other id does not exist. "
            "An evening is its season's club's: a tournament of no club takes it, one of "
            "another club is refused (400); a season takes no tournament whose day is after "
            "its last day (409)."
        ),
    )
    slug = serializers.SlugField(
        max_length=80,
        required=False,
        help_text=_("Its address, /t/<slug>/; made from the name when left out."),
    )
    # Plain integer and text here: the rules engine judges them, with its messages.
    joker_penalty = EngineIntegerField(
        required=False,
        min_value=0,
        max_value=rules.JOKER_PENALTY_MAX,
        help_text=_("Points per joker left on a rack (30; 25 in Dutch/Belgian rules)."),
    )
    pool_tie = EngineChoiceField(
        # The calculator's choices: one enum in the document (the engine judges the value).
        choices=POOL_TIE_CHOICES,
        required=False,
        help_text=_(
            "A tie for the lowest rack: joint winners `share`, `fewest_tiles` wins, or a "
            "`draw` (they share the plus and nobody wins)."
        ),
    )
    carry_over = CarryOverField(required=False)
    format = EngineChoiceField(
        choices=["", *FORMATS],
        required=False,
        help_text=_(
            "On create: a named format whose settings fill every setting not given "
            "(explicit fields win). Afterwards: the format it was created from (blank: none), "
            "kept whatever an update sends."
        ),
    )
    turn_seconds = serializers.ChoiceField(
        choices=rules.TURN_SECONDS_CHOICES,
        required=False,
        help_text=_("The turn timer's seconds per turn."),
    )
    table_points = TablePointsField(required=False)
    bye_score = DecimalNumberField(
        max_digits=8,
        decimal_places=2,
        min_value=-rules.SCORE_SETTING_MAX,
        max_value=rules.SCORE_SETTING_MAX,
        required=False,
        help_text=_("What a player with a bye scores for the round."),
    )
    tie_breaks = TieBreaksField(
        required=False, help_text=_("Applied in order when the ranking value ties.")
    )
    co_organisers = UsernamesField(
        required=False,
        help_text=_(
            "The other users (usernames) who co-organise this tournament: those who accepted "
            "the owner's invitation. Writing the list invites every name not yet a "
            "co-organiser or invited (the answer's `invited` lists them; an invitation is "
            "answered the same whether or not the username exists); the list must keep the "
            "current co-organisers (remove one with DELETE "
            "/api/v1/tournaments/{id}/co-organisers/{username}/). Only the owner (and staff) "
            "invites (403). Shown to its organisers only (an empty list for everyone else)."
        ),
    )
    invited = serializers.SerializerMethodField(
        help_text=_(
            "Usernames invited to co-organise and not answered yet (withdraw one with DELETE "
            "/api/v1/tournaments/{id}/invitations/{username}/). Organisers only (an empty "
            "list for everyone else)."
        )
    )

    def get_invited(self, instance: Tournament) -> list[str]:
        request = self.context.get("request")
        if not tournament_organiser(user=getattr(request, "user", None), tournament=instance):
            return []
        return sorted(i.username for i in instance.invitations.all())

    def validate_format(self, value: str) -> str:
        # A format fills settings once, on create; after that it only says where they
        # came from, so an update keeps it whatever is sent (as read-only fields are).
        return self.instance.format if self.instance is not None else value

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "slug",
            "date",
            "club",
            "season",
            "owner",
            "co_organisers",
            "invited",
            "public",
            "rated",
            "status",
            "kind",
            "language",
            "paper",
            "rounds",
            "games_per_round",
            "seating",
            "seed_by_rating",
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
            "loss_cap",
            "winner_bonus",
            "runner_up_bonus",
            "semifinal_games",
            "final_games",
            "final_first_to",
            "carry_over",
            "final_from",
            "turn_seconds",
            "round_minutes",
            "format",
            "confirmation",
            "standings_unconfirmed",
        ]
        extra_kwargs = {
            # The plan's bounds (the services say them in words) fit their columns
            # whichever database runs: the document shows the same limits on each.
            "rounds": {
                "min_value": 0,
                "max_value": rules.ROUNDS_MAX,
                "help_text": _("Rounds planned."),
            },
            "games_per_round": {
                "min_value": rules.GAMES_PER_ROUND_MIN,
                "max_value": rules.GAMES_PER_ROUND_MAX,
            },
            "max_table_size": {"min_value": rules.PLAYERS_MIN, "max_value": rules.PLAYERS_MAX},
            "min_games": {"min_value": 0, "max_value": rules.MIN_GAMES_MAX},
            "seed": {"min_value": 0, "max_value": rules.SEED_MAX},
            "semifinal_players": {"min_value": 0, "max_value": rules.SEMIFINAL_PLAYERS_MAX},
            "loss_cap": {
                "min_value": 1,
                "max_value": rules.LOSS_CAP_MAX,
                "help_text": _(
                    "The most a non-winner loses in one game; the winner gains the capped "
                    "losses. null: no cap."
                ),
            },
            "winner_bonus": {
                "min_value": 0,
                "max_value": rules.BONUS_MAX,
                "help_text": _(
                    "Paid to a game's winner on top of the zero-sum score; joint winners share it."
                ),
            },
            "runner_up_bonus": {
                "min_value": 0,
                "max_value": rules.BONUS_MAX,
                "help_text": _(
                    "Paid to the lowest rack among the players who did not win; ties share it."
                ),
            },
            "semifinal_games": {
                "min_value": rules.GAMES_PER_ROUND_MIN,
                "max_value": rules.GAMES_PER_ROUND_MAX,
                "help_text": _("Games at each semi-final table; null: `games_per_round`."),
            },
            "final_games": {
                "min_value": rules.GAMES_PER_ROUND_MIN,
                "max_value": rules.GAMES_PER_ROUND_MAX,
                "help_text": _("Games in the final; null: `games_per_round`."),
            },
            "final_first_to": {
                "min_value": 0,
                "max_value": rules.FINAL_FIRST_TO_MAX,
                "help_text": _(
                    "0: off; N: the final ends when a player has won N games, and is ranked "
                    "by its wins, then its score."
                ),
            },
            "final_from": {
                "help_text": _(
                    "Who reaches the final after semi-finals: `semifinal_winners` (their table "
                    "winners, then the best of the rest) or `stage_points` (the best by "
                    "semi-final points only)."
                )
            },
            "round_minutes": {
                "min_value": 0,
                "max_value": rules.ROUND_MINUTES_MAX,
                "help_text": _("The round's time limit in minutes; 0: none."),
            },
            "public": {"help_text": _("Private tournaments are seen by their organisers only.")},
            "confirmation": {
                "help_text": _(
                    "`none`: every game counts as recorded; `organiser`: games entered "
                    "through a match link stay `entered` until an organiser confirms them; "
                    "`double_entry`: a game is `confirmed` once entered twice with the same "
                    "racks, `disputed` when the two entries differ."
                )
            },
            "standings_unconfirmed": {
                "help_text": _(
                    "Whether the standings count games not yet confirmed (`include`, marked) "
                    "or leave them out until confirmed (`exclude`)."
                )
            },
            "status": {
                "help_text": _(
                    "`planned` until a round is seated or a game recorded, then `running`; "
                    "`finished` and back to `running` only through `finish/` and `reopen/`. "
                    "A status sent that differs from the current one is refused (400)."
                )
            },
        }


# ----------------------------------------------------------------------------- views


# A change may conflict with the state: results recorded (the scoring settings
# stay), a season that has ended (no evening after its last day).
_CHANGED = {200: TournamentSerializer, **error_responses(400, 401, 403, 404, 409)}


@extend_schema_view(
    create=extend_schema(responses={201: TournamentSerializer, **error_responses(400, 401, 409)}),
    update=extend_schema(responses=_CHANGED),
    partial_update=extend_schema(responses=_CHANGED),
)
class TournamentViewSet(ServiceModelViewSet[Tournament]):
    """Tournaments with their rule settings. Anyone reads public ones (private ones
    answer 404 to all but their organisers); a logged-in user creates one and owns it;
    its organisers (owner, co-organisers, staff) change it; its owner (and staff)
    deletes it, changes its visibility and invites co-organisers."""

    serializer_class = TournamentSerializer
    permission_classes = [TournamentOwnerDeletes]
    # Table points are an object of lists: a form cannot send them.
    parser_classes = json_parsers()
    filterset_class = TournamentFilter
    search_fields = ["name", "slug"]
    ordering_fields = ["date", "name", "id", "status"]
    ordering = ["-date", "-id"]
    lookup_value_converter = "api_id"

    def get_queryset(self) -> QuerySet[Tournament]:
        visible = tournaments_visible(user=self.request.user)
        if user_or_none(self.request.user) is None:
            return visible  # nobody logged in organises: no organisers to show
        return visible.prefetch_related("co_organisers", "invitations")

    def object_create(self, data: dict[str, Any]) -> Tournament:
        return tournament_create(owner=self.request.user, user=self.request.user, **data)

    def object_update(self, instance: Tournament, data: dict[str, Any]) -> Tournament:
        if "co_organisers" in data:
            data["co_organisers"] = self.co_organisers_wanted(instance, data["co_organisers"])
        return tournament_update(tournament=instance, user=self.request.user, **data)

    def co_organisers_wanted(self, instance: Tournament, given: list[str]) -> list[str]:
        """The organisers a written list asks for: the names given and the invitations
        waiting (a list read back never withdraws them). A current co-organiser
        left out is refused: removing one has its own address."""
        names = [name.strip() for name in given]
        left_out = sorted({u.get_username() for u in instance.co_organisers.all()} - set(names))
        if left_out:
            raise UserError(
                gettext_noop(
                    "The list keeps the current co-organisers (“%(username)s” is left out); "
                    "remove one with DELETE /api/v1/tournaments/%(id)s/co-organisers/"
                    "<username>/."
                ),
                field="co_organisers",
                username=left_out[0],
                id=instance.pk,
            )
        return [*names, *invited_names(tournament=instance)]

    def object_delete(self, instance: Tournament) -> None:
        tournament_delete(tournament=instance, user=self.request.user)

    @extend_schema(
        summary="Finish a tournament",
        description=_(
            "Declares the tournament finished: its standings are its final placings, and "
            "nothing in it changes (games, entries, seating, adjustments, plan and rules) "
            "until it is reopened; its description and organisers stay editable. 409 "
            "before a round is seated, while a table of any round has games to play, or "
            "when it is finished already."
        ),
        request=None,
        responses={200: TournamentSerializer, **error_responses(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: int) -> Response:
        finished = tournament_finish(tournament=self.get_object(), user=request.user)
        return Response(self.get_serializer(finished).data)

    @extend_schema(
        summary="Reopen a finished tournament",
        description=_(
            "Reopens a finished tournament, to play on or to correct a result. 409 when it "
            "is not finished."
        ),
        request=None,
        responses={200: TournamentSerializer, **error_responses(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, pk: int) -> Response:
        reopened = tournament_reopen(tournament=self.get_object(), user=request.user)
        return Response(self.get_serializer(reopened).data)
