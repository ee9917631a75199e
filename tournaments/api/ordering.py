"""Stable ordering: ``?ordering=`` always ends on ``id``, so that pages never
repeat or skip a row when the chosen ordering has ties.

Named in settings (``DEFAULT_FILTER_BACKENDS``), so it must not import DRF's
views or any model: DRF reads the setting while defining its generic views.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.filters import OrderingFilter
from rest_framework.request import Request


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
