"""The API's JSON parser.

Named in settings (``DEFAULT_PARSER_CLASSES``), so it must not import DRF's
views or any model: DRF reads the setting while defining ``APIView``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


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
