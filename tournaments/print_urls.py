"""Routes of the printable files (namespace ``print``): score sheets, the blank
club pad, standings and the final report. Served inside ``i18n_patterns``, so
``/de/t/<slug>/standings.pdf`` works too (the tournament's own language wins
for its files; the pad follows ``?lang=`` or the URL's language)."""

from django.urls import URLPattern, URLResolver, path

from . import (
    converters,  # noqa: F401  (registers <id:…>)
    print_views,
)

app_name = "print"
urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "t/<slug:slug>/rounds/<id:number>/scoresheets.pdf",
        print_views.scoresheets,
        name="round-scoresheets",
    ),
    path("t/<slug:slug>/standings.pdf", print_views.standings, name="standings"),
    path("t/<slug:slug>/report.pdf", print_views.report, name="report"),
    path("scoresheet.pdf", print_views.pad, name="scoresheet"),
]
