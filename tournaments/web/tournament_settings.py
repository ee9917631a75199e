"""A tournament's settings on the web: creating one (``/t/new/``), editing it
(``/t/<slug>/edit/``), finishing and reopening it.

Vocabulary: any logged-in user may *create* a tournament and owns it; its
organisers *edit* its settings (``settings_forms.TournamentForm``), *finish*
it once every table of its latest round is complete (after a confirmation
page) and *reopen* it. Each action runs one tournament service; a refusal
stores nothing and is shown at the input it concerns (or as a message, for
finishing), and a success comes back to the organiser desk with a message at
the top of the page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from scoring.errors import UserError
from tournaments.formats import FORMATS, format_tournament
from tournaments.models import Tournament
from tournaments.services import tournaments as tournament_services
from tournaments.web.pages import LOGIN_URL, desk_action, organiser_required
from tournaments.web.settings_forms import TournamentForm


def _desk(tournament: Tournament) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("web:organise", kwargs={"slug": tournament.slug}))


def _form_page(
    request: HttpRequest, form: TournamentForm, tournament: Tournament | None, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "tournaments/tournament_form.html",
        {
            "form": form,
            "tournament": tournament,
            "formats": FORMATS.values() if tournament is None else (),
            "format_chosen": form["format"].value() or "",
        },
        status=status,
    )


@login_required(login_url=LOGIN_URL)
def tournament_new(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        # ?format=<name> (the chooser above the form) starts from that format's settings.
        name = request.GET.get("format", "")
        initial = TournamentForm.initial_from(format_tournament(name=name))
        initial["format"] = name if name in FORMATS else ""
        return _form_page(request, TournamentForm(initial=initial), None)
    form = TournamentForm(request.POST)
    if form.is_valid():
        try:
            tournament = tournament_services.tournament_create(
                owner=request.user, user=request.user, **form.settings()
            )
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(
                request,
                gettext("Tournament “%(name)s” created. Enter its players next.")
                % {"name": tournament.name},
            )
            return _desk(tournament)
    return _form_page(request, form, None, status=400)


@organiser_required
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    results = tournament_services.has_results(tournament)
    if request.method != "POST":
        form = TournamentForm(initial=TournamentForm.initial_from(tournament), results=results)
        return _form_page(request, form, tournament)
    form = TournamentForm(request.POST, results=results)
    if form.is_valid():
        try:
            tournament = tournament_services.tournament_update(
                tournament=tournament, user=request.user, **form.settings()
            )
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(request, gettext("Settings saved."))
            return _desk(tournament)
    return _form_page(request, form, tournament, status=400)


@organiser_required
def tournament_finish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: ask to confirm; POST: finish."""
    if request.method != "POST":
        return render(request, "tournaments/tournament_finish.html", {"tournament": tournament})
    try:
        tournament_services.tournament_finish(tournament=tournament, user=request.user)
    except UserError as error:
        messages.error(request, error.render(gettext))
    else:
        messages.success(
            request, gettext("The tournament is finished: its standings are the final placings.")
        )
    return _desk(tournament)


@desk_action
@organiser_required
def tournament_reopen(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        tournament_services.tournament_reopen(tournament=tournament, user=request.user)
    except UserError as error:
        messages.error(request, error.render(gettext))
    else:
        messages.success(request, gettext("The tournament is open again."))
    return _desk(tournament)
