"""What every audience's pages share: finding the tournament, the organiser
gate, and a match laid out for a page.

Vocabulary:

* a *shown* tournament is the one a page's slug names, if the user may see it
  (``selectors.tournaments_visible``); any other slug is a 404, so that a
  private tournament's existence is not told;
* an *organiser page* needs a login (an anonymous visitor is sent to the login
  page), a shown tournament (else 404) and its organiser (else 403), under the
  one rule of ``tournaments.access``;
* a *desk action* is an address that only a button of the organiser desk
  posts to; a visit there (a bookmark, a reload) gets a page in the site
  layout that leads back to the desk, with the 405 status a GET of a
  POST-only address has;
* a *match view* is a match as a page draws it: seats in order, each game's
  racks in seat order, and each seat's running total. Under double entry a
  game still ``entered`` may be *withheld* (its racks not shown, not in the
  totals) so that the phone giving the second entry types its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import wraps
from typing import Concatenate, ParamSpec

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from tournaments.access import game_racks_withheld, tournament_organiser
from tournaments.caching import TournamentHead
from tournaments.models import Game, Match, Rack, Round, Seat, Tournament
from tournaments.selectors.tournaments import tournament_head_visible, tournament_visible
from tournaments.standings.current import final_winner

P = ParamSpec("P")
LOGIN_URL = "web:login"


def tournament_shown(request: HttpRequest, slug: str) -> Tournament:
    """The tournament with that slug if the user may see it; else 404."""
    tournament = tournament_visible(user=request.user, slug=slug)
    if tournament is None:
        raise Http404
    return tournament


def tournament_head_shown(request: HttpRequest, slug: str) -> TournamentHead:
    """The head of the tournament with that slug (``caching.TournamentHead``)
    if the user may see it; else 404. A live answer reads it first; the
    tournament itself only when the answer is not a 304."""
    head = tournament_head_visible(user=request.user, slug=slug)
    if head is None:
        raise Http404
    return head


def can_organise(request: HttpRequest, tournament: Tournament) -> bool:
    return tournament_organiser(user=request.user, tournament=tournament)


def organiser_required(
    view: Callable[Concatenate[HttpRequest, Tournament, P], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Log in, see the tournament (else 404), organise it (else 403)."""

    @login_required(login_url=LOGIN_URL)
    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        tournament = tournament_shown(request, slug)
        if not can_organise(request, tournament):
            raise PermissionDenied
        return view(request, tournament, *args, **kwargs)

    return wrapped


def desk_action(
    view: Callable[Concatenate[HttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """POST only: anything else gets the desk-action page (405), before any login check."""

    @wraps(view)
    def wrapped(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if request.method == "POST":
            return view(request, *args, **kwargs)
        # Only the address's own slug: the page tells nothing about the tournament.
        desk = reverse("web:organise", kwargs={"slug": kwargs["slug"]})
        response = render(request, "tournaments/desk/post_only.html", {"desk": desk}, status=405)
        response["Allow"] = "POST"
        return response

    return wrapped


@dataclass
class MatchLayout:
    """A match laid out for a page: seats, and each game's racks in seat order."""

    match: Match
    seats: list[Seat]
    games: list[tuple[Game, list[Rack | None]]]
    totals: list[Decimal]
    withheld: frozenset[int] = frozenset()

    @property
    def planned(self) -> int:
        return self.match.round.games_per_match

    @property
    def first_to(self) -> int:
        """N when this match is a final played until a player has won N games, else 0."""
        round_ = self.match.round
        return round_.tournament.final_first_to if round_.stage == Round.Stage.FINAL else 0

    @property
    def decided_by(self) -> str:
        """A final played to N wins: the name of the player who has them ("" until then)."""
        if not self.first_to:
            return ""
        wins = Counter(
            rack.player_id
            for _game, racks in self.games
            for rack in racks
            if rack is not None and rack.winner
        )
        won = final_winner(wins=wins, first_to=self.first_to)
        return next((s.player.name for s in self.seats if won and s.player_id == won[0]), "")

    @property
    def decided(self) -> bool:
        """A final played to N wins where a player has them: no further game is played."""
        return bool(self.decided_by)

    @property
    def complete(self) -> bool:
        return len(self.games) >= self.planned or self.decided

    @property
    def unconfirmed_shown(self) -> bool:
        """Whether a game awaiting confirmation (entered or disputed) is shown, so in the totals."""
        return any(
            game.state != Game.State.CONFIRMED and game.pk not in self.withheld
            for game, _racks in self.games
        )

    @property
    def last_game(self) -> Game | None:
        return self.games[-1][0] if self.games else None


def match_layout(match: Match, *, withhold: bool = False) -> MatchLayout:
    """Lay out a match whose seats and games (with racks) are prefetched.

    ``withhold``: leave out the racks of games waiting for a second entry
    (double entry only), from the rows and from the totals.
    """
    seats = list(match.seats.all())
    games: list[tuple[Game, list[Rack | None]]] = []
    totals = [Decimal(0)] * len(seats)
    tournament = match.round.tournament
    withheld: set[int] = set()
    for game in match.games.all():
        if game_racks_withheld(game=game, tournament=tournament, organiser=not withhold):
            withheld.add(game.pk)
            games.append((game, [None] * len(seats)))
            continue
        by_player = {r.player_id: r for r in game.racks.all()}
        racks = [by_player.get(s.player_id) for s in seats]
        for i, rack in enumerate(racks):
            if rack is not None:
                totals[i] += rack.score + rack.bonus  # a total counts the bonuses too
        games.append((game, racks))
    return MatchLayout(
        match=match, seats=seats, games=games, totals=totals, withheld=frozenset(withheld)
    )
