"""The tournament serializer's own fields: table points, tie-breaks, the share
of points carried into a stage, usernames, and the club a tournament names.

Vocabulary: *table points* are an object mapping a table size (2, 3, 4) to its
points per place; *tie-breaks* an ordered list of names; the *carry-over* a
number, 0, 0.5 or 1, stored as the text of its choice; *usernames* are plain
text, never looked up here (whether an account has a name is not told); the
*club* is one the request's user may name (``access.clubs_usable_q``) or the one
named already, and any other id answers as one that does not exist; so is the
*season* (one of a club the user organises, ``access.seasons_organised_q``, or
the one named already). Each field
checks the type; the tournament services judge the values.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apikit.serializer_fields import EngineChoiceField
from scoring import rules
from scoring.tie_breaks import TIE_BREAK_NAMES
from tournaments.access import tournament_organiser
from tournaments.api.id_fields import IdRelatedField
from tournaments.selectors.people import clubs_usable
from tournaments.selectors.seasons import seasons_usable
from tournaments.services.co_organisers import USERNAME_MAX

_TABLE_POINTS_SCHEMA = {
    "type": "object",
    "description": (
        "Points per place, first place first, for tables of 2, 3 and 4 players; tied places "
        "share. Sizes left out are unchanged."
    ),
    "properties": {
        str(size): {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": rules.TABLE_POINTS_MAX},
            "minItems": size,
            "maxItems": size,
        }
        for size in rules.TABLE_SIZES
    },
    "additionalProperties": False,
    "example": {"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]},
}


@extend_schema_field(_TABLE_POINTS_SCHEMA)
class TablePointsField(serializers.Field[Any, Any, Any, Any]):
    """``{"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]}``; sizes left out keep their points."""

    default_error_messages = {
        "not_a_map": _("Give an object mapping a table size (2, 3 or 4) to its points."),
    }

    def to_representation(self, value: dict[str, list[int]]) -> dict[str, list[int]]:
        return value

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            self.fail("not_a_map")
        return dict(data)  # the service merges it with the current points and judges it


class TieBreaksField(serializers.ListField):
    """The tie-breaks in order, as a list (the service judges them)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=EngineChoiceField(choices=TIE_BREAK_NAMES), **kwargs)

    def to_representation(self, data: Any) -> list[str]:
        return list(data)


# The share of the points carried into a stage, as JSON numbers; stored as text.
_CARRY_OVER = {Decimal(v): v for v in rules.CARRY_OVER_CHOICES}
_CARRY_OVER_SHARES = sorted(_CARRY_OVER)
_CARRY_OVER_STEP = _CARRY_OVER_SHARES[1] - _CARRY_OVER_SHARES[0]


# Documented as the numbers from the least to the most share in steps of the
# smallest, which is exactly the choices (0, 0.5, 1): an enum mixing integers and
# fractions is refused by client generators ("enum values must all be the same
# type"), and the wire stays a JSON number either way.
@extend_schema_field(
    {
        "type": "number",
        "minimum": float(_CARRY_OVER_SHARES[0]),
        "maximum": float(_CARRY_OVER_SHARES[-1]),
        "multipleOf": float(_CARRY_OVER_STEP),
        "description": (
            "What share of their points before a stage the players take into it: 0 (none), "
            "0.5 (half, rounded up to a whole point) or 1 (all). A JSON number; 1.0 is 1."
        ),
    }
)
class CarryOverField(serializers.Field[Any, Any, Any, Any]):
    """``0``, ``0.5`` or ``1``: the stored ``"0"`` / ``"0.5"`` / ``"1"`` as a number."""

    default_error_messages = {
        "invalid": _("Give 0, 0.5 or 1: the share of the points carried into a stage."),
    }

    def to_representation(self, value: str) -> int | float:
        return float(value) if "." in value else int(value)

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        try:
            return _CARRY_OVER[Decimal(str(data))]
        except (KeyError, ArithmeticError):
            self.fail("invalid")


class UsernamesField(serializers.ListField):
    """A tournament's co-organisers: usernames, as text (whether an account has one
    is not looked up here); read by its organisers only (an empty list for others)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=serializers.CharField(max_length=USERNAME_MAX, allow_blank=False), **kwargs
        )

    def get_attribute(self, instance: Any) -> Any:
        request = self.context.get("request")
        if not tournament_organiser(user=getattr(request, "user", None), tournament=instance):
            return []
        return instance.co_organisers.all()

    def to_representation(self, data: Any) -> list[str]:
        return sorted(u.get_username() for u in data)


class UsableClubField(IdRelatedField):
    """A club by id among those the request's user may name, or the tournament's own;
    any other id is 'does not exist', as an id nobody uses."""

    def get_queryset(self) -> Any:
        request = self.context.get("request")
        parent = getattr(self, "parent", None)
        instance = getattr(parent, "instance", None)
        kept = getattr(instance, "club_id", None)
        return clubs_usable(user=getattr(request, "user", None), kept=kept)


class UsableSeasonField(IdRelatedField):
    """A season by id among those of the clubs the request's user organises, or the
    tournament's own; any other id is 'does not exist', as an id nobody uses."""

    def get_queryset(self) -> Any:
        request = self.context.get("request")
        parent = getattr(self, "parent", None)
        instance = getattr(parent, "instance", None)
        kept = getattr(instance, "season_id", None)
        return seasons_usable(user=getattr(request, "user", None), kept=kept)
