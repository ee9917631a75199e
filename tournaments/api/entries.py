"""Entries: who plays in a tournament, checked in, checked out or withdrawn.

Vocabulary: an *entry* is a player registered in a tournament, with a status:
``active`` (seated in the next round), ``absent`` (checked out for now) or
``withdrawn`` (left the event). *Attendance* is a league's club night: exactly
the players named are active.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.serializer_fields import StrictCharField
from scoring import rules
from scoring.errors import UserError
from tournaments.api.base import TournamentNestedView
from tournaments.api.id_fields import id_field
from tournaments.models import Entry, Tournament
from tournaments.selectors.entries import entries_of, entry_of
from tournaments.services import entries as entry_services

ENTRY_STATUS_HELP = _(
    "`active`: seated in the next round; `absent`: entered but checked out (a late "
    "arrival, a no-show, a skipped club night); `withdrawn`: left the event. Results "
    "already played always count."
)

CATEGORY_HELP = _(
    "Free text such as `U14` or `Senior` (trimmed; empty = none); the standings can be "
    "shown per category."
)


def category_field(**kwargs: Any) -> serializers.CharField:
    """An entry's category as a request gives it (a JSON string, not a number)."""
    return StrictCharField(
        required=False,
        allow_blank=True,
        max_length=rules.CATEGORY_MAX_LENGTH,
        help_text=CATEGORY_HELP,
        **kwargs,
    )


# ----------------------------------------------------------------------------- serializers


class EntrySerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(source="player.name", read_only=True)
    club = serializers.IntegerField(source="player.club_id", read_only=True, allow_null=True)
    status = serializers.ChoiceField(
        choices=Entry.Status.choices, read_only=True, help_text=ENTRY_STATUS_HELP
    )
    category = serializers.CharField(read_only=True, help_text=CATEGORY_HELP)


class EntryStatusInSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=Entry.Status.choices, help_text=ENTRY_STATUS_HELP)
    category = category_field()


class EntriesInSerializer(serializers.Serializer[Any]):
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
    category = category_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("player" in attrs) == ("players" in attrs):
            raise serializers.ValidationError(
                gettext("Give either “player” (one id) or “players” (a list of ids)."),
                code="one_of",
            )
        ids = attrs["players"] if "players" in attrs else [attrs["player"]]
        return {"player_ids": ids, "status": attrs["status"], "category": attrs.get("category")}


class OnePlayerInSerializer(serializers.Serializer[Any]):
    """One player: ``{"player": id}``."""

    player = id_field(help_text=_("One player's id."))
    status = serializers.ChoiceField(
        choices=Entry.Status.choices, default=Entry.Status.ACTIVE, help_text=ENTRY_STATUS_HELP
    )
    category = category_field()


class SeveralPlayersInSerializer(serializers.Serializer[Any]):
    """Several players: ``{"players": [ids]}``."""

    players = serializers.ListField(
        child=id_field(), allow_empty=False, max_length=1000, help_text=_("Several players' ids.")
    )
    status = serializers.ChoiceField(
        choices=Entry.Status.choices, default=Entry.Status.ACTIVE, help_text=ENTRY_STATUS_HELP
    )
    category = category_field()


# The two serializers above only describe the body: EntriesInSerializer reads
# it; the document states its either-or as one of two bodies.
ENTRIES_IN = PolymorphicProxySerializer(
    component_name="EntriesIn",
    serializers=[OnePlayerInSerializer, SeveralPlayersInSerializer],
    resource_type_field_name=None,
)


class AttendanceInSerializer(serializers.Serializer[Any]):
    """Everyone playing tonight, by id."""

    players = serializers.ListField(
        child=id_field(), allow_empty=False, max_length=1000, help_text=_("Several players' ids.")
    )


# ----------------------------------------------------------------------------- views


