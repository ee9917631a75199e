"""The organiser desk: ``/t/<slug>/organise/`` and the actions posted from it.

Vocabulary: the *desk* is one page with the tournament's players (enter,
withdraw, check in or out), its rounds (seat the next, re-seat the last while
no result is in) and its adjustments (penalties and bonuses). Every action is
a POST to its own address that runs one service and comes back to the desk
(POST-redirect-GET); a refusal (``UserError``) stores nothing and comes back
as a message, or next to the input it concerns. Only the tournament's
organisers get here (``pages.organiser_required``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop, ngettext
from django.views.decorators.http import require_POST

from scoring.errors import UserError

from ..models import Entry, Player, Round, Tournament
from ..selectors import (
    adjustments_of,
    entries_of,
    players_not_entered,
    rounds_for,
    rounds_listed,
    seating_quality_for,
)
from ..services import adjustments as adjustment_services
from ..services import entries as entry_services
from ..services import rounds as round_services
from .forms import AdjustmentForm, EntriesAddForm
from .pages import organiser_required


def _organise_url(tournament: Tournament, anchor: str = "") -> str:
    return reverse("web:organise", kwargs={"slug": tournament.slug}) + anchor


def _entered_players(tournament: Tournament) -> list[Player]:
    return [e.player for e in entries_of(tournament=tournament)]


def _organise_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    adjustment_form: AdjustmentForm | None = None,
    status: int = 200,
) -> HttpResponse:
    entries = list(entries_of(tournament=tournament))
    listed = rounds_listed(tournament=tournament)
    # Earlier rounds are a line each (their tables are on the round pages);
    # the latest is shown in full, since that is where the evening's work is.
    latest = list(rounds_for(tournament=tournament, numbers=[r.number for r in listed[-1:]]))
    others = list(players_not_entered(tournament=tournament))
    return render(
        request,
        "tournaments/organise.html",
        {
            "tournament": tournament,
            "entries": entries,
            "rounds": listed,
            "latest": latest[0] if latest else None,
            # Only the last round, before any result, can be re-seated.
            "can_reseat": bool(listed) and listed[-1].games_played == 0,
            "quality": seating_quality_for(tournament=tournament) if listed else None,
            "adjustments": adjustments_of(tournament=tournament).reverse(),
            "adjustment_form": adjustment_form
            or AdjustmentForm(players=[e.player for e in entries]),
            "entries_form": EntriesAddForm(players=others) if others else None,
        },
        status=status,
    )


@organiser_required
def organise(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _organise_page(request, tournament)


def _service_run(request: HttpRequest, action: Callable[[], str]) -> None:
    """Run a service; its user error becomes a message on the next page."""
    try:
        done = action()
    except UserError as error:
        messages.error(request, error.render(gettext))
    else:
        messages.success(request, done)


@require_POST
@organiser_required
def round_seat(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    def act() -> str:
        round_ = round_services.round_seat_next(tournament=tournament)
        return gettext("Round %(number)s seated.") % {"number": round_.number}

    _service_run(request, act)
    return HttpResponseRedirect(_organise_url(tournament, "#rounds"))


@require_POST
@organiser_required
def round_reseat(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament=tournament, number=number)

    def act() -> str:
        round_services.round_reseat(round=round_)
        return gettext("Round %(number)s re-seated.") % {"number": number}

    _service_run(request, act)
    return HttpResponseRedirect(_organise_url(tournament, "#rounds"))


ENTRY_ACTIONS: dict[str, tuple[Callable[..., Entry], str]] = {
    "withdraw": (entry_services.entry_withdraw, gettext_noop("%(player)s withdrawn.")),
    "check-in": (entry_services.entry_activate, gettext_noop("%(player)s checked in.")),
    "check-out": (
        entry_services.entry_check_out,
        gettext_noop("%(player)s checked out for the next round."),
    ),
}


@require_POST
@organiser_required
def entry_status(
    request: HttpRequest, tournament: Tournament, player_id: int, action: str
) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player"), tournament=tournament, player_id=player_id
    )
    service, done = ENTRY_ACTIONS[action]

    def act() -> str:
        service(tournament=tournament, player_id=player_id)
        return gettext(done) % {"player": entry.player.name}

    _service_run(request, act)
    return HttpResponseRedirect(_organise_url(tournament, "#players"))


@require_POST
@organiser_required
def entries_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = EntriesAddForm(request.POST, players=list(players_not_entered(tournament=tournament)))
    if form.is_valid():
        ids: list[int] = form.cleaned_data["players"]

        def act() -> str:
            entry_services.entries_add(tournament=tournament, player_ids=ids)
            return ngettext("%(count)s player entered.", "%(count)s players entered.", len(ids)) % {
                "count": len(ids)
            }

        _service_run(request, act)
    else:
        messages.error(request, gettext("Choose the players to enter."))
    return HttpResponseRedirect(_organise_url(tournament, "#players"))


@require_POST
@organiser_required
def adjustment_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = AdjustmentForm(request.POST, players=_entered_players(tournament))
    if form.is_valid():
        try:
            adjustment_services.adjustment_add(
                tournament=tournament,
                player_id=form.cleaned_data["player"],
                points=form.cleaned_data["points"],
                reason=form.cleaned_data["reason"],
                user=request.user,
                kind=form.cleaned_data["kind"],
            )
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(request, gettext("Adjustment added."))
            return HttpResponseRedirect(_organise_url(tournament, "#adjustments"))
    return _organise_page(request, tournament, adjustment_form=form, status=400)
