"""Web pages: thin views over selectors (reads) and services (writes).

Vocabulary:

* a *visible* tournament is one ``tournaments_visible`` lets the user see; any
  other slug is a 404, so that a private tournament's existence is not told;
* an *organiser* of a tournament is its owner or a staff user (the API's rule):
  only they reach the organiser pages; a visible tournament's organiser page is
  a 403 for anyone else, and an anonymous visitor is sent to the login page;
* a *match page* is ``/m/<token>/``, the private result-entry page reached by
  the QR code on the printed score sheet: whoever holds the token may enter
  that match's games, without logging in.

Every write answers with a redirect (POST-redirect-GET); a refused write
(``UserError``) stores nothing and is shown next to the input it concerns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop, ngettext
from django.views.decorators.http import require_POST
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin
from django_tables2.export.views import ExportMixin

from scoring.errors import UserError

from .forms import AdjustmentForm, EntriesAddForm, GameCorrectForm, GameForm
from .models import Entry, Game, Match, Player, Rack, Round, Seat, Tournament
from .selectors import (
    StandingRow,
    adjustments_of,
    clubs_listed,
    entries_of,
    match_detail,
    players_not_entered,
    rounds_for,
    rounds_listed,
    seating_quality_for,
    standings_for,
    tournaments_visible,
)
from .services import rounds as round_services
from .services.games import game_correct, game_record
from .tables import StandingsExport, StandingsTable

P = ParamSpec("P")
STANDINGS_TOP = 10
ROUNDS_INLINE_TABLES = 40
LOGIN_URL = "web:login"


# --------------------------------------------------------------------------- helpers


def tournament_visible(request: HttpRequest, slug: str) -> Tournament:
    """The tournament with that slug if the user may see it; else 404."""
    return get_object_or_404(tournaments_visible(user=request.user), slug=slug)


def is_organiser(user: Any, tournament: Tournament) -> bool:
    return bool(user.is_authenticated and (user.is_staff or tournament.owner_id == user.pk))


def organiser_required(
    view: Callable[Concatenate[HttpRequest, Tournament, P], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Log in, see the tournament (else 404), organise it (else 403)."""

    @login_required(login_url=LOGIN_URL)
    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        tournament = tournament_visible(request, slug)
        if not is_organiser(request.user, tournament):
            raise PermissionDenied
        return view(request, tournament, *args, **kwargs)

    return wrapped


@dataclass
class MatchView:
    """A match laid out for a page: seats, and each game's racks in seat order."""

    match: Match
    seats: list[Seat]
    games: list[tuple[Game, list[Rack | None]]]
    totals: list[Decimal]

    @property
    def planned(self) -> int:
        return self.match.round.games_per_match

    @property
    def complete(self) -> bool:
        return len(self.games) >= self.planned

    @property
    def last_game(self) -> Game | None:
        return self.games[-1][0] if self.games else None


def match_view(match: Match) -> MatchView:
    """Lay out a match whose seats and games (with racks) are prefetched."""
    seats = list(match.seats.all())
    games = []
    totals = [Decimal(0)] * len(seats)
    for game in match.games.all():
        by_player = {r.player_id: r for r in game.racks.all()}
        racks = [by_player.get(s.player_id) for s in seats]
        for i, rack in enumerate(racks):
            if rack is not None:
                totals[i] += rack.score
        games.append((game, racks))
    return MatchView(match=match, seats=seats, games=games, totals=totals)


# --------------------------------------------------------------------------- public pages


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/home.html",
        {
            "tournaments": tournaments_visible(user=request.user),
            "clubs": clubs_listed(),
        },
    )


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_visible(request, slug)
    listed = rounds_listed(tournament=tournament)
    # A club night shows every table; a big event only its latest round (each
    # round has its own page), so the page stays light at 1,000 players.
    every_round = sum(r.tables for r in listed) <= ROUNDS_INLINE_TABLES
    shown = [r.number for r in (listed if every_round else listed[-1:])]
    standings = standings_for(tournament=tournament)
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "rounds": _rounds_shown(tournament, shown),
            "round_links": [] if every_round else listed,
            "standings": standings[:STANDINGS_TOP],
            "standings_more": len(standings) > STANDINGS_TOP,
            "players_count": len(standings),
            "can_organise": is_organiser(request.user, tournament),
        },
    )


def _rounds_shown(tournament: Tournament, numbers: list[int]) -> list[tuple[Round, list[Any]]]:
    rounds = rounds_for(tournament=tournament, numbers=numbers)
    return [(r, [match_view(m) for m in r.matches.all()]) for r in rounds]


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_visible(request, slug)
    rounds = _rounds_shown(tournament, [number])
    if not rounds:
        raise Http404(gettext("There is no such round."))
    return render(
        request,
        "tournaments/round_detail.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "round_links": rounds_listed(tournament=tournament),
            "current": number,
            "can_organise": is_organiser(request.user, tournament),
        },
    )


