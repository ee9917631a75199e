"""Routes of the web pages (namespace ``web``), served at the root inside
``i18n_patterns``: ``/t/<slug>/`` in English, ``/de/t/<slug>/`` in German."""

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, path

from calculator import web as calculator_web
from tournaments import converters  # noqa: F401  (registers <id:…>)
from tournaments.web import (
    accounts,
    club_members,
    clubs,
    desk_audit,
    desk_backup,
    desk_players,
    desk_results,
    desk_trust,
    evening_checkin,
    hall_pages,
    invitations,
    match,
    offline,
    organise,
    player,
    public,
    ratings,
    seasons,
    timer,
    tournament_settings,
)

app_name = "web"
urlpatterns: list[URLPattern] = [
    path("", public.home, name="home"),
    path("calculator/", calculator_web.calculator, name="calculator"),
    path("timer/", timer.timer, name="timer"),
    path("p/<id:player_id>/", player.player_detail, name="player"),
    path("invitations/", invitations.invitations, name="invitations"),
    path(
        "invitations/<id:invitation_id>/accept/",
        invitations.invitation_accept,
        name="invitation-accept",
    ),
    path(
        "invitations/<id:invitation_id>/decline/",
        invitations.invitation_decline,
        name="invitation-decline",
    ),
    path("ratings/", ratings.ratings_list, name="ratings"),
    path("clubs/", clubs.clubs_list, name="clubs"),
    path(
        "clubs/invitations/<id:invitation_id>/accept/",
        clubs.club_invitation_accept,
        name="club-invitation-accept",
    ),
    path(
        "clubs/invitations/<id:invitation_id>/decline/",
        clubs.club_invitation_decline,
        name="club-invitation-decline",
    ),
    path("c/new/", clubs.club_new, name="club-new"),  # before <slug>
    path("c/<slug:slug>/", clubs.club_detail, name="club"),
    path("c/<slug:slug>/edit/", clubs.club_edit, name="club-edit"),
    path("c/<slug:slug>/delete/", clubs.club_delete, name="club-delete"),
    path("c/<slug:slug>/invitations/", clubs.club_invite, name="club-invite"),
    path(
        "c/<slug:slug>/invitations/<str:username>/withdraw/",
        clubs.club_invitation_withdraw,
        name="club-invitation-withdraw",
    ),
    path(
        "c/<slug:slug>/co-organisers/<str:username>/remove/",
        clubs.club_co_organiser_remove,
        name="club-co-organiser-remove",
    ),
    path("c/<slug:slug>/seasons/new/", seasons.season_new, name="season-new"),
    path("c/<slug:slug>/seasons/<id:season_id>/", seasons.season_detail, name="season"),
    path("c/<slug:slug>/seasons/<id:season_id>/edit/", seasons.season_edit, name="season-edit"),
    path(
        "c/<slug:slug>/seasons/<id:season_id>/delete/",
        seasons.season_delete,
        name="season-delete",
    ),
    path(
        "c/<slug:slug>/seasons/<id:season_id>/evenings/new/",
        seasons.evening_new,
        name="season-evening-new",
    ),
    path(
        "c/<slug:slug>/seasons/<id:season_id>/table.pdf",
        seasons.season_pdf,
        name="season-pdf",
    ),
    path("t/<slug:slug>/checkin/", evening_checkin.evening_checkin, name="evening-checkin"),
    path(
        "t/<slug:slug>/checkin/guest/",
        evening_checkin.evening_guest,
        name="evening-checkin-guest",
    ),
    path("c/<slug:slug>/members/", club_members.members, name="club-members"),
    path(
        "c/<slug:slug>/members/import/",
        club_members.members_import,
        name="club-members-import",
    ),
    path(
        "c/<slug:slug>/members/import/confirm/",
        club_members.members_import_confirm,
        name="club-members-import-confirm",
    ),
    path(
        "c/<slug:slug>/members/<id:player_id>/leave/",
        club_members.member_leave,
        name="club-member-leave",
    ),
    path("t/new/", tournament_settings.tournament_new, name="tournament-new"),  # before <slug>
    path("t/new/restore/", desk_backup.tournament_restore, name="tournament-restore"),
    path(
        "t/new/restore/<id:job_id>/",
        desk_backup.tournament_restore_job,
        name="tournament-restore-job",
    ),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament"),
    path("t/<slug:slug>/edit/", tournament_settings.tournament_edit, name="tournament-edit"),
    path("t/<slug:slug>/finish/", tournament_settings.tournament_finish, name="tournament-finish"),
    path("t/<slug:slug>/reopen/", tournament_settings.tournament_reopen, name="tournament-reopen"),
    path("t/<slug:slug>/rounds/<id:number>/", public.round_detail, name="round"),
    path("t/<slug:slug>/standings/", public.StandingsView.as_view(), name="standings"),
    path("t/<slug:slug>/screen/", hall_pages.screen, name="screen"),
    path("t/<slug:slug>/screen/state/", hall_pages.screen_state, name="screen-state"),
    path("t/<slug:slug>/tables/", hall_pages.tables, name="tables"),
    path("t/<slug:slug>/organise/", organise.organise, name="organise"),
    path("t/<slug:slug>/organise/backup/", desk_backup.tournament_backup, name="desk-backup"),
    path("t/<slug:slug>/organise/seat/", organise.round_seat, name="round-seat"),
    path(
        "t/<slug:slug>/organise/rounds/<id:number>/reseat/",
        organise.round_reseat,
        name="round-reseat",
    ),
    path(
        "t/<slug:slug>/organise/rounds/<id:number>/swap/",
        organise.players_swap,
        name="players-swap",
    ),
    *(
        path(
            f"t/<slug:slug>/organise/rounds/<id:number>/clock/{action}/",
            hall_pages.round_clock_post,
            {"action": action},
            name=f"round-clock-{action}",
        )
        for action in hall_pages.CLOCK_ACTIONS
    ),
    path("t/<slug:slug>/organise/entries/", desk_players.entries_add, name="entries-add"),
    path("t/<slug:slug>/organise/players/new/", desk_players.player_add, name="player-add"),
    path(
        "t/<slug:slug>/organise/players/import/",
        desk_players.players_import,
        name="players-import",
    ),
    path(
        "t/<slug:slug>/organise/players/import/confirm/",
        desk_players.players_import_confirm,
        name="players-import-confirm",
    ),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/withdraw/confirm/",
        desk_players.entry_withdraw_confirm,
        name="entry-withdraw-confirm",
    ),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/withdraw/",
        desk_players.entry_status,
        {"action": "withdraw"},
        name="entry-withdraw",
    ),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/category/",
        desk_players.entry_category,
        name="entry-category",
    ),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/check-in/",
        desk_players.entry_status,
        {"action": "check-in"},
        name="entry-check-in",
    ),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/check-out/",
        desk_players.entry_status,
        {"action": "check-out"},
        name="entry-check-out",
    ),
    path("t/<slug:slug>/organise/adjustments/", organise.adjustment_add, name="adjustment-add"),
    path(
        "t/<slug:slug>/organise/adjustments/<id:adjustment_id>/delete/",
        desk_results.adjustment_delete,
        name="adjustment-delete",
    ),
    path(
        "t/<slug:slug>/organise/tables/<id:match_id>/",
        desk_results.desk_match,
        name="desk-match",
    ),
    path(
        "t/<slug:slug>/organise/tables/<id:match_id>/correct/",
        desk_results.desk_game_correct,
        name="desk-game-correct",
    ),
    path(
        "t/<slug:slug>/organise/tables/<id:match_id>/games/<id:number>/delete/",
        desk_results.desk_game_delete,
        name="desk-game-delete",
    ),
    path(
        "t/<slug:slug>/organise/tables/<id:match_id>/link/",
        desk_trust.match_link_new,
        name="desk-match-link",
    ),
    path("t/<slug:slug>/organise/confirm/", desk_trust.confirm_list, name="desk-confirm"),
    path(
        "t/<slug:slug>/organise/games/<id:game_id>/confirm/",
        desk_trust.game_confirm_post,
        name="desk-game-confirm",
    ),
    path(
        "t/<slug:slug>/organise/audit/<id:event_id>/restore/",
        desk_audit.game_restore_post,
        name="desk-game-restore",
    ),
    path("t/<slug:slug>/organise/audit/", desk_audit.audit, name="desk-audit"),
    path("m/<str:token>/", match.match_entry, name="match"),
    path("m/<str:token>/correct/", match.match_correct, name="match-correct"),
    path("m/<str:token>/mine/", match.match_mine, name="match-mine"),
    path("m/<str:token>/state/", match.match_state, name="match-state"),
    path("m/<str:token>/timer/", timer.match_timer, name="match-timer"),
    path(
        "m/<str:token>/manifest.webmanifest",
        offline.match_manifest,
        name="match-manifest",
    ),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="web:home"), name="logout"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/password_change/", accounts.PasswordChange.as_view(), name="password-change"),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password-change-done",
    ),
    path("accounts/password_reset/", accounts.PasswordReset.as_view(), name="password-reset"),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password-reset-done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirm.as_view(),
        name="password-reset-confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password-reset-complete",
    ),
]
