"""Error bodies: how refusals look in answers and in the OpenAPI document.

Vocabulary: a *field-errors* body is DRF's usual 400 body, messages keyed by
the input field they concern (``{"racks": ["..."]}``; ``non_field_errors`` for
the request as a whole; ``detail`` alone when the body cannot be read at all,
a JSON parse error); 409, 412, 422 and 428 answer the same shape. A *detail*
body (``{"detail": "..."}``) answers 401, 403, 404, 405, 413 and 415, and
every error Django answers under ``/api/v1/`` (``apikit.middleware``). Every
404 says the one sentence ``NOT_FOUND``, translated, whatever raised it: it
names nothing, not even the kind of object asked for.

The answers themselves are made by the exception handler
(``config.exceptions``); this module declares them and turns a rules-engine
refusal met inside a serializer into a serializer error on the same field.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from scoring.errors import UserError

# What every API 404 says (translated where it is answered): a private
# tournament answers as one that does not exist, and no model is named.
NOT_FOUND = gettext_noop("Not found.")


def not_found_body() -> dict[str, str]:
    """The body of every API 404, in the request's language."""
    return {"detail": gettext(NOT_FOUND)}


class FieldErrorsSerializer(serializers.Serializer[Any]):
    """Only a schema: the body of a 400, 409, 412, 422 or 428 (see FieldErrorsSchema)."""


class DetailErrorSerializer(serializers.Serializer[Any]):
    """The body of a 401, 403, 404, 405, 413 or 415."""

    detail = serializers.CharField(help_text=_("What went wrong, for a person."))


class FieldErrorsSchema(OpenApiSerializerExtension):
    """DRF's field-keyed error body: its keys are the input's own field names.

    drf-spectacular registers an extension when its class is defined: importing
    this module (every view module that declares errors does) is the registration.
    """

    target_class = FieldErrorsSerializer

    def get_name(self, auto_schema: Any, direction: Any) -> str:
        return "FieldErrors"

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "description": (
                "Messages keyed by the input field they concern (`non_field_errors` for the "
                "request as a whole; `detail` alone when the body cannot be parsed). A list "
                "field's messages may be a list with one object "
                "per item (e.g. `racks`), a nested object's an object (e.g. `rules`)."
            ),
            # A body that is no JSON at all, or no form, has no field to name.
            "properties": {"detail": {"type": "string"}},
            "additionalProperties": {
                "oneOf": [
                    {"type": "array", "items": {"type": "string"}},
                    {"type": "array", "items": {"type": "object", "additionalProperties": {}}},
                    {"type": "object", "additionalProperties": {}},
                ]
            },
            "example": {
                "racks": ["Rack 2 (Ben): unknown tile “R14”: numbers run from 1 to 13."],
            },
        }


_ERROR_DESCRIPTIONS: dict[int, str] = {
    400: "Invalid input: every refusal names the field and says why.",
    401: "No credentials, or wrong ones.",
    403: "These credentials may not do this.",
    404: "No such object, or a private tournament you may not see.",
    409: "The request conflicts with the current state (e.g. all games of a match recorded).",
    412: "`If-Match` names a version that is no longer current: reload and try again.",
    422: "This `Idempotency-Key` was sent with another request: use a new key.",
    428: "This change needs an `If-Match` header with the object's `ETag`.",
}
_FIELD_ERROR_STATUSES = frozenset({400, 409, 412, 422, 428})


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    """Schema entries for the error statuses an operation can answer."""
    return {
        code: OpenApiResponse(
            response=FieldErrorsSerializer
            if code in _FIELD_ERROR_STATUSES
            else DetailErrorSerializer,
            description=_ERROR_DESCRIPTIONS[code],
        )
        for code in codes
    }


def rule_error_as_validation(error: UserError) -> serializers.ValidationError:
    """An engine refusal as a serializer error on the engine's field."""
    return serializers.ValidationError({error.field: [error.render(gettext)]}, code=error.code)
