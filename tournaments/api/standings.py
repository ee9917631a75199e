"""Standings: every row of a tournament's ranking at once (not paginated).

Vocabulary: a *standings row* (``standings.ranking.StandingRow``) is one
entered player's place: rank, score (game scores plus adjustments), games,
wins and the tie-break values. The answer is the tournament's *current
ranking* (``selectors.standings.ranking_current``), the order every page,
file and the projector show: the qualifying standings, then the placings
once semi-finals or a final are seated, then the final placings; ``stage``
names the stage it comes from and ``decided`` says the placings are final.
``?stage=qualifying`` answers the qualifying table; ``?stage=semifinal`` or
``final`` counts that stage's rounds only, every entered player listed, once
the tournament has that stage (``standings.current.stage_there_check``:
before, 400 naming the stages there are); ``?category=`` keeps one category's
players, ranked afresh from 1 (a category nobody carries answers an empty
list, not an error: the standings of a category before anyone is entered in
it; as on the standings page, such an answer is not cached, so free text
makes no cache entry).
``unconfirmed_games`` counts the player's games (in that scope) that await
confirmation, whether the standings count them or not.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import error_responses
from apikit.serializer_fields import NumberField
from scoring.rules import CATEGORY_MAX_LENGTH
from tournaments.api.base import TournamentNestedView
from tournaments.api.preconditions import IF_NONE_MATCH_HEADER, LIVE_ETAG_HEADER, NOT_MODIFIED
from tournaments.caching import cached, tournament_key
from tournaments.live import live_answer, live_tag
from tournaments.models import Round
from tournaments.selectors.rounds import rounds_listed
from tournaments.selectors.standings import (
    ranking_current,
    ranking_version_served,
    standings_shared,
)
from tournaments.selectors.unconfirmed import Unconfirmed, unconfirmed_of
from tournaments.standings.current import QUALIFYING, stage_there_check
from tournaments.standings.ranking import StandingRow, categories_of, category_rows

# ----------------------------------------------------------------------------- serializers


class StandingsQuerySerializer(serializers.Serializer[Any]):
    stage = serializers.ChoiceField(
        choices=Round.Stage.choices,
        required=False,
        help_text=_(
            "`qualifying`: the qualifying standings (they also count adjustments that belong "
            "to no round). `semifinal` or `final`: only that stage's rounds. Default: the "
            "current ranking (the qualifying standings, then the placings once a stage is "
            "seated, then the final placings)."
        ),
    )
    category = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=CATEGORY_MAX_LENGTH,
        help_text=_(
            "Only the players of this category, ranked within it (rank 1 = its best); a "
            "category nobody carries gives an empty list. Default: everyone."
        ),
    )


class StandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(read_only=True, help_text=_("Shared by full ties."))
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(read_only=True)
    club = serializers.CharField(read_only=True, help_text=_("Club name, or empty."))
    category = serializers.CharField(read_only=True, help_text=_("The entry's category, or empty."))
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
    unconfirmed_games = serializers.SerializerMethodField(
        help_text=_(
            "The player's games awaiting confirmation (entered or disputed); the tournament's "
            "`standings_unconfirmed` says whether the standings count them."
        )
    )

    @extend_schema_field(OpenApiTypes.INT)
    def get_unconfirmed_games(self, row: StandingRow) -> int:
        unconfirmed: Unconfirmed | None = self.context.get("unconfirmed")
        return unconfirmed.of(row.player_id) if unconfirmed is not None else 0


class StandingsSerializer(serializers.Serializer[Any]):
    stage = serializers.ChoiceField(
        choices=Round.Stage.choices,
        read_only=True,
        help_text=_(
            "The stage the order comes from: `qualifying` before any stage is seated (or "
            "when asked for), then `semifinal` or `final`, whose players come first."
        ),
    )
    decided = serializers.BooleanField(
        read_only=True,
        help_text=_("The final placings: the final is played out or the tournament finished."),
    )
    results = StandingSerializer(many=True, read_only=True, help_text=_("Best first."))


# ----------------------------------------------------------------------------- view


class StandingsView(TournamentNestedView):
    """Every standings row at once (not paginated)."""

    serializer_class = StandingsSerializer
    pagination_class = None

    @extend_schema(
        summary="A tournament's standings",
        description=_(
            "Every entered player, best first, in the tournament's current ranking (the one "
            "order every page shows), named by `stage`; `score` includes adjustments."
        ),
        parameters=[StandingsQuerySerializer, IF_NONE_MATCH_HEADER, LIVE_ETAG_HEADER],
        responses={
            200: StandingsSerializer,
            304: NOT_MODIFIED,
            **error_responses(400, 401, 404),
        },
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        # The head only (one small query): a poll answered 304 reads no more.
        head = self.tournament_head()
        # A plain dict: DRF reads a form's empty "stage=" as "not sent".
        query = StandingsQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        stage = query.validated_data.get("stage")
        # Trimmed as entries store it; blank means everyone.
        category = query.validated_data.get("category", "").strip()

        # Read once: the answer and the rows it is built from are kept by it. While a
        # new version's ranking is being built, the latest built one's.
        version = (
            ranking_version_served(tournament=head, stage=stage, version=head.version)
            if stage in (None, QUALIFYING)
            else head.version
        )

        def build() -> dict[str, Any]:
            tournament = self.tournament()
            answer: dict[str, Any]
            if stage in (None, QUALIFYING):
                ranking = ranking_current(
                    tournament=tournament, stage=stage, category=category, version=version
                )
                answer = {"stage": ranking.stage, "decided": ranking.decided}
                rows = ranking.rows
            else:
                # Refused here, not cached: a stage seated later makes a new version.
                seated = {r.stage for r in rounds_listed(tournament=tournament)}
                stage_there_check(stage=stage, seated=seated)
                rows = standings_shared(tournament=tournament, stage=stage, version=version)
                if category:
                    rows = category_rows(rows, category=category)
                answer = {"stage": stage, "decided": False}
            unconfirmed = unconfirmed_of(
                tournament=tournament, stages=None if stage is None else [stage]
            )
            context = {"unconfirmed": unconfirmed}
            return dict(StandingsSerializer({**answer, "results": rows}, context=context).data)

        # Built once per tournament version: every write through a service makes a new one.
        # Every parameter that changes the answer, checked already: junk ones are ignored.
        tag = live_tag(
            tournament=head,
            what="api-standings",
            view=(stage or "", category),
            version=version,
        )
        key = tournament_key(
            tournament=head,
            what="api-standings",
            # Hashed: a category is free text, a key part must be plain.
            parts=(
                stage or "",
                hashlib.sha256(category.encode()).hexdigest()[:16] if category else "",
            ),
            version=version,
        )

        def respond() -> Response:
            # A category nobody carries (free text) is answered, never kept.
            known = not category or category in categories_of(
                ranking_current(tournament=self.tournament(), version=version).rows
            )
            if not known:
                return Response(build())
            return Response(cached(cache="default", key=key, build=build, timeout=6 * 3600))

        return live_answer(request, tag=tag, answer=respond)
