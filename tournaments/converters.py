"""URL converters shared by the web pages and the API.

An *id* in a URL is a whole number up to ``ID_MAX``, the largest a database
bigint column holds (the API's document declares that range). Anything
larger matches no URL (404) instead of overflowing the database driver (a
500).
"""

from __future__ import annotations

from django.urls import register_converter

ID_PATTERN = r"[0-9]{1,19}"
ID_MAX = 2**63 - 1


class IdConverter:
    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > ID_MAX:
            raise ValueError(value)  # Django's "no match": a 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


# "api_id" is the same converter under the name the API's schema settings
# document (SPECTACULAR_SETTINGS' PATH_CONVERTER_OVERRIDES).
register_converter(IdConverter, "id")
register_converter(IdConverter, "api_id")