class TournamentEntriesView(TournamentNestedView):
    """The players entered in a tournament."""

    serializer_class = EntrySerializer
    input_serializer = EntriesInSerializer

    def get_queryset(self) -> QuerySet[Any]:
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI generator's visit
            return Entry.objects.none()
        return entries_of(tournament=self.tournament())

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
        request=ENTRIES_IN,
        responses={201: EntrySerializer(many=True)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament()
        given = EntriesInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        category = given.validated_data.pop("category")
        # The services speak of "players"; an error is answered at the key sent.
        sent = "player" if "player" in given.initial_data else "players"
        try:
            with transaction.atomic():  # entered with their category, or not at all
                entries = entry_services.entries_add(
                    tournament=tournament, user=request.user, **given.validated_data
                )
                if category is not None:
                    entries = entry_services.entries_category_set(
                        tournament=tournament,
                        player_ids=[e.player_id for e in entries],
                        category=category,
                        user=request.user,
                    )
        except UserError as error:
            if error.field in {"player", "players"}:
                error.field = sent
            raise
        return Response(EntrySerializer(entries, many=True).data, status=status.HTTP_201_CREATED)


class TournamentAttendanceView(TournamentNestedView):
    """A league's club night: who plays tonight."""

    serializer_class = EntrySerializer
    input_serializer = AttendanceInSerializer

    @extend_schema(
        summary="Set who plays tonight (a league's club night)",
        description=_(
            '`{"players": [ids]}`: exactly these players are active for the next round; '
            "players not yet entered are entered, every other entry that is not withdrawn is "
            "checked out (`absent`) until it is checked in again. Answers every entry."
        ),
        request=AttendanceInSerializer,
        responses={200: EntrySerializer(many=True)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament()
        given = AttendanceInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        entry_services.attendance_set(
            tournament=tournament, player_ids=given.validated_data["players"], user=request.user
        )
        entries = entries_of(tournament=tournament)
        return Response(EntrySerializer(entries, many=True).data)


ENTRY_STATUS_SERVICES = {
    Entry.Status.ACTIVE: entry_services.entry_activate,
    Entry.Status.ABSENT: entry_services.entry_check_out,
    Entry.Status.WITHDRAWN: entry_services.entry_withdraw,
}


class TournamentEntryView(TournamentNestedView):
    """One player's entry: check them in or out, or withdraw them."""

    serializer_class = EntrySerializer
    input_serializer = EntryStatusInSerializer

    def entered(self, player_id: int) -> tuple[Tournament, Entry]:
        """The tournament and the entry the path names; 404 when the player is not entered."""
        tournament = self.tournament()
        entry = entry_of(tournament=tournament, player_id=player_id)
        if entry is None:
            raise NotFound()
        return tournament, entry

    @extend_schema(
        summary="Check a player in or out, or change their category",
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
        tournament, entry = self.entered(player_id)
        # A PATCH without a status changes nothing (as its document says: every field optional).
        given = EntryStatusInSerializer(data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        with transaction.atomic():  # the status and the category together, or neither
            if "category" in data:
                entry_services.entries_category_set(
                    tournament=tournament,
                    player_ids=[player_id],
                    category=data["category"],
                    user=request.user,
                )
            if "status" in data:
                service = ENTRY_STATUS_SERVICES[data["status"]]
                service(tournament=tournament, player_id=player_id, user=request.user)
        refreshed = entry_of(tournament=tournament, player_id=player_id)
        return Response(EntrySerializer(refreshed or entry).data)

    @extend_schema(
        summary="Withdraw a player",
        description=_(
            "The player is not seated in later rounds; the results played are kept (so is "
            "the entry, as `withdrawn`)."
        ),
        responses={200: EntrySerializer},
    )
    def delete(self, request: Request, tournament_id: int, player_id: int) -> Response:
        entry = entry_services.entry_withdraw(
            tournament=self.entered(player_id)[0], player_id=player_id, user=request.user
        )
        return Response(EntrySerializer(entry).data)
