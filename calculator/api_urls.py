"""API routes of the stateless calculator."""

from django.urls import URLPattern, URLResolver, path

from calculator.api import ScoreCalculatorView

urlpatterns: list[URLPattern | URLResolver] = [
    path("score/", ScoreCalculatorView.as_view(), name="api-score"),
]
