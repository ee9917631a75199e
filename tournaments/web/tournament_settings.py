"""A tournament's settings on the web: creating one (``/t/new/``), editing it
(``/t/<slug>/edit/``), finishing and reopening it.

Vocabulary: any logged-in user may *create* a tournament and owns it; its
organisers *edit* its settings (``settings_forms.TournamentForm``) but only its
owner (and staff) its visibility and its organisers (the co-organisers named
are *invited*, and organise once they accept: ``services.co_organisers``); *finish*
it once every table of its latest round is complete (after a confirmation
page) and *reopen* it. Each action runs one tournament service; a refusal
stores nothing and is shown at the input it concerns (or as a message, for
finishing), and a success comes back to the organiser desk with a message at
the top of the page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from scoring.errors import UserError
from tournaments.access import tournament_owner
from tournaments.formats import FORMATS, format_tournament
from tournaments.models import Tournament
from tournaments.selectors.tournaments import invited_names
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


def _invited_said(request: HttpRequest, tournament: Tournament, *, before: list[str]) -> None:
    """Say who was invited just now (whether or not an account has the name)."""
    invited = [name for name in invited_names(tournament=tournament) if name not in before]
    if invited:
        messages.info(
            request,
            gettext("Invited to co-organise: %(names)s. They organise once they accept.")
            % {"names": ", ".join(invited)},
        )


@login_required(login_url=LOGIN_URL)
def tournament_new(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        # ?format=<name> (the chooser above the form) starts from that format's settings.
        name = request.GET.get("format", "")
        initial = TournamentForm.initial_from(format_tournament(name=name))
        initial["format"] = name if name in FORMATS else ""
        return _form_page(request, TournamentForm(initial=initial, user=request.user), None)
    form = TournamentForm(request.POST, user=request.user)
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
            _invited_said(request, tournament, before=[])
            return _desk(tournament)
    return _form_page(request, form, None, status=400)


@organiser_required
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    results = tournament_services.has_results(tournament)
    owner = tournament_owner(user=request.user, tournament=tournament)
    initial = TournamentForm.initial_from(tournament)

    def form_for(data: Any = None) -> TournamentForm:
        return TournamentForm(
            data,
            initial=initial,
            results=results,
            user=request.user,
            tournament=tournament,
            owner=owner,
        )

    if request.method != "POST":
        return _form_page(request, form_for(), tournament)
    form = form_for(request.POST)
    if form.is_valid():
        settings = form.settings()
        if not owner:
            # The owner's rights: a co-organiser's form shows them, never sends them.
            settings.pop("public", None)
            settings.pop("co_organisers", None)
        before = invited_names(tournament=tournament)
        try:
            tournament = tournament_services.tournament_update(
                tournament=tournament, user=request.user, **settings
            )
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(request, gettext("Settings saved."))
            _invited_said(request, tournament, before=before)
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
