"""Field types every API endpoint shares.

Vocabulary: a *JSON number* is how a score or a decimal setting leaves the
API: an integer when whole (``54``), a decimal when not (``33.33``), never a
string. An *engine choice* is a value the rules engine judges: the document
lists its choices, the engine's refusal says what is wrong. An *engine
integer* is the same for a number: the document shows the engine's bounds
(``minimum``, ``maximum``), the engine refuses a number outside them. The
*racks* of a game are a list of 2 to 4, counted by the engine's own check.
A *text* field takes a JSON string and nothing else (``StrictCharField``;
``StrictTextMixin`` gives a model serializer's text columns the same, and its
dates the *calendar date*: ``CalendarDateField`` says that ``2026-02-30``,
well written, is no day of the calendar, where DRF calls it the wrong format).
A *light* serializer (``LightFieldsMixin``) builds its fields afresh rather
than deep-copying them.
"""

from __future__ import annotations

import copy
import datetime as dt
import math
import re
from decimal import Decimal
from typing import Any

from django.core.validators import (
    MaxLengthValidator,
    MaxValueValidator,
    MinLengthValidator,
    MinValueValidator,
)
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import rules
from scoring.errors import RuleError

# A date as the API writes it: how it looks, whether or not the calendar has that day.
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class LightFieldsMixin(serializers.Serializer[Any]):
    """A serializer whose plain fields are shallow copies of its class's fields
    instead of deep copies, as DRF makes them: deep-copying choices and translated
    help texts was most of the time a recorded game took to answer and to read.
    DRF's own deep copy (``get_fields``) is made once per class; a field never
    changes what it was built with, and binding it sets attributes of the copy
    only. A field holding another field or serializer (a nested serializer, a
    list's child, a many-relation) is still deep-copied for each instance."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        declared = _DECLARED.get(type(self))
        if declared is None:
            declared = _DECLARED[type(self)] = super().get_fields()
        return {
            name: copy.deepcopy(f) if isinstance(f, _HOLDING_FIELDS) else copy.copy(f)
            for name, f in declared.items()
        }


# Each light serializer class's fields as DRF first built them.
_DECLARED: dict[type[serializers.Serializer[Any]], dict[str, Any]] = {}
# DRF's fields that hold another field (``child``, ``child_relation``).
_HOLDING_FIELDS = (
    serializers.BaseSerializer,
    serializers.ListField,
    serializers.DictField,
    serializers.ManyRelatedField,
)


def json_number(value: Decimal | int) -> int | float:
    """A score as a JSON number: ``54``, not ``"54.00"``; ``33.33`` when fractional."""
    if isinstance(value, int):
        return value
    if value == value.to_integral_value():
        return int(value)
    return float(value)


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field[Any, Any, Any, Any]):
    """A read-only decimal shown as a JSON number (integer when whole)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: Decimal | int) -> int | float:
        return json_number(value)


class DecimalNumberField(serializers.DecimalField):
    """A decimal setting read and written as a JSON number (an integer when whole).

    With ``decimal_places``, the document says ``multipleOf`` (0.01 for 2), and a
    JSON number a client computed as ``7 * 0.01`` (``0.07000000000000001``) is
    read as the ``0.07`` it stands for; one truly finer is still refused.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(coerce_to_string=False, **kwargs)

    def to_internal_value(self, data: Any) -> Decimal:
        places = self.decimal_places
        if isinstance(data, float) and places is not None and math.isfinite(data):
            nearest = round(data, places)
            # Binary floats miss most decimals by an ulp or two: far less than this.
            if math.isclose(data, nearest, rel_tol=1e-13):
                data = repr(nearest)
        return Decimal(super().to_internal_value(data))

    # A JSON number where DRF's DecimalField answers text or a Decimal: the point of it.
    def to_representation(self, value: Any) -> int | float:  # type: ignore[override]
        return json_number(Decimal(value))


class StrictCharField(serializers.CharField):
    """Text that is a JSON string: DRF's CharField would store ``0`` as ``"0"``.

    The document says ``type: string``; a number or a boolean in its place is a
    mistake of the client's, refused rather than guessed at. Its ``maxLength``
    is the text as sent: a longer one is refused before blanks are trimmed (or
    a name's inner runs of blanks collapsed), never shortened into the limit.
    """

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return str(super().to_internal_value(data))


class CalendarDateField(serializers.DateField):
    """A date, ``YYYY-MM-DD``; one written so that is not a day of the calendar
    (``2026-02-30``) is refused as such, not as a date of the wrong format."""

    # The same words as the web forms' dates (``tournaments.web.settings_forms``).
    default_error_messages = {
        "invalid": _("Enter the date as YYYY-MM-DD."),
        "not_in_calendar": _("“{value}” is not a date in the calendar."),
    }

    def to_internal_value(self, value: Any) -> dt.date:
        text = value.strip() if isinstance(value, str) else ""
        if ISO_DATE.fullmatch(text):
            try:
                return dt.date.fromisoformat(text)
            except ValueError:
                self.fail("not_in_calendar", value=text)
        return super().to_internal_value(value)


class StrictTextMixin:
    """For a ModelSerializer: its text columns become ``StrictCharField``s, its
    dates ``CalendarDateField``s."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.DateField: CalendarDateField,
    }


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


class EngineIntegerField(serializers.IntegerField):
    """An integer documented with the engine's bounds and judged by the engine.

    ``min_value`` and ``max_value`` go to the OpenAPI document only: DRF's own
    "less than or equal to" would replace the engine's message, which says what
    the number means (a rack's points, a joker penalty) and is the same on every
    path. Any integer passes here; the engine refuses one out of range before
    anything is stored.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, MinValueValidator | MaxValueValidator)
        ]


_RACKS_READ_MAX = 50


class RacksField(serializers.ListField):
    """A game's racks, one per player: 2 to 4, counted with the engine's message."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=rules.PLAYERS_MIN, max_length=rules.PLAYERS_MAX, **kwargs)

    def run_validators(self, value: Any) -> None:
        # The length validators give the document its minItems and maxItems; the count
        # is the engine's to judge (after the ending), so only the others run.
        every = self.validators
        self.validators = [
            v for v in every if not isinstance(v, MinLengthValidator | MaxLengthValidator)
        ]
        try:
            super().run_validators(value)
        finally:
            self.validators = every

    def to_internal_value(self, data: Any) -> list[Any]:
        # The engine counts the racks after the ending, to name the first problem; a list
        # far too long is refused before its racks are read, so that it costs nothing.
        if isinstance(data, list) and len(data) > _RACKS_READ_MAX:
            try:
                rules.racks_count_check(len(data))
            except RuleError as error:
                raise serializers.ValidationError(
                    [error.render(gettext)], code=error.code
                ) from error
        return super().to_internal_value(data)
