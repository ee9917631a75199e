"""The API's default classes, named by dotted path in ``REST_FRAMEWORK``.

Vocabulary:

* *credentials*: DRF's ``Authorization: Token <key>``, turning away keys that
  cannot be keys;
* *JSON parsing*: DRF's JSON parser with a 400 for absurdly nested
  documents; ``json_parsers()`` is that parser alone, for views whose bodies
  are nested lists (forms cannot send them);
* *pages*: every list answers ``{"count", "next", "previous", "results"}``;
  ``?page=N`` (1 to 1,000,000) picks a page, ``?page_size=N`` (1 to 500) its
  length, 50 by default; anything else is a 400 naming the parameter, and a
  page past the end a 404;
* *stable ordering*: ``?ordering=`` always ends on ``id``, so that pages never
  repeat or skip a row when the chosen ordering has ties;
* *search*: DRF's ``?search=``, its refusal (a NUL character) named by the
  parameter like every other 400; ``NO_NUL`` is the pattern the document
  declares for text that may not hold one.

DRF reads these settings while defining ``APIView`` and its generic views, so
this module must import neither DRF's views nor any model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import parsers
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed, ParseError, ValidationError
from rest_framework.filters import OrderingFilter, SearchFilter
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.settings import api_settings

# ----------------------------------------------------------------------------- credentials


class KeyTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, turning away keys that cannot be
    keys (PostgreSQL refuses a NUL byte in a query with an error, not a miss)."""

    def authenticate_credentials(self, key: str) -> Any:
        if not (key.isascii() and key.isalnum() and len(key) <= 40):
            raise AuthenticationFailed(_("Invalid token."))
        return super().authenticate_credentials(key)


# ----------------------------------------------------------------------------- JSON parsing


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, plus a 400 for absurdly nested documents.

    ``json`` raises ``RecursionError`` (not a ``ValueError``) for a body like
    ``[[[[...]]]]`` thousands deep; DRF would let that through as a 500.
    """

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(_("JSON parse error - the document is nested too deeply.")) from exc


def json_parsers() -> list[Any]:
    """The configured parsers for JSON alone: bodies with nested lists are JSON."""
    configured: Sequence[Any] = api_settings.DEFAULT_PARSER_CLASSES
    return [p for p in configured if p.media_type == "application/json"]


# ----------------------------------------------------------------------------- pages


class Pages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
    max_page = 1_000_000

    def _bounded(self, request: Request, name: str, maximum: int) -> int | None:
        """The query parameter ``name`` as a whole number from 1 to ``maximum``;
        ``None`` when it is not sent. DRF would fall back to a default (or a 404)
        and hide the caller's mistake."""
        raw = request.query_params.get(name)
        if raw is None:
            return None
        if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= maximum):
            raise ValidationError(
                {name: [_("Send a whole number from 1 to %(max)s.") % {"max": maximum}]}
            )
        return int(raw)

    def get_page_size(self, request: Request) -> int:
        return self._bounded(request, self.page_size_query_param, self.max_page_size) or (
            self.page_size
        )

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        self._bounded(request, self.page_query_param, self.max_page)
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        bounds = {
            self.page_query_param: (self.max_page, None),
            self.page_size_query_param: (self.max_page_size, self.page_size),
        }
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] in bounds:
                maximum, default = bounds[parameter["name"]]
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": maximum}
                if default is not None:
                    parameter["schema"]["default"] = default
        return parameters


# ----------------------------------------------------------------------------- search

NO_NUL = r"^[^\x00]*$"


class NamedSearchFilter(SearchFilter):
    """DRF's ``?search=``, refusing a NUL character as ``{"search": [...]}``."""

    def get_search_terms(self, request: Request) -> list[str]:
        try:
            return list(super().get_search_terms(request))
        except ValidationError as error:
            raise ValidationError({self.search_param: error.detail}) from error

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"] = {"type": "string", "pattern": NO_NUL}
        return parameters


# ----------------------------------------------------------------------------- ordering


class StableOrderingFilter(OrderingFilter):
    """DRF's ``?ordering=``, always ending on ``id``."""

    def get_ordering(self, request: Request, queryset: QuerySet[Any], view: Any) -> Any:
        ordering = super().get_ordering(request, queryset, view)
        if not ordering:
            return ordering
        ordering = list(ordering)
        if not any(field.lstrip("-") in {"id", "pk"} for field in ordering):
            ordering.append("id")
        return ordering

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        fields = [f if isinstance(f, str) else f[0] for f in getattr(view, "ordering_fields", [])]
        default = ",".join(getattr(view, "ordering", None) or ["id"])
        return [
            {
                "name": self.ordering_param,
                "required": False,
                "in": "query",
                "description": (
                    f"Order by one or more of {', '.join(fields)}, comma-separated; a leading "
                    f"`-` sorts descending. Default `{default}`; ties always end on `id`."
                ),
                "schema": {"type": "string"},
            }
        ]
