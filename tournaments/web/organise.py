"""The organiser desk: ``/t/<slug>/organise/`` and the actions posted from it.

Vocabulary: the *desk* is one page with the *next step* (where the event
stands and the actions that make sense now, ``tournaments.progress``), the
tournament's players (enter, withdraw, check in or out), its rounds (seat the
next round or stage, re-seat the last or swap two of its players while no
result is in) and its adjustments (penalties and bonuses). Every action is a
POST to its own address (``pages.desk_action``: a visit there is led back
to the desk) that runs one service and comes back to the top of the desk
(POST-redirect-GET, no anchor: the message shows at the top of the page); a
refusal (``UserError``) stores nothing and comes back as a message, or next
to the input it concerns. Only the tournament's organisers get here
(``pages.organiser_required``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop

from scoring.errors import UserError
from tournaments import progress
from tournaments.models import Player, Round, Seat, Tournament
from tournaments.selectors.entries import adjustments_of, entries_of
from tournaments.selectors.progress import progress_of
from tournaments.selectors.rounds import (
    round_bye_ids,
    round_numbered,
    rounds_for,
    rounds_listed,
    seating_quality_for,
)
from tournaments.selectors.unsettled import unsettled_counts
from tournaments.services import adjustments as adjustment_services
from tournaments.services import rounds as round_services
from tournaments.web.desk_forms import PlayerAddForm, players_section
from tournaments.web.forms import AdjustmentForm, SwapForm
from tournaments.web.pages import desk_action, organiser_required


def _organise_url(tournament: Tournament) -> str:
    # No #anchor: the action's message is at the top of the page, where the
    # browser lands.
    return reverse("web:organise", kwargs={"slug": tournament.slug})


def _entered_players(tournament: Tournament) -> list[Player]:
    return [e.player for e in entries_of(tournament=tournament)]


def _organise_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    adjustment_form: AdjustmentForm | None = None,
    swap_form: SwapForm | None = None,
    player_form: PlayerAddForm | None = None,
    status: int = 200,
) -> HttpResponse:
    entries = list(entries_of(tournament=tournament))
    listed = rounds_listed(tournament=tournament)
    # Earlier rounds are a line each (their tables are on the round pages);
    # the latest is shown in full, since that is where the evening's work is.
    latest = list(rounds_for(tournament=tournament, numbers=[r.number for r in listed[-1:]]))
    # From what the page has read already: the next step costs no query.
    step = progress.step_next(
        progress_of(
            tournament=tournament,
            entries=entries,
            rounds=listed,
            latest=latest[0] if latest else None,
        )
    )
    # A finished tournament is frozen (the services refuse): offer nothing that writes.
    frozen = tournament.is_finished
    can_reseat = bool(listed) and listed[-1].games_played == 0 and not frozen
    seated = _tables_of(latest[0]) if latest and can_reseat else []
    # A swap is between two tables: a final's single table has none to offer.
    swap_shown = len(seated) > 1
    if swap_form is None and swap_shown:
        swap_form = SwapForm(tables=seated)
    return render(
        request,
        "tournaments/organise.html",
        {
            "tournament": tournament,
            "frozen": frozen,
            **players_section(request, tournament, entries=entries, player_form=player_form),
            "rounds": listed,
            "latest": latest[0] if latest else None,
            "step": step,
            # Only the last round, before any result, can be re-seated or changed.
            "can_reseat": can_reseat,
            "swap_form": swap_form,
            # A refused swap's form stays in the context even when it is not drawn.
            "swap_shown": swap_shown,
            "quality": seating_quality_for(tournament=tournament) if listed else None,
            "adjustments": adjustments_of(tournament=tournament).reverse(),
            "adjustment_form": adjustment_form
            or AdjustmentForm(players=[e.player for e in entries]),
            # One query: games left waiting show even when confirmation was switched off.
            **unsettled_counts(tournament=tournament),
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


def _tables_of(round_: Round) -> list[list[Seat]]:
    """A round's seats table by table, from ``rounds_for``'s prefetch."""
    return [list(match.seats.all()) for match in round_.matches.all()]


SEATED: dict[str, str] = {
    Round.Stage.QUALIFYING: gettext_noop("Round %(number)s seated."),
    Round.Stage.SEMIFINAL: gettext_noop("Semi-finals seated as round %(number)s."),
    Round.Stage.FINAL: gettext_noop("Final seated as round %(number)s."),
}


@desk_action
@organiser_required
def round_seat(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Seat the next round: qualifying, or the stage posted (``stage``)."""
    stage = request.POST.get("stage") or Round.Stage.QUALIFYING

    def act() -> str:
        round_ = round_services.round_seat_next(
            tournament=tournament, stage=stage, user=request.user
        )
        return gettext(SEATED[round_.stage]) % {"number": round_.number}

    _service_run(request, act)
    return HttpResponseRedirect(_organise_url(tournament))


@organiser_required
def round_reseat(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """GET: what re-seating does, and a button to confirm; POST: re-seat."""
    round_ = round_numbered(tournament=tournament, number=number)
    if round_ is None:
        raise Http404
    if request.method == "POST":

        def act() -> str:
            round_services.round_reseat(round=round_, user=request.user)
            return gettext("Round %(number)s re-seated.") % {"number": number}

        _service_run(request, act)
        return HttpResponseRedirect(_organise_url(tournament))
    listed = rounds_listed(tournament=tournament)
    if listed[-1].number != number or listed[-1].games_played:
        messages.error(
            request,
            gettext(
                "Round %(number)s can no longer be re-seated: only the last round can, "
                "and only before any result is recorded."
            )
            % {"number": number},
        )
        return HttpResponseRedirect(_organise_url(tournament))
    return render(
        request,
        "tournaments/desk/reseat_confirm.html",
        {"tournament": tournament, "round": round_, "listed": listed[-1]},
    )


@desk_action
@organiser_required
def players_swap(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Two players of the last round change places, before any result is in."""
    found = list(rounds_for(tournament=tournament, numbers=[number]))
    if not found:
        raise Http404
    round_ = found[0]
    form = SwapForm(request.POST, tables=_tables_of(round_))
    if form.is_valid():
        try:
            round_services.round_manual_set(
                round=round_,
                tables=form.tables_swapped(),
                byes=round_bye_ids(round=round_),
                user=request.user,
            )
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(
                request,
                gettext("%(a)s and %(b)s changed places in round %(number)s.")
                % {
                    "a": form.names[form.cleaned_data["player_a"]],
                    "b": form.names[form.cleaned_data["player_b"]],
                    "number": number,
                },
            )
            return HttpResponseRedirect(_organise_url(tournament))
    last = rounds_listed(tournament=tournament)[-1]
    if last.number != number or last.games_played or len(form.tables) < 2:
        # The desk draws no swap form for this round any more: the reason goes on top.
        reasons = " ".join(str(e) for errors in form.errors.values() for e in errors)
        messages.error(request, gettext("Nothing was swapped: %(reason)s") % {"reason": reasons})
        latest_form = form if last.number == number else None
        return _organise_page(request, tournament, swap_form=latest_form, status=400)
    # The form is far down the page on a phone: say at the top what happened.
    messages.error(
        request,
        gettext("Nothing was swapped: see the swap form under the tables of round %(number)s.")
        % {"number": number},
    )
    return _organise_page(request, tournament, swap_form=form, status=400)


@desk_action
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
            return HttpResponseRedirect(_organise_url(tournament))
    return _organise_page(request, tournament, adjustment_form=form, status=400)
