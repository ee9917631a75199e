"""A club's seasons on the web: a new season (``/c/<slug>/seasons/new/``), a
season's page with its table (``/c/<slug>/seasons/<id>/``, exports with
``?_export=csv|xlsx|ods|json``, ``table.pdf``), editing and deleting it, and
"New evening".

Vocabulary: a season's page is for whoever sees its club in full
(``access.season_visible``; anything else is a 404, as for a private club);
its *season organiser pages* need a login, a shown season and one of its
club's organisers (else 403). The *season table* shows the ranked players,
then those "not yet qualified" apart; one column per evening with a result,
its points, those of the evenings that do not count (beyond ``best_of``)
struck through. The evenings are listed with their day and their winner of
the night; a finished season names its champion.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec

import django_tables2 as tables
from django import forms
from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats, translation
from django.utils.html import format_html
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST, require_safe

from scoring.errors import UserError
from tournaments.access import club_organiser, season_visible
from tournaments.documents.season import season_document
from tournaments.formats import FORMATS
from tournaments.models import Club, Season
from tournaments.numbers import number_text
from tournaments.selectors.clubs import club_shown
from tournaments.selectors.seasons import (
    SeasonView,
    evenings_language_of_club,
    season_get,
    season_view,
    seasons_listed,
    today,
)
from tournaments.services import seasons as season_services
from tournaments.slugs import name_slug
from tournaments.standings.season import EVENINGS_MAX, SeasonRow
from tournaments.web.pages import LOGIN_URL
from tournaments.web.standings_table import NumberColumn, StandingsExport

P = ParamSpec("P")
EXPORTS = ("csv", "xlsx", "ods", "json")
LANGUAGES = frozenset(code for code, _name in django_settings.LANGUAGES)


# ----------------------------------------------------------------------------- gates


def _club(request: HttpRequest, slug: str) -> Club:
    club = club_shown(user=request.user, slug=slug)
    if club is None:
        raise Http404
    return club


def season_shown(request: HttpRequest, slug: str, season_id: int) -> Season:
    """The club's season if the user may see it; else 404."""
    season = season_get(pk=season_id, club=_club(request, slug))
    if season is None or not season_visible(user=request.user, season=season):
        raise Http404
    return season


