"""API routes for clubs, players, tournaments, rounds, matches and games, the
token login and the OpenAPI document (all under /api/v1/)."""

from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import SimpleRouter

from tournaments import converters  # noqa: F401  (registers the bounded <api_id:…>)

from . import views

router = SimpleRouter(use_regex_path=False)
router.register("clubs", views.ClubViewSet, basename="api-club")
router.register("players", views.PlayerViewSet, basename="api-player")
router.register("tournaments", views.TournamentViewSet, basename="api-tournament")
router.register("rounds", views.RoundViewSet, basename="api-round")
router.register("matches", views.MatchViewSet, basename="api-match")
router.register("games", views.GameViewSet, basename="api-game")

urlpatterns: list[URLPattern | URLResolver] = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("auth/token/", views.TokenObtainView.as_view(), name="api-token"),
    # Log in and out of the browsable API (a session, for trying the API in a browser).
    path("auth/", include("rest_framework.urls", namespace="rest_framework")),
    path(
        "tournaments/<api_id:tournament_id>/entries/",
        views.TournamentEntriesView.as_view(),
        name="api-tournament-entries",
    ),
    path(
        "tournaments/<api_id:tournament_id>/attendance/",
        views.TournamentAttendanceView.as_view(),
        name="api-tournament-attendance",
    ),
    path(
        "tournaments/<api_id:tournament_id>/rounds/",
        views.TournamentRoundsView.as_view(),
        name="api-tournament-rounds",
    ),
    path(
        "tournaments/<api_id:tournament_id>/standings/",
        views.StandingsView.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<api_id:tournament_id>/entries/<api_id:player_id>/",
        views.TournamentEntryView.as_view(),
        name="api-tournament-entry",
    ),
    path(
        "tournaments/<api_id:tournament_id>/adjustments/",
        views.TournamentAdjustmentsView.as_view(),
        name="api-tournament-adjustments",
    ),
    path(
        "tournaments/<api_id:tournament_id>/adjustments/<api_id:adjustment_id>/",
        views.TournamentAdjustmentView.as_view(),
        name="api-tournament-adjustment",
    ),
    path("matches/by-token/", views.MatchByTokenView.as_view(), name="api-match-by-token"),
    path(
        "matches/<api_id:match_id>/history/",
        views.MatchHistoryView.as_view(),
        name="api-match-history",
    ),
    path(
        "matches/<api_id:match_id>/games/",
        views.MatchGamesView.as_view(),
        name="api-match-games",
    ),
    *router.urls,
]
