"""The turn timer: ``/timer/`` for any table, ``/m/<token>/timer/`` for a match.

Vocabulary: a *turn* lasts the tournament's ``turn_seconds`` (one of
``rules.TURN_SECONDS_CHOICES``); the *seats* are shown in *turn order*, from
the seat that starts the match's next game (``rules.starting_seat``) round
the table; a tap on the *next* button ends the turn and starts the next
seat's. The *warning* comes ``WARNING_SECONDS`` before the end; at 0 the page
shows the rulebooks' *reminder*: take back the tiles played this turn and
draw three. ``/timer/`` has no tournament: the visitor picks the seconds and
the number of seats (``rules.PLAYERS_MIN`` to ``rules.PLAYERS_MAX``), shown
as "Seat 1", "Seat 2"...

The page has its own small layout (no site menu, its style inline) and its
counting is done by ``static/js/timer.js``, which fetches nothing once the
page is loaded, so a dropped network never stops it; without JavaScript the
page says so and shows the rule. A match's timer opens in its tournament's
language (``web.table_language``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from scoring import rules
from tournaments.models import Match
from tournaments.selectors.matches import match_detail
from tournaments.web.table_language import table_language_redirect

WARNING_SECONDS = 10
DEFAULT_SECONDS = 60
# A browser may keep the free timer (it only depends on its query): a phone that
# loaded it once still opens it in a hall without network.
FREE_MAX_AGE = 60 * 60 * 24


@dataclass(frozen=True)
class TimerSeat:
    """A seat as the timer shows it: its number at the table and its name."""

    position: int
    name: str


class TimerForm(forms.Form):
    """The free timer's choices, read from the query (bad values fall back to the defaults)."""

    seconds = forms.TypedChoiceField(
        label=gettext_lazy("Seconds per turn"),
        choices=[(s, str(s)) for s in rules.TURN_SECONDS_CHOICES],
        coerce=int,
    )
    seats = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        choices=[(n, str(n)) for n in range(rules.PLAYERS_MIN, rules.PLAYERS_MAX + 1)],
        coerce=int,
    )


def seats_in_turn_order(seats: list[TimerSeat], *, game_number: int) -> list[TimerSeat]:
    """The seats from the one starting game ``game_number``, round the table."""
    if not seats:
        return []
    first = rules.starting_seat(game_number=game_number, table_size=len(seats)) - 1
    return seats[first:] + seats[:first]


def next_game_number(match: Match) -> int:
    """The lowest game number not yet recorded at the match (after the planned ones: the next)."""
    taken = {game.number for game in match.games.all()}
    return next(n for n in range(1, len(taken) + 2) if n not in taken)


def _texts() -> dict[str, str]:
    """The words the script shows, translated here (the script holds no text)."""
    return {
        "start": gettext("Tap to start"),
        "next": gettext("Tap for the next player"),
        "pause": gettext("Pause"),
        "resume": gettext("Resume"),
        "paused": gettext("Paused"),
        "warning": gettext("10 seconds left"),
        "up": gettext("Time is up"),
        "turn": gettext("%(name)s's turn"),
    }


def _page(
    request: HttpRequest,
    *,
    seats: list[TimerSeat],
    seconds: int,
    title: str,
    back: str,
    form: TimerForm | None = None,
) -> HttpResponse:
    return render(
        request,
        "tournaments/timer.html",
        {
            "seats": seats,
            "seconds": seconds,
            "warning": WARNING_SECONDS,
            "title": title,
            "back": back,
            "form": form,
            "texts": _texts(),
        },
    )


@require_safe
@cache_control(max_age=FREE_MAX_AGE)
def timer(request: HttpRequest) -> HttpResponse:
    """The free timer: ``?seconds=`` (40, 60, 90 or 120) and ``?seats=`` (2 to 4)."""
    form = TimerForm(request.GET or None)
    seconds, count = DEFAULT_SECONDS, rules.PLAYERS_MAX
    if form.is_bound and form.is_valid():
        seconds, count = form.cleaned_data["seconds"], form.cleaned_data["seats"]
    elif not form.is_bound:
        form = TimerForm(initial={"seconds": seconds, "seats": count})
    seats = [TimerSeat(n, gettext("Seat %(number)s") % {"number": n}) for n in range(1, count + 1)]
    return _page(
        request,
        seats=seats,
        seconds=seconds,
        title=gettext("Turn timer"),
        back=reverse("web:home"),
        form=form,
    )


@require_safe
@cache_control(private=True, no_cache=True)
def match_timer(request: HttpRequest, token: str) -> HttpResponse:
    """A match's timer: its tournament's seconds and its players, starting seat first."""
    try:
        match = match_detail(token=token)
    except Match.DoesNotExist:
        raise Http404 from None
    tournament = match.round.tournament
    moved = table_language_redirect(request, tournament)
    if moved is not None:
        return moved
    seats = [TimerSeat(seat.position, seat.player.name) for seat in match.seats.all()]
    number = next_game_number(match)
    if number > match.round.games_per_match:  # every planned game is recorded: no "game 4 of 3"
        return _page(
            request,
            seats=seats,
            seconds=tournament.turn_seconds,
            title=gettext("Table %(table)s · every game recorded") % {"table": match.table},
            back=reverse("web:match", kwargs={"token": token}),
        )
    return _page(
        request,
        seats=seats_in_turn_order(seats, game_number=number),
        seconds=tournament.turn_seconds,
        title=gettext("Table %(table)s · game %(number)s of %(planned)s")
        % {"table": match.table, "number": number, "planned": match.round.games_per_match},
        back=reverse("web:match", kwargs={"token": token}),
    )