def season_organiser_required(
    view: Callable[Concatenate[HttpRequest, Season, P], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Log in, see the season (else 404), organise its club (else 403)."""

    @login_required(login_url=LOGIN_URL)
    @wraps(view)
    def wrapped(
        request: HttpRequest, slug: str, season_id: int, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse:
        season = season_shown(request, slug, season_id)
        if not club_organiser(user=request.user, club=season.club):
            raise PermissionDenied
        return view(request, season, *args, **kwargs)

    return wrapped


def evenings_language(*, club: Club, season: Season | None) -> str:
    """The language the form offers for the season's evenings: the one the season
    gives them, else the one the club's latest season gives its evenings, else the
    language the organiser is using."""
    given = season.evening_settings.get("language") if season is not None else None
    if given not in LANGUAGES:
        given = evenings_language_of_club(club=club, excluding=season)
    if given not in LANGUAGES:
        given = translation.get_language()
    return given if isinstance(given, str) and given in LANGUAGES else django_settings.LANGUAGE_CODE


def season_url(season: Season, name: str = "web:season") -> str:
    return reverse(name, kwargs={"slug": season.club.slug, "season_id": season.pk})


# ----------------------------------------------------------------------------- the form


class SeasonForm(forms.Form):
    """A season's name, days and counting rules, and how its evenings are set up."""

    name = forms.CharField(label=_("Name"), max_length=season_services.NAME_MAX)
    starts = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    ends = forms.DateField(
        label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    evening_points = forms.ChoiceField(
        label=_("Points of an evening"),
        choices=Season.EveningPoints.choices,
        help_text=_(
            "Rank points: 1000 for the evening's first, 0 for its last, the others in "
            "between by their place."
        ),
    )
    best_of = forms.IntegerField(
        label=_("Evenings counted"),
        min_value=0,
        max_value=EVENINGS_MAX,
        help_text=_("Count only each player's best evenings; 0 counts them all."),
    )
    min_evenings = forms.IntegerField(
        label=_("Evenings to be ranked"),
        min_value=0,
        max_value=EVENINGS_MAX,
        help_text=_("Players with fewer evenings are listed apart, not yet qualified."),
    )
    guests = forms.ChoiceField(
        label=_("Guests"),
        choices=Season.Guests.choices,
        help_text=_("Players who are not members of the club."),
    )
    evening_format = forms.ChoiceField(
        label=_("Format of an evening"),
        choices=[(name, f.title) for name, f in FORMATS.items()],
        help_text=_("The rules and the plan each new evening starts with."),
    )
    evening_rounds = forms.IntegerField(
        label=_("Rounds of an evening"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=_("Empty: the format's."),
    )
    evening_games = forms.IntegerField(
        label=_("Games per round"),
        required=False,
        min_value=1,
        max_value=30,
        help_text=_("Empty: the format's."),
    )

    evening_language = forms.ChoiceField(
        label=_("Language of its evenings"),
        choices=django_settings.LANGUAGES,
        help_text=_(
            "Each new evening starts in it: its match links, turn timer, screen and "
            "“Find my table” open in this language."
        ),
    )

    @staticmethod
    def initial_from(season: Season | None, *, language: str) -> dict[str, Any]:
        """The form's first values; ``language``: the one its evenings are offered in."""
        if season is None:
            day = today()
            return {
                "starts": day,
                "ends": day.replace(year=day.year + 1) if day.month != 2 or day.day != 29 else day,
                "evening_points": Season.EveningPoints.RANK_POINTS,
                "best_of": 0,
                "min_evenings": 0,
                "guests": Season.Guests.EXCLUDE,
                "evening_format": season_services.DEFAULT_FORMAT,
                "evening_language": language,
            }
        given = season.evening_settings
        return {
            **{name: getattr(season, name) for name in season_services.FIELDS},
            "evening_format": given.get("format", season_services.DEFAULT_FORMAT),
            "evening_rounds": given.get("rounds"),
            "evening_games": given.get("games_per_round"),
            "evening_language": language,
        }

    def settings(self, season: Season | None = None) -> dict[str, Any]:
        """The season's fields as the services take them; after ``is_valid()``."""
        data = {name: self.cleaned_data[name] for name in season_services.FIELDS}
        kept = dict(season.evening_settings) if season is not None else {}
        kept["format"] = self.cleaned_data["evening_format"]
        kept["language"] = self.cleaned_data["evening_language"]
        for key, field in (("rounds", "evening_rounds"), ("games_per_round", "evening_games")):
            value = self.cleaned_data[field]
            if value is None:
                kept.pop(key, None)
            else:
                kept[key] = value
        data["evening_settings"] = kept
        return data

    def user_error_add(self, error: UserError) -> None:
        field = error.field if error.field in self.fields else None
        if error.field == "evening_settings":
            field = "evening_format"
        self.add_error(field, error.render(gettext))


# ----------------------------------------------------------------------------- the table


class SeasonTable(tables.Table):  # type: ignore[misc]  # django-tables2 is untyped
    """The season table; one extra column per evening (``e<id>``)."""

    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    name = tables.Column(verbose_name=_("Player"))
    points = NumberColumn(
        verbose_name=_("Points"),
        attrs={"td": {"class": "num lead"}, "th": {"class": "num lead"}},
    )
    evenings = NumberColumn(verbose_name=_("Evenings"))
    best = NumberColumn(verbose_name=_("Best"))

    class Meta:
        template_name = "django_tables2/table.html"
        orderable = False
        attrs = {"class": "data standings season-table"}
        empty_text = _("No evening has a result yet.")


class EveningColumn(NumberColumn):
    """One evening's points of each player; struck through when they do not count."""

    def __init__(self, evening_id: int, **kwargs: Any) -> None:
        self.evening_id = evening_id
        super().__init__(accessor=tables.A(f"e{evening_id}"), default="", **kwargs)

    def render(self, record: Any, value: Any) -> Any:  # type: ignore[override]
        text = number_text(value)
        if self.evening_id in record.counted:
            return text
        return format_html('<s title="{}">{}</s>', gettext("does not count"), text)


class TableLine:
    """A season row as the table reads it (each evening as ``e<id>``)."""

    def __init__(self, row: SeasonRow) -> None:
        self.rank = row.rank if row.rank is not None else ""
        self.name = row.name
        self.points = row.points
        self.evenings = row.evenings
        self.best = row.best
        self.counted = row.counted
        for evening_id, points in row.by_evening.items():
            setattr(self, f"e{evening_id}", points)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("e") and name[1:].isdigit():
            return ""
        raise AttributeError(name)


def _evening_columns(view: SeasonView) -> list[tuple[str, EveningColumn]]:
    """A column per evening that counts, earliest first, headed by its day; a
    second evening on the same day is "day (2)", so that every heading (an
    export's column) is its own."""
    columns = []
    days: dict[str, int] = {}
    for e in view.evenings:
        if not e.counts:
            continue
        day = formats.date_format(e.day, "SHORT_DATE_FORMAT")
        days[day] = days.get(day, 0) + 1
        heading = day if days[day] == 1 else f"{day} ({days[day]})"
        columns.append((f"e{e.id}", EveningColumn(e.id, verbose_name=heading)))
    return columns


def season_tables(view: SeasonView) -> tuple[SeasonTable, SeasonTable]:
    """The ranked and the unranked, each with a column per evening that counts."""
    columns = _evening_columns(view)
    ranked = SeasonTable([TableLine(r) for r in view.table.ranked], extra_columns=columns)
    unranked = SeasonTable([TableLine(r) for r in view.table.unranked], extra_columns=columns)
    return ranked, unranked


def _export(view: SeasonView, export_format: str) -> HttpResponse:
    # One sheet: the ranked, then the unranked (rank empty).
    lines = [*view.table.ranked, *view.table.unranked]
    both = SeasonTable([TableLine(r) for r in lines], extra_columns=_evening_columns(view))
    exporter = StandingsExport(export_format, both)
    name = f"{slugify(view.season.club.slug)}-{name_slug(view.season.name, 'season')}"
    response: HttpResponse = exporter.response(filename=f"{name}.{export_format}")
    return response


# ----------------------------------------------------------------------------- pages


def _form_page(
    request: HttpRequest, form: SeasonForm, club: Club, season: Season | None, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "tournaments/seasons/season_form.html",
        {"form": form, "club": club, "season": season},
        status=status,
    )


@login_required(login_url=LOGIN_URL)
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    if not club_organiser(user=request.user, club=club):
        raise PermissionDenied
    if request.method != "POST":
        language = evenings_language(club=club, season=None)
        form = SeasonForm(initial=SeasonForm.initial_from(None, language=language))
        return _form_page(request, form, club, None)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = season_services.season_create(club=club, user=request.user, **form.settings())
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(request, gettext("Season “%(name)s” created.") % {"name": season.name})
            return HttpResponseRedirect(season_url(season))
    return _form_page(request, form, club, None, status=400)


@season_organiser_required
def season_edit(request: HttpRequest, season: Season) -> HttpResponse:
    initial = SeasonForm.initial_from(
        season, language=evenings_language(club=season.club, season=season)
    )
    if request.method != "POST":
        return _form_page(request, SeasonForm(initial=initial), season.club, season)
    form = SeasonForm(request.POST, initial=initial)
    if form.is_valid():
        try:
            season_services.season_update(season=season, user=request.user, **form.settings(season))
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(request, gettext("Season saved."))
            return HttpResponseRedirect(season_url(season))
    return _form_page(request, form, season.club, season, status=400)


@require_POST
@season_organiser_required
def season_delete(request: HttpRequest, season: Season) -> HttpResponse:
    club = season.club
    season_services.season_delete(season=season, user=request.user)
    messages.success(
        request,
        gettext("Season “%(name)s” deleted; its evenings stay as tournaments.")
        % {"name": season.name},
    )
    return HttpResponseRedirect(reverse("web:club", kwargs={"slug": club.slug}))


@require_POST
@season_organiser_required
def evening_new(request: HttpRequest, season: Season) -> HttpResponse:
    try:
        evening = season_services.evening_create(season=season, user=request.user)
    except UserError as error:
        messages.error(request, error.render(gettext))
        return HttpResponseRedirect(season_url(season))
    messages.success(
        request,
        gettext("Evening “%(name)s” started: tick who is here, then seat round 1.")
        % {"name": evening.name},
    )
    return HttpResponseRedirect(reverse("web:evening-checkin", kwargs={"slug": evening.slug}))


@require_safe
def season_detail(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    season = season_shown(request, slug, season_id)
    view = season_view(season=season)
    export_format = request.GET.get("_export", "")
    if export_format in EXPORTS:
        return _export(view, export_format)
    ranked, unranked = season_tables(view)
    return render(
        request,
        "tournaments/seasons/season_detail.html",
        {
            "season": season,
            "club": season.club,
            "view": view,
            "ranked": ranked,
            "unranked": unranked,
            "organiser": club_organiser(user=request.user, club=season.club),
            "exports": EXPORTS,
            "evenings_shown": list(reversed(view.evenings)),
        },
    )


@require_safe
def season_pdf(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    season = season_shown(request, slug, season_id)
    content = season_document(view=season_view(season=season))
    response = HttpResponse(content, content_type="application/pdf")
    name = f"{season.club.slug}-{name_slug(season.name, 'season')}"
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


def club_seasons_context(*, request: HttpRequest, club: Club) -> dict[str, Any]:
    """What the club page's seasons section draws: current seasons first, the
    finished ones with their champion; "New season" for its organisers. Only for
    whoever sees the club in full (a private club's: its organisers)."""
    organiser = club_organiser(user=request.user, club=club)
    shown = club.public or organiser
    return {
        "seasons": seasons_listed(club=club) if shown else [],
        "season_organiser": organiser,
    }
