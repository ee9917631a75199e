"""Routes of the printable files (namespace ``print``): score sheets, the blank
club pad, standings and the final report. Served inside ``i18n_patterns``, so
``/de/t/<slug>/standings.pdf`` works too (the tournament's own language wins
for its files; the pad follows ``?lang=`` or the URL's language)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import converters  # noqa: F401  (registers <id:…>)
from tournaments.documents import views

app_name = "print"
urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "t/<slug:slug>/rounds/<id:number>/scoresheets.pdf",
        views.scoresheets,
        name="round-scoresheets",
    ),
    path("t/<slug:slug>/standings.pdf", views.standings, name="standings"),
    path("t/<slug:slug>/report.pdf", views.report, name="report"),
    path("scoresheet.pdf", views.pad, name="scoresheet"),
]
