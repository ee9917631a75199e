"""Routes of the printable files (score sheets, standings, reports)."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
