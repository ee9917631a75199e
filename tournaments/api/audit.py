"""A tournament's audit trail, for its organisers.

Vocabulary: an *event* is one change to the tournament (its settings,
entries, rounds, seats, games, racks, adjustments, match links): when (``at``),
*who* (a user, the match link of a table, or the system), *via* which of
those, the *action* (``game.recorded``, ``settings.changed``, …), the object it
concerns (``object_type`` is the action's first part, ``object_id`` its id),
where (round, table, game number) and the *old* and *new* values. The trail is
read newest first; only the tournament's organisers read it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import error_responses
from tournaments.api.base import TournamentNestedView
from tournaments.api.filters import OBJECT_TYPES, AuditFilter
from tournaments.api.permissions import OrganiserOnly
from tournaments.models import AuditEvent
from tournaments.selectors.audit import audit_of

VIA_CHOICES = [
    ("user", _("a user")),
    ("match_link", _("a table's match link")),
    ("system", _("the system (a command or an import)")),
]


class AuditEventSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    at = serializers.DateTimeField(read_only=True)
    who = serializers.CharField(
        read_only=True,
        help_text=_("Who made the change, for a person: a username, a table's match link, …"),
    )
    user = serializers.SerializerMethodField(help_text=_("The username; null when no user."))
    via = serializers.ChoiceField(choices=VIA_CHOICES, read_only=True)
    action = serializers.ChoiceField(choices=AuditEvent.Action.choices, read_only=True)
    object_type = serializers.ChoiceField(choices=[(t, t) for t in OBJECT_TYPES], read_only=True)
    object_id = serializers.IntegerField(
        read_only=True, allow_null=True, help_text=_("The id of what changed, if it has one.")
    )
    round = serializers.IntegerField(
        source="round_number", read_only=True, allow_null=True, help_text=_("Round number.")
    )
    table = serializers.IntegerField(read_only=True, allow_null=True)
    game_number = serializers.IntegerField(read_only=True, allow_null=True)
    version = serializers.IntegerField(
        read_only=True, allow_null=True, help_text=_("A game's version after the change.")
    )
    old = serializers.JSONField(read_only=True, help_text=_("The values before (null: none)."))
    new = serializers.JSONField(read_only=True, help_text=_("The values after (null: none)."))

    def get_user(self, event: AuditEvent) -> str | None:
        return event.username or None


class TournamentAuditView(TournamentNestedView):
    """Every change to a tournament, newest first."""

    serializer_class = AuditEventSerializer
    permission_classes = [OrganiserOnly]
    filter_backends = [DjangoFilterBackend]
    filterset_class = AuditFilter

    def get_queryset(self) -> QuerySet[AuditEvent]:
        if getattr(self, "swagger_fake_view", False):
            return AuditEvent.objects.none()
        return audit_of(tournament=self.tournament())

    @extend_schema(
        summary="A tournament's audit trail",
        description=_(
            "Every change to the tournament's settings, entries, rounds, seats, games, "
            "racks, adjustments and match links, newest first: when, who (a user, the "
            "match link of a table, or the system), the action, the object and its old "
            "and new values. `?match=` narrows it to one match, `?action=` to one action, "
            "`?object_type=` to one kind of object. Organisers only: 403 for other users, "
            "404 for a private tournament you may not see."
        ),
        responses={200: AuditEventSerializer(many=True), **error_responses(400, 401, 403, 404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(AuditEventSerializer(page, many=True).data)
