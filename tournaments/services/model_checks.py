"""The model's own checks (lengths, choices, number bounds) as user errors.

Services judge what they can say better themselves first; whatever is left
to the model's ``full_clean`` comes back here as a ``UserError`` on the first
field it names, in the words Django gives it. Integer fields are held to the
sizes PostgreSQL stores, which SQLite does not enforce, so that a value is
refused the same way on either database.
"""

from __future__ import annotations

from collections.abc import Collection

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models

from scoring.errors import NON_FIELD, UserError, _

_INTEGER_MAX = {"PositiveSmallIntegerField": 32767, "PositiveIntegerField": 2147483647}


def model_checked(instance: models.Model, *, exclude: Collection[str] = ()) -> None:
    """Run the model's checks (but on the fields ``exclude`` names); the first
    problem found as a ``UserError``."""
    for field in instance._meta.concrete_fields:
        largest = _INTEGER_MAX.get(field.get_internal_type())
        value = getattr(instance, field.attname)
        if largest is not None and isinstance(value, int) and value > largest:
            raise UserError(
                _("%(value)s is too large: give a whole number from 0 to %(max)s."),
                field=field.name,
                value=value,
                max=largest,
            )
    try:
        instance.full_clean(exclude=list(exclude) or None)
    except ValidationError as error:
        name, messages = next(iter(error.message_dict.items()))
        # Django's message is already in the active language; carry it as it is.
        raise UserError(
            "%(message)s",
            field=NON_FIELD if name == NON_FIELD_ERRORS else name,
            message=messages[0],
        ) from error
