"""URL converters shared by the web pages and the API.

An *id* in a URL is a run of at most 18 digits: any number a database
integer column holds. Longer digit strings match no URL (404) instead of
overflowing the database driver (a 500).
"""

from __future__ import annotations

from django.urls import register_converter

ID_PATTERN = r"[0-9]{1,18}"


class IdConverter:
    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


# "api_id" is the same converter under the name the API's schema settings
# document (SPECTACULAR_SETTINGS' PATH_CONVERTER_OVERRIDES).
register_converter(IdConverter, "id")
register_converter(IdConverter, "api_id")
