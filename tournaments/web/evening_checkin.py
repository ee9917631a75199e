"""An evening's check-in (``/t/<slug>/checkin/``): one page listing every
member of the evening's club and every player entered, a search box, a
checkbox per player (ticked: here tonight), and a guest added on the spot.

Vocabulary: *ticking* sends the whole list once (``attendance_set``: exactly
the ticked players are checked in, the others entered are checked out until
they come); a *guest* is a new player of no club, entered and checked in at
once (``player_enter``). The search is a GET filter (``?q=``, names compared
as ``search_names`` folds them) that works without JavaScript; with it, the
list narrows as one types, and the ticks of players the filter hides are kept
(hidden, they are still sent). "Save and seat round 1" saves the ticks and
seats round 1 with the players here (``round_seat_next``), when no round is
seated yet, then leads to the organiser desk (a round that cannot be seated
says why there). Organisers of the tournament only (``organiser_required``).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.errors import UserError
from tournaments.models import Tournament
from tournaments.search_names import FOLDS
from tournaments.selectors.rounds import rounds_seated
from tournaments.selectors.seasons import checkin_of, checkin_player_ids
from tournaments.services import entries as entry_services
from tournaments.services import players as player_services
from tournaments.services import rounds as round_services
from tournaments.web.pages import desk_action, organiser_required

QUERY_MAX = 100


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Guest's name"), max_length=120)


def _here_url(tournament: Tournament, query: str = "") -> str:
    url = reverse("web:evening-checkin", kwargs={"slug": tournament.slug})
    return f"{url}?q={query}" if query else url


def _page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    guest: GuestForm | None = None,
    status: int = 200,
) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:QUERY_MAX]
    checkin = checkin_of(tournament=tournament, query=query)
    return render(
        request,
        "tournaments/seasons/evening_checkin.html",
        {
            "tournament": tournament,
            "checkin": checkin,
            "query": query,
            "guest": guest or GuestForm(),
            "folds": [list(pair) for pair in FOLDS],
        },
        status=status,
    )


@organiser_required
def evening_checkin(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method != "POST":
        return _page(request, tournament)
    allowed = checkin_player_ids(tournament=tournament)
    try:
        ticked = [int(v) for v in request.POST.getlist("here")]
    except ValueError:
        ticked = []
    ids = [pid for pid in dict.fromkeys(ticked) if pid in allowed]
    try:
        here = entry_services.attendance_set(
            tournament=tournament, player_ids=ids, user=request.user
        )
    except UserError as error:
        messages.error(request, error.render(gettext))
        return _page(request, tournament, status=400)
    messages.success(
        request,
        ngettext("%(count)s player is here.", "%(count)s players are here.", len(here))
        % {"count": len(here)},
    )
    if "seat" in request.POST:
        if not rounds_seated(tournament=tournament):
            try:
                round_ = round_services.round_seat_next(tournament=tournament, user=request.user)
            except UserError as error:
                messages.error(request, error.render(gettext))
            else:
                messages.success(
                    request, gettext("Round %(number)s seated.") % {"number": round_.number}
                )
        return HttpResponseRedirect(reverse("web:organise", kwargs={"slug": tournament.slug}))
    return HttpResponseRedirect(_here_url(tournament))


@desk_action
@organiser_required
def evening_guest(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = GuestForm(request.POST)
    if form.is_valid():
        try:
            entry = player_services.player_enter(
                tournament=tournament, name=form.cleaned_data["name"], user=request.user
            )
        except UserError as error:
            form.add_error("name", error.render(gettext))
        else:
            messages.success(
                request, gettext("%(name)s is here as a guest.") % {"name": entry.player.name}
            )
            return HttpResponseRedirect(_here_url(tournament))
    return _page(request, tournament, guest=form, status=400)
