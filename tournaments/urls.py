"""Routes of the web pages (namespace ``web``), served at the root inside
``i18n_patterns``: ``/t/<slug>/`` in English, ``/de/t/<slug>/`` in German."""

from django.contrib.auth import views as auth_views
from django.urls import path

from scoring import views as scoring_views

from . import (
    converters,  # noqa: F401  (registers <id:…>)
    views,
)

app_name = "web"
urlpatterns = [
    path("", views.home, name="home"),
    path("calculator/", scoring_views.calculator, name="calculator"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament"),
    path("t/<slug:slug>/rounds/<id:number>/", views.round_detail, name="round"),
    path("t/<slug:slug>/standings/", views.StandingsView.as_view(), name="standings"),
    path("t/<slug:slug>/organise/", views.organise, name="organise"),
    path("t/<slug:slug>/organise/seat/", views.round_seat, name="round-seat"),
    path(
        "t/<slug:slug>/organise/rounds/<id:number>/reseat/",
        views.round_reseat,
        name="round-reseat",
    ),
    path("t/<slug:slug>/organise/entries/", views.entries_add, name="entries-add"),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/withdraw/",
        views.entry_status,
        {"action": "withdraw"},
        name="entry-withdraw",
    ),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/check-in/",
        views.entry_status,
        {"action": "check-in"},
        name="entry-check-in",
    ),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/check-out/",
        views.entry_status,
        {"action": "check-out"},
        name="entry-check-out",
    ),
    path("t/<slug:slug>/organise/adjustments/", views.adjustment_add, name="adjustment-add"),
    path("m/<str:token>/", views.match_entry, name="match"),
    path("m/<str:token>/correct/", views.match_correct, name="match-correct"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="web:home"), name="logout"),
]
