"""Field types every API endpoint shares.

Vocabulary: a *JSON number* is how a score or a decimal setting leaves the
API: an integer when whole (``54``), a decimal when not (``33.33``), never a
string. An *engine choice* is a value the rules engine judges: the document
lists its choices, the engine's refusal says what is wrong.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


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


class DecimalNumberField(serializers.DecimalField):
    """A decimal setting read and written as a JSON number (an integer when whole)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(coerce_to_string=False, **kwargs)

    def to_representation(self, value: Any) -> int | float:  # type: ignore[override]
        return json_number(Decimal(value))


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
