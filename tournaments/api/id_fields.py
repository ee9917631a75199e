"""Ids in request bodies and queries.

Vocabulary: an *id* is an object's primary key, an integer from 1 to
``ID_MAX`` (the largest a database integer holds); a larger number is no id
(a 400 or "does not exist"), never a database overflow.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

ID_MAX = 2**63 - 1


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, **kwargs)


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": ID_MAX})
class IdRelatedField(serializers.PrimaryKeyRelatedField[models.Model]):
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
        # The stubs take the data for the model; DRF reads it as its primary key.
        return super().to_internal_value(number)  # type: ignore[arg-type]
