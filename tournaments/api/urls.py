"""API routes for clubs, players, tournaments, rounds, matches and games, the
token login and the OpenAPI document (all under /api/v1/)."""

from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from tournaments import converters  # noqa: F401  (registers the bounded <api_id:…>)
from tournaments.api import (
    adjustments,
    audit,
    auth,
    backups,
    clubs,
    confirm,
    entries,
    games,
    invitations,
    matches,
    people,
    player_stats,
    ratings,
    rounds,
    seasons,
    standings,
    tournaments,
)

router = SimpleRouter(use_regex_path=False)
router.register("clubs", clubs.ClubViewSet, basename="api-club")
router.register("players", people.PlayerViewSet, basename="api-player")
router.register("tournaments", tournaments.TournamentViewSet, basename="api-tournament")
router.register("rounds", rounds.RoundViewSet, basename="api-round")
router.register("matches", matches.MatchViewSet, basename="api-match")
router.register("games", games.GameViewSet, basename="api-game")
router.register("invitations", invitations.InvitationViewSet, basename="api-invitation")
router.register("club-invitations", clubs.ClubInvitationViewSet, basename="api-club-invitation")

urlpatterns: list[URLPattern | URLResolver] = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Split: Swagger UI's start-up script is a file of its own (config.security_headers).
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("auth/token/", auth.TokenObtainView.as_view(), name="api-token"),
    # Log in and out of the browsable API (a session, for trying the API in a browser).
    path("auth/", include("rest_framework.urls", namespace="rest_framework")),
    # Before the router's tournaments/<pk>/.
    path(
        "tournaments/import/", backups.TournamentImportView.as_view(), name="api-tournament-import"
    ),
    path(
        "tournaments/imports/<api_id:job_id>/",
        backups.RestoreJobView.as_view(),
        name="api-tournament-import-job",
    ),
    path(
        "tournaments/<api_id:tournament_id>/export/",
        backups.TournamentExportView.as_view(),
        name="api-tournament-export",
    ),
    path(
        "tournaments/<api_id:tournament_id>/entries/",
        entries.TournamentEntriesView.as_view(),
        name="api-tournament-entries",
    ),
    path(
        "tournaments/<api_id:tournament_id>/attendance/",
        entries.TournamentAttendanceView.as_view(),
        name="api-tournament-attendance",
    ),
    path(
        "tournaments/<api_id:tournament_id>/rounds/",
        rounds.TournamentRoundsView.as_view(),
        name="api-tournament-rounds",
    ),
    path(
        "tournaments/<api_id:tournament_id>/standings/",
        standings.StandingsView.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<api_id:tournament_id>/entries/<api_id:player_id>/",
        entries.TournamentEntryView.as_view(),
        name="api-tournament-entry",
    ),
    path(
        "tournaments/<api_id:tournament_id>/adjustments/",
        adjustments.TournamentAdjustmentsView.as_view(),
        name="api-tournament-adjustments",
    ),
    path(
        "tournaments/<api_id:tournament_id>/adjustments/<api_id:adjustment_id>/",
        adjustments.TournamentAdjustmentView.as_view(),
        name="api-tournament-adjustment",
    ),
    path(
        "tournaments/<api_id:tournament_id>/audit/",
        audit.TournamentAuditView.as_view(),
        name="api-tournament-audit",
    ),
    path(
        "tournaments/<api_id:tournament_id>/invitations/<str:username>/",
        invitations.TournamentInvitationView.as_view(),
        name="api-tournament-invitation",
    ),
    path(
        "tournaments/<api_id:tournament_id>/co-organisers/<str:username>/",
        invitations.TournamentCoOrganiserView.as_view(),
        name="api-tournament-co-organiser",
    ),
    path(
        "clubs/<api_id:club_id>/members/",
        clubs.ClubMembersView.as_view(),
        name="api-club-members",
    ),
    path(
        "clubs/<api_id:club_id>/members/<api_id:player_id>/",
        clubs.ClubMemberView.as_view(),
        name="api-club-member",
    ),
    path(
        "clubs/<api_id:club_id>/invitations/",
        clubs.ClubInvitationsView.as_view(),
        name="api-club-invitations",
    ),
    path(
        "clubs/<api_id:club_id>/invitations/<str:username>/",
        clubs.ClubInvitationView.as_view(),
        name="api-club-invitation",
    ),
    path(
        "clubs/<api_id:club_id>/co-organisers/<str:username>/",
        clubs.ClubCoOrganiserView.as_view(),
        name="api-club-co-organiser",
    ),
    path(
        "games/<api_id:game_id>/confirm/",
        confirm.GameConfirmView.as_view(),
        name="api-game-confirm",
    ),
    path(
        "games/<api_id:game_id>/restore/",
        confirm.GameRestoreView.as_view(),
        name="api-game-restore",
    ),
    path("ratings/", ratings.RatingListView.as_view(), name="api-ratings"),
    path(
        "players/<api_id:player_id>/ratings/",
        ratings.PlayerRatingsView.as_view(),
        name="api-player-ratings",
    ),
    path(
        "players/<api_id:player_id>/stats/",
        player_stats.PlayerStatsView.as_view(),
        name="api-player-stats",
    ),
    path(
        "clubs/<api_id:club_id>/seasons/",
        seasons.ClubSeasonsView.as_view(),
        name="api-club-seasons",
    ),
    path("seasons/<api_id:pk>/", seasons.SeasonDetailView.as_view(), name="api-season"),
    path(
        "seasons/<api_id:pk>/standings/",
        seasons.SeasonStandingsView.as_view(),
        name="api-season-standings",
    ),
    path("matches/by-token/", matches.MatchByTokenView.as_view(), name="api-match-by-token"),
    path(
        "matches/<api_id:match_id>/history/",
        matches.MatchHistoryView.as_view(),
        name="api-match-history",
    ),
    path(
        "matches/<api_id:match_id>/games/",
        games.MatchGamesView.as_view(),
        name="api-match-games",
    ),
    *router.urls,
]
