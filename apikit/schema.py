"""The OpenAPI schema class: the error answers every operation can give.

Vocabulary: an *error answer* is a status the view itself implies, with its
body (``errors.error_responses``); a *text pattern* is what DRF refuses in
text sent in a request, said as a JSON Schema ``pattern``; a *change* is any
method but GET, HEAD and OPTIONS.

drf-spectacular describes success bodies from the serializers; this schema
class adds the error answers that follow from the view itself, so no
operation's 400/401/403/404 goes undocumented:

* 400 for a request body (POST, PUT, PATCH), for a list's filters and for
  its ``?page=`` and ``?page_size=``;
* 401 wherever credentials are read (a wrong token is refused everywhere);
* 403 for a change guarded by a permission;
* 404 for a path with an id, and for a page past the end of a list;
* for a change, the optional ``Idempotency-Key`` header and its 422 (the key
  sent before with another request), wherever the view can replay a kept
  answer (it has ``replay_check``: the idempotent writes' views, so every
  change but the anonymous token login and calculator).

Statuses that depend on the operation (409, 412, 428) are listed on the view,
and so is any status whose answer needs more than its body and description
(a header, an example): a status the view declares is kept as declared.
A change answers what it changed, all of it: only reads are paged.

A read anyone may make (every permission of the view lets an anonymous GET
through) declares its credentials optional: ``{}`` among its security
requirements, so a client knows it may call without any.

Text sent in a request states what DRF refuses in it: a NUL anywhere, and
(where text is required) text that is only spaces, once trimmed: a
``pattern`` (``TEXT_PATTERN`` / ``FILLED_TEXT_PATTERN``), unless the field
has its own. A ``DecimalNumberField`` with decimal places states its step
(``multipleOf``).

The document is OpenAPI 3.1 and written for client generators
(openapi-python-client, openapi-typescript) and strict validators alike:

* a request body is JSON alone where the view reads JSON (``map_parsers``):
  the browsable API keeps its forms, but a generator offered one body as
  JSON, form and multipart sends multipart, which cannot carry nested lists;
* a value that may be null says so in JSON Schema's words, ``type: [..,
  "null"]`` or ``oneOf`` with ``{"type": "null"}`` (drf-spectacular does so
  under ``OAS_VERSION`` 3.1; ``nullable_as_json_schema``, a post-processing
  hook, rewrites what reaches it whole in 3.0's ``nullable``, as DRF's
  paginator's ``next`` and ``previous``).

All of it goes through drf-spectacular's public hooks: the schema class's
``get_operation``, ``get_override_parameters``, ``map_parsers`` and
``get_auth``, the ``POSTPROCESSING_HOOKS`` and ``GET_LIB_DOC_EXCLUDES`` settings
(``lib_doc_excludes``: a mixin's docstring describes no schema), and field
extensions (``OpenApiSerializerFieldExtension``), which drf-spectacular
registers when their class is defined, that is when DRF loads this module as
``DEFAULT_SCHEMA_CLASS``. An extension matches one field class exactly: a new
subclass of ``CharField`` gets its text pattern from an extension of its own
(as ``StrictCharField`` does).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any, cast

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import (
    ComponentRegistry,
    append_meta,
    build_media_type_object,
    get_lib_doc_excludes,
    modify_media_types_for_versioning,
)
from drf_spectacular.utils import Direction, OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from apikit.errors import error_responses
from apikit.serializer_fields import DecimalNumberField, StrictCharField, StrictTextMixin

_SAFE = {"GET", "HEAD", "OPTIONS"}
JSON_MEDIA_TYPE = "application/json"

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


class TextSchema(OpenApiSerializerFieldExtension):
    """DRF's text field: a string and, in a request, the pattern of what DRF refuses.

    A field with a regex of its own (a ``RegexValidator``) keeps its own pattern.
    """

    target_class = serializers.CharField

    def map_serializer_field(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        field: serializers.CharField = self.target
        schema: dict[str, Any] = {"type": "string"}
        if (
            direction == "request"
            and not field.read_only
            and not any(isinstance(v, RegexValidator) for v in field.validators)
        ):
            filled = not field.allow_blank and field.trim_whitespace
            schema["pattern"] = FILLED_TEXT_PATTERN if filled else TEXT_PATTERN
        return schema


class StrictTextSchema(TextSchema):
    """``StrictCharField``: documented as DRF's text field (an extension matches one class)."""

    target_class = StrictCharField


