"""Model fields for rule settings that the engine must accept.

A *rule setting* stored as JSON (table points, tie-breaks) is checked on every
write, whatever the path (a service, the admin, the API, a shell), so that no
tournament can hold a rule set that the rules engine or the standings refuse.
The check is the engine's own, and its message is the one users see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext

from scoring import rules
from scoring.errors import UserError, _
from scoring.tie_breaks import TIE_BREAKS_DEFAULT, tie_breaks_check


def table_points_default() -> dict[str, list[int]]:
    return {str(size): list(points) for size, points in rules.DEFAULT_TABLE_POINTS.items()}


def tie_breaks_default() -> list[str]:
    return list(TIE_BREAKS_DEFAULT)


def table_points_rules(value: Any) -> dict[int, tuple[int, ...]]:
    """Stored table points (``{"4": [4, 3, 1, 0], ...}``) as the engine's vectors, checked."""
    if not isinstance(value, Mapping):
        raise rules.RuleError(
            _("Table points must map a table size to the points of its places."),
            field="table_points",
        )
    # JSON keys are text; the engine judges sizes and names a key such as "7".
    sized = {int(k) if str(k).isdigit() and len(str(k)) < 3 else k: v for k, v in value.items()}
    return dict(rules.Rules(table_points=sized).table_points)


class _CheckedJSONField(models.JSONField):
    def check_value(self, value: Any) -> None:
        raise NotImplementedError

    def validate(self, value: Any, model_instance: Any) -> None:
        super().validate(value, model_instance)
        try:
            self.check_value(value)
        except UserError as error:
            raise ValidationError(error.render(gettext), code=error.code) from error

    def get_prep_value(self, value: Any) -> Any:
        # The last line of defence: a write that skipped validation still fails here.
        if value is not None:
            self.check_value(value)
        return super().get_prep_value(value)


class TablePointsField(_CheckedJSONField):
    """Points per place for tables of 2, 3 and 4 players, first place first."""

    def check_value(self, value: Any) -> None:
        table_points_rules(value)


class TieBreaksField(_CheckedJSONField):
    """The tie-breaks in order: a list of known names, none twice."""

    def check_value(self, value: Any) -> None:
        tie_breaks_check(names=value)