class RowsPaginator(Paginator):
    """Takes ``?per_page=`` from the address bar, but only 1 to 1,000."""

    def __init__(self, object_list: Any, per_page: int | str, *args: Any, **kwargs: Any) -> None:
        super().__init__(object_list, min(max(int(per_page), 1), 1000), *args, **kwargs)


class StandingsView(ExportMixin, SingleTableMixin, TemplateView):
    """The full standings, sortable, with ``?_export=csv|xlsx|ods|json``."""

    template_name = "tournaments/standings.html"
    table_class = StandingsTable
    # A page of 100 rows keeps a 1,000-player event light; exports carry every row.
    table_pagination = {"per_page": 100, "paginator_class": RowsPaginator}
    export_class = StandingsExport
    export_formats = StandingsExport.ALLOWED

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.tournament = tournament_visible(request, kwargs["slug"])
        self.export_name = f"{self.tournament.slug}-standings"
        self._rows: list[StandingRow] | None = None
        return super().dispatch(request, *args, **kwargs)

    def get_table_data(self) -> list[StandingRow]:
        # Asked for twice when exporting (page context, then the export).
        if self._rows is None:
            self._rows = standings_for(tournament=self.tournament)
        return list(self._rows)

    def get_dataset_kwargs(self) -> dict[str, str]:
        return {"title": gettext("Standings")}

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["export_formats"] = StandingsExport.ALLOWED
        return context


# --------------------------------------------------------------------------- match page


def _match_by_token(token: str) -> Match:
    try:
        return match_detail(token=token)
    except Match.DoesNotExist:
        raise Http404 from None


def _match_page(
    request: HttpRequest,
    match: Match,
    *,
    form: GameForm | None = None,
    correct_form: GameCorrectForm | None = None,
    status: int = 200,
) -> HttpResponse:
    view = match_view(match)
    if form is None and not view.complete:
        form = GameForm(seats=view.seats)
    last = view.last_game
    if correct_form is None and last is not None:
        racks = [r for r in view.games[-1][1] if r is not None]
        correct_form = GameCorrectForm(
            seats=view.seats,
            prefix="fix",
            initial={
                "ending": last.ending,
                "game": last.number,
                "version": last.version,
                **GameForm.initial_from(racks),
            },
        )
    tournament = match.round.tournament
    return render(
        request,
        "tournaments/match_entry.html",
        {
            "match": match,
            "tournament": tournament,
            "view": view,
            "form": form if not view.complete else None,
            # A game posted after the last one was recorded: say why it was refused.
            "refused": form.non_field_errors() if form is not None and view.complete else [],
            "correct_form": correct_form,
            "correct_open": correct_form is not None and correct_form.is_bound,
            "can_organise": is_organiser(request.user, tournament),
        },
        status=status,
    )


def match_entry(request: HttpRequest, token: str) -> HttpResponse:
    """Show a match's games; POST records the next one."""
    match = _match_by_token(token)
    if request.method != "POST":
        return _match_page(request, match)
    form = GameForm(request.POST, seats=list(match.seats.all()))
    if form.is_valid():
        try:
            game = game_record(
                match=match,
                ending=form.cleaned_data["ending"],
                racks=form.racks(),
                user=request.user,
            )
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(
                request, gettext("Game %(number)s recorded.") % {"number": game.number}
            )
            return redirect("web:match", token=token)
    return _match_page(request, match, form=form, status=400)


@require_POST
def match_correct(request: HttpRequest, token: str) -> HttpResponse:
    """Correct a recorded game of the match (the page offers the last one).

    Organisers only, as in the API: the token lets a table record its games,
    while corrections stay with the people answerable for the results.
    """
    match = _match_by_token(token)
    if not is_organiser(request.user, match.round.tournament):
        raise PermissionDenied
    form = GameCorrectForm(request.POST, seats=list(match.seats.all()), prefix="fix")
    if form.is_valid():
        game = next((g for g in match.games.all() if g.number == form.cleaned_data["game"]), None)
        if game is None:
            form.add_error(None, gettext("That game no longer exists; reload the page."))
        else:
            try:
                game_correct(
                    game=game,
                    ending=form.cleaned_data["ending"],
                    racks=form.racks(),
                    version=form.cleaned_data["version"],
                    user=request.user,
                )
            except UserError as error:
                form.user_error_add(error)
            else:
                messages.success(
                    request, gettext("Game %(number)s corrected.") % {"number": game.number}
                )
                return redirect("web:match", token=token)
    return _match_page(request, match, correct_form=form, status=400)


# --------------------------------------------------------------------------- organiser pages


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
    "withdraw": (round_services.entry_withdraw, gettext_noop("%(player)s withdrawn.")),
    "check-in": (round_services.entry_activate, gettext_noop("%(player)s checked in.")),
    "check-out": (
        round_services.entry_check_out,
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
            round_services.entries_add(tournament=tournament, player_ids=ids)
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
            round_services.adjustment_add(
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
