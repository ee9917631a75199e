"""API routes for clubs, players, tournaments, rounds, matches, games."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
