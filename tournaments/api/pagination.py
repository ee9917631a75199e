"""Pagination of every list: ``{"count", "next", "previous", "results"}``.

``?page=N`` picks a page, ``?page_size=N`` (up to 500) its length; the default
is 50.
"""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
