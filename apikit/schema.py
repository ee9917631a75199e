"""The OpenAPI schema class: the error answers every operation can give.

drf-spectacular describes success bodies from the serializers; this schema
class adds the error bodies (``errors.error_responses``) that follow from the
view itself, so no operation's 400/401/403/404 goes undocumented:

* 400 for a request body (POST, PUT, PATCH), for a list's filters and for
  its ``?page=`` and ``?page_size=``;
* 401 wherever credentials are read (a wrong token is refused everywhere);
* 403 for a change guarded by a permission;
* 404 for a path with an id, and for a page past the end of a list;
* for a change, the optional ``Idempotency-Key`` header and its 422 (the key
  sent before with another request), wherever the view runs DRF's throttle
  hook, which claims the key (every view but the anonymous token login).

Statuses that depend on the operation (409, 412, 428) are listed on the view.

A read anyone may make (every permission of the view lets an anonymous GET
through) declares its credentials optional: ``{}`` among its security
requirements, so a client knows it may call without any.

Text sent in a request states what DRF refuses in it: a NUL anywhere, and
(where text is required) text that is only spaces, once trimmed: a
``pattern`` (``TEXT_PATTERN`` / ``FILLED_TEXT_PATTERN``), unless the field
has its own.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from apikit.errors import error_responses
from apikit.serializer_fields import DecimalNumberField

_SAFE = {"GET", "HEAD", "OPTIONS"}

IDEMPOTENCY_KEY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 100},
    OpenApiParameter.HEADER,
    required=False,
    description=gettext_lazy(
        "Any string of up to 100 characters naming this request (a UUID, say). Sent again "
        "by the same caller within 24 hours, it answers the first response again (status, "
        "body, `Location`, `ETag`, plus `Idempotent-Replayed: true`) and writes nothing; "
        "sent with another request, 422. Retry a write after a dropped connection with "
        "the same key and it is made once."
    ),
)


# Every text field refuses a NUL. A required one (trimmed) needs a character
# that is no space: Python's spaces include \x1c-\x1f and \x85, which the
# regex dialect of JavaScript does not count, so they are named. Text that may
# be blank is declared as "some text, or empty" (drf-spectacular's oneOf with an
# empty string): its pattern must not match "" as well.
TEXT_PATTERN = r"^[^\x00]+$"
FILLED_TEXT_PATTERN = r"^[^\x00]*[^\s\x00\x1c-\x1f\x85][^\x00]*$"


class ErrorsAutoSchema(AutoSchema):
    def _map_serializer_field(
        self, field: Any, direction: Any, bypass_extensions: bool = False
    ) -> Any:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(field, DecimalNumberField) and field.decimal_places is not None:
            # A decimal setting read and written as a JSON number: its step.
            schema["multipleOf"] = float(Decimal(1).scaleb(-field.decimal_places))
        if (
            direction == "request"
            and isinstance(field, serializers.CharField)
            and not field.read_only
            and isinstance(schema, dict)
            and schema.get("type") == "string"
            and not {"pattern", "format", "enum"} & set(schema)
            and not any(isinstance(v, RegexValidator) for v in field.validators)
        ):
            filled = not field.allow_blank and field.trim_whitespace
            schema["pattern"] = FILLED_TEXT_PATTERN if filled else TEXT_PATTERN
        return schema

    def _keyed(self) -> bool:
        """A change whose view claims ``Idempotency-Key`` (through its throttle hook)."""
        return self.method not in _SAFE and bool(getattr(self.view, "throttle_classes", ()))

    def get_override_parameters(self) -> list[Any]:
        parameters: list[Any] = list(super().get_override_parameters())
        if self._keyed():
            parameters.append(IDEMPOTENCY_KEY_HEADER)
        return parameters

    def _get_paginator(self) -> Any:
        # A change answers what it changed, all of it: only reads are paged.
        return super()._get_paginator() if self.method == "GET" else None

    def _anyone_reads(self) -> bool:
        """Whether an anonymous request of this method passes every permission."""
        if self.method not in _SAFE:
            return False
        anonymous = Request(APIRequestFactory().generic(self.method, self.path))
        try:
            return all(p.has_permission(anonymous, self.view) for p in self.view.get_permissions())
        except Exception:  # a permission that needs more than a bare request is not "anyone"
            return False

    def get_auth(self) -> list[Any]:
        auths: list[Any] = list(super().get_auth())
        if auths and {} not in auths and self._anyone_reads():
            auths.append({})
        return auths

    def _error_codes(self) -> list[int]:
        view = self.view
        codes = []
        changes = self.method not in _SAFE
        paged = self._is_list_view() and self._get_paginator() is not None
        if changes or paged or getattr(view, "filterset_class", None) is not None:
            codes.append(400)
        if getattr(view, "authentication_classes", None):
            codes.append(401)
        guarded = any(p is not AllowAny for p in getattr(view, "permission_classes", []))
        if changes and guarded:
            codes.append(403)
        if "{" in self.path or paged:
            codes.append(404)
        if self._keyed():
            codes.append(422)
        return codes

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for code, response in error_responses(*self._error_codes()).items():
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(response, str(code))
        return responses