class DecimalNumberSchema(OpenApiSerializerFieldExtension):
    """``DecimalNumberField``: a JSON number, its bounds and, with decimal places, its step.

    The bounds are drf-spectacular's for a decimal that is no string: the whole
    digits' open interval (OpenAPI 3.1's numeric ``exclusiveMaximum`` and
    ``exclusiveMinimum``), narrowed by ``min_value`` and ``max_value``.
    """

    target_class = DecimalNumberField

    def map_serializer_field(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        field: DecimalNumberField = self.target
        schema: dict[str, Any] = {"type": "number", "format": "double"}
        if field.max_whole_digits is not None:
            bound = 10**field.max_whole_digits
            schema.update(exclusiveMaximum=bound, exclusiveMinimum=-bound)
        if field.max_value is not None:
            schema["maximum"] = field.max_value
            schema.pop("exclusiveMaximum", None)
        if field.min_value is not None:
            schema["minimum"] = field.min_value
            schema.pop("exclusiveMinimum", None)
        if field.decimal_places is not None:
            schema["multipleOf"] = float(Decimal(1).scaleb(-field.decimal_places))
        return schema


def lib_doc_excludes() -> list[Any]:
    """drf-spectacular's ``GET_LIB_DOC_EXCLUDES``: the classes whose docstrings never
    describe a schema, its own list plus the project's serializer mixins (which say
    how a serializer is made, not what a client sends or reads)."""
    library_excludes = cast("Callable[[], list[Any]]", get_lib_doc_excludes)  # untyped
    return [*library_excludes(), StrictTextMixin]


def nullable_as_json_schema(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular's post-processing hook: OpenAPI 3.0's ``nullable`` said in 3.1's words.

    drf-spectacular writes its own schemas the 3.1 way; a schema handed to it
    whole (DRF's paginator's ``next`` and ``previous``) still says
    ``nullable: true``, which 3.1 no longer knows. Each becomes drf-spectacular's
    own 3.1 form (``append_meta``): ``type: [..., "null"]``, or a ``oneOf`` with
    ``{"type": "null"}``. A value with a ``format`` or null (a date, a link) is
    said as ``oneOf: [{type, format}, {type: "null"}]``: the same values, but
    schemathesis drops a format that stands beside a list of types and then
    sends an empty date as valid. A 3.0 document is returned as it is.
    """
    if not str(result.get("openapi", "")).startswith("3.1"):
        return result
    converted: dict[str, Any] = _without_nullable(result)
    return converted


def _without_nullable(node: Any) -> Any:
    if isinstance(node, list):
        return [_without_nullable(item) for item in node]
    if not isinstance(node, dict):
        return node
    walked: dict[str, Any] = {key: _without_nullable(value) for key, value in node.items()}
    nullable = walked.get("nullable")
    if isinstance(nullable, bool):  # "nullable" as a property's name holds a schema
        del walked["nullable"]
        if nullable:
            walked = append_meta(walked, {"nullable": True})
    kinds = walked.get("type")
    if isinstance(kinds, list) and len(kinds) == 2 and "null" in kinds and "format" in walked:
        # A formatted value or null: the format stays with its type.
        kind = next(k for k in kinds if k != "null")
        walked["oneOf"] = [{"type": kind, "format": walked.pop("format")}, {"type": "null"}]
        del walked["type"]
    return walked


class ErrorsAutoSchema(AutoSchema):
    """drf-spectacular's schema class, with the error answers, the idempotency key
    and optional credentials where the view implies them."""

    def get_operation(
        self,
        path: str,
        path_regex: str,
        path_prefix: str,
        method: str,
        registry: ComponentRegistry,
    ) -> dict[str, Any] | None:
        if method.upper() != "GET" and isinstance(self.view, GenericAPIView):
            # A change answers what it changed, all of it: only reads are paged. The
            # generator builds a view for each operation: this one is the change's own.
            self.view.pagination_class = None
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is not None:
            responses = operation["responses"]
            for code, response in error_responses(*self._error_codes(operation)).items():
                responses.setdefault(str(code), self._error_response(response))
        return operation

    def map_parsers(self) -> list[Any]:
        """The request bodies' media types: JSON alone where the view reads JSON.

        The browsable API keeps its forms (the parsers stay), but a client
        generator offered one body as JSON, form and multipart picks one of the
        latter, and nested lists cannot be sent as a form: the document shows JSON.
        """
        media_types: list[Any] = super().map_parsers()
        return [JSON_MEDIA_TYPE] if JSON_MEDIA_TYPE in media_types else media_types

    def _keyed(self) -> bool:
        """A change whose view claims ``Idempotency-Key``: the view can replay a kept
        answer (its ``replay_check``, the idempotent writes' hook before a replay)."""
        return self.method not in _SAFE and callable(getattr(self.view, "replay_check", None))

    def get_override_parameters(self) -> list[Any]:
        parameters: list[Any] = list(super().get_override_parameters())
        if self._keyed():
            parameters.append(IDEMPOTENCY_KEY_HEADER)
        return parameters

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

    def _paged(self, operation: dict[str, Any]) -> bool:
        """A read answered in pages: its parameters are its paginator's."""
        paginator = getattr(self.view, "paginator", None)
        if paginator is None:
            return False
        names = {p["name"] for p in paginator.get_schema_operation_parameters(self.view)}
        return any(
            p.get("in") == "query" and p.get("name") in names
            for p in operation.get("parameters", ())
        )

    def _error_codes(self, operation: dict[str, Any]) -> list[int]:
        view = self.view
        codes = []
        changes = self.method not in _SAFE
        paged = self._paged(operation)
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

    def _error_response(self, response: OpenApiResponse) -> dict[str, Any]:
        """An error status's answer: its description and its body, in each media type."""
        body = self.resolve_serializer(response.response, "response").ref
        media_types = modify_media_types_for_versioning(self.view, self.map_renderers("media_type"))
        return {
            "content": {media_type: build_media_type_object(body) for media_type in media_types},
            "description": response.description,
        }
