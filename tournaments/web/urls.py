"""Routes of the web pages (namespace ``web``), served at the root inside
``i18n_patterns``: ``/t/<slug>/`` in English, ``/de/t/<slug>/`` in German."""

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, path

from scoring import web as scoring_web

from .. import converters  # noqa: F401  (registers <id:…>)
from . import match, organise, public

app_name = "web"
urlpatterns: list[URLPattern] = [
    path("", public.home, name="home"),
    path("calculator/", scoring_web.calculator, name="calculator"),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament"),
    path("t/<slug:slug>/rounds/<id:number>/", public.round_detail, name="round"),
    path("t/<slug:slug>/standings/", public.StandingsView.as_view(), name="standings"),
    path("t/<slug:slug>/organise/", organise.organise, name="organise"),
    path("t/<slug:slug>/organise/seat/", organise.round_seat, name="round-seat"),
    path(
        "t/<slug:slug>/organise/rounds/<id:number>/reseat/",
        organise.round_reseat,
        name="round-reseat",
    ),
    path("t/<slug:slug>/organise/entries/", organise.entries_add, name="entries-add"),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/withdraw/",
        organise.entry_status,
        {"action": "withdraw"},
        name="entry-withdraw",
    ),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/check-in/",
        organise.entry_status,
        {"action": "check-in"},
        name="entry-check-in",
    ),
    path(
        "t/<slug:slug>/organise/players/<id:player_id>/check-out/",
        organise.entry_status,
        {"action": "check-out"},
        name="entry-check-out",
    ),
    path("t/<slug:slug>/organise/adjustments/", organise.adjustment_add, name="adjustment-add"),
    path("m/<str:token>/", match.match_entry, name="match"),
    path("m/<str:token>/correct/", match.match_correct, name="match-correct"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="web:home"), name="logout"),
]
