"""The match page: the table's own page, ``/m/<token>/``.

Vocabulary: the *token* is the match's private code, printed as a QR code on
its score sheet; whoever holds it may record that match's games, one after the
other, without logging in. The page opens in the tournament's language
(``web.table_language``: its QR code carries the prefix, ``/da/m/<token>/``).
A *correction* replaces the last recorded game and stays with the
tournament's organisers, as in the API. A stale correction
(the game changed since the page was drawn) is refused by its ``version``.

The form always names the game it enters (the *offer*): under double entry
first a game entered elsewhere that waits for its *second entry* and that
this phone may second (``services.results.second_entry_refusal``: not its own
entry, and entered after this phone's session first opened the page),
otherwise the next new game; a game that waits for a second entry from
another phone is said so. Each form drawn carries its own ``entry_key``.
A game whose number is already recorded is *taken*: the page answers 409
with that game's racks beside the form, nothing stored. Once the tournament
is finished the page says results are closed and any POST answers 409 with
it. A *replaced* link (an organiser made the table a new one)
answers 410 saying so, with any racks that were posted shown back, unstored.

Every write answers with a redirect (POST-redirect-GET); a refused write
(``UserError``) stores nothing and is shown next to the input it concerns.

The page's *state* (``/m/<token>/state/``) is what its script polls: the
match's version (``caching.match_version``: a game of this table, or a change
to the tournament's settings, names or seating), answered ``304`` while it
stands (``tournaments.live``); when it moves, the script fetches the page's
games again. A replaced link's state answers 410, so the page reloads to say so.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
    QueryDict,
)
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from scoring.rules import GAME_NUMBER_MAX
from tournaments.caching import match_version
from tournaments.game_numbers import game_number_next
from tournaments.live import live_answer, match_tag
from tournaments.models import Game, Match, Rack, Seat, Tournament
from tournaments.racks_entered import game_racks_entered
from tournaments.selectors.matches import match_detail, match_replaced
from tournaments.services.results import game_entry_source_mark, second_entry_refusal
from tournaments.web.forms import GameCorrectForm, GameForm
from tournaments.web.game_posts import (
    ENTRY_KEY_FIELD,
    PostedGame,
    game_posted_correct,
    game_posted_enter,
    games_mine,
    games_mine_add,
    match_joined_mark,
    page_source,
)
from tournaments.web.pages import MatchLayout, can_organise, match_layout
from tournaments.web.table_language import table_language_redirect


@dataclass(frozen=True)
class Offer:
    """The game the form enters: a new one, or a second entry of ``number``."""

    number: int
    second: bool


def _match_by_token(token: str) -> Match:
    try:
        return match_detail(token=token)
    except Match.DoesNotExist:
        raise Http404 from None


@dataclass(frozen=True)
class TypedRack:
    """A rack as a visitor typed it, shown back as text (never checked or stored)."""

    seat: Seat
    tiles: str
    points: str
    jokers: str


def _typed_racks(request: HttpRequest, seats: list[Seat], prefix: str) -> list[TypedRack]:
    if request.method != "POST":
        return []
    typed = [
        TypedRack(
            seat=seat,
            **{
                name: str(request.POST.get(f"{prefix}p{seat.position}_{name}", ""))[:200].strip()
                for name in ("tiles", "points", "jokers")
            },
        )
        for seat in seats
    ]
    return typed if any(r.tiles or r.points or r.jokers for r in typed) else []


def _replaced_page(request: HttpRequest, token: str, *, prefix: str = "") -> HttpResponse:
    """A link an organiser replaced: 410 with where to go, and any racks typed
    (shown back so they can be entered on the new link). Else 404."""
    match = match_replaced(token=token)
    if match is None:
        raise Http404
    seats = list(match.seats.select_related("player").order_by("position"))
    return render(
        request,
        "tournaments/match_replaced.html",
        {
            "match": match,
            "tournament": match.round.tournament,
            "typed": _typed_racks(request, seats, prefix),
            "ending": dict(Game.Ending.choices).get(str(request.POST.get(f"{prefix}ending", ""))),
        },
        status=410,
    )


@dataclass
class Awaiting:
    """Games waiting for a second entry that this phone may not make: its own
    (``mine``), and those entered before it opened the page (``elsewhere``)."""

    mine: list[Game]
    elsewhere: list[Game]


def _offer(request: HttpRequest, view: MatchLayout) -> tuple[Offer | None, Awaiting]:
    """The game to offer, and the games that wait for another phone's entry."""
    tournament = view.match.round.tournament
    awaiting = Awaiting([], [])
    if tournament.confirmation == Tournament.Confirmation.DOUBLE_ENTRY:
        mine = games_mine(request, match=view.match)
        source = page_source(request, match=view.match)
        for game, _racks in view.games:
            if game.state != Game.State.ENTERED:
                continue
            refusal = None if game.number in mine else second_entry_refusal(game, source)
            if game.number in mine or refusal in {"own_entry", "same_phone"}:
                awaiting.mine.append(game)
            elif refusal is not None:
                awaiting.elsewhere.append(game)
            else:
                return Offer(game.number, second=True), awaiting
    # A decided final (played to N wins) offers no further game.
    number = (
        None
        if view.decided
        else game_number_next(
            taken=(game.number for game, _racks in view.games), planned=view.planned
        )
    )
    return (Offer(number, second=False) if number is not None else None), awaiting


def _game_shown(view: MatchLayout, game: Game) -> list[tuple[Seat, Rack | None]]:
    racks = next((r for g, r in view.games if g.pk == game.pk), [None] * len(view.seats))
    return list(zip(view.seats, racks, strict=True))


def _number_shown(form: GameForm | None, offer: Offer | None, view: MatchLayout) -> int | None:
    """The game number the heading names: the posted one if it is a game of this
    table still free, else the offered one (the form is set to post that one)."""
    number = offer.number if offer is not None else None
    if form is None or not form.is_bound:
        return number
    posted = form.cleaned_data.get("number") if hasattr(form, "cleaned_data") else None
    taken = {game.number for game, _racks in view.games}
    if isinstance(posted, int) and 1 <= posted <= view.planned and posted not in taken:
        return posted
    if number is not None:
        # Never echo a junk number back: the form posts the number its heading names.
        data = QueryDict(mutable=True)
        data.update(form.data)
        data["number"] = str(number)
        form.data = data
    return number


def _taken_message(posted: PostedGame, view: MatchLayout) -> str:
    taken = posted.taken
    if taken is None or posted.error is None:
        return ""
    if taken.pk in view.withheld and not posted.own:
        return gettext("Game %(number)s waits for a second entry.") % {"number": taken.number}
    return posted.error.render(gettext)


def _match_page(
    request: HttpRequest,
    match: Match,
    *,
    posted: PostedGame | None = None,
    correct_form: GameCorrectForm | None = None,
    status: int = 200,
) -> HttpResponse:
    tournament = match.round.tournament
    organiser = can_organise(request, tournament)
    view = match_layout(match, withhold=not organiser)
    offer, awaiting = _offer(request, view)
    waiting, elsewhere = awaiting.mine, awaiting.elsewhere
    taken = posted.taken if posted is not None else None
    if taken is not None:
        # The refusal already says it: no second notice about the same game.
        waiting = [game for game in waiting if game.pk != taken.pk]
        elsewhere = [game for game in elsewhere if game.pk != taken.pk]
    match_joined_mark(request, match=match)
    form: GameForm | None = None
    if posted is not None and taken is None and offer is not None:
        form = posted.form  # shown again with its errors, under the number it named
    elif offer is not None:
        form = GameForm(seats=view.seats, number=offer.number)
    number = _number_shown(form, offer, view)
    last = view.last_game
    if correct_form is None and last is not None and organiser:
        racks = game_racks_entered(racks=[r for r in view.games[-1][1] if r is not None])
        correct_form = GameCorrectForm(
            seats=view.seats,
            prefix="fix",
            initial={
                "ending": last.ending,
                "game": last.number,
                "version": last.version,
                **GameForm.racks_initial(seats=view.seats, racks=racks),
            },
        )
    return render(
        request,
        "tournaments/match_entry.html",
        {
            "match": match,
            "tournament": tournament,
            "frozen": tournament.is_finished,
            "view": view,
            "states": tournament.confirmation != Tournament.Confirmation.NONE,
            "form": form,
            "number": number,
            "second": offer is not None and offer.second and number == offer.number,
            "waiting": waiting,
            "elsewhere": elsewhere,
            # One key per form drawn (``game_posts.page_source``).
            "entry_key_field": ENTRY_KEY_FIELD,
            "entry_key": secrets.token_urlsafe(16),
            "taken": taken,
            "taken_message": _taken_message(posted, view) if posted is not None else "",
            "taken_withheld": taken is not None and taken.pk in view.withheld,
            "taken_racks": _game_shown(view, taken) if taken is not None else [],
            # A game posted after the last one was recorded: say why it was refused.
            "refused": (
                posted.form.non_field_errors()
                if posted is not None and form is None and taken is None
                else []
            ),
            "correct_form": correct_form,
            "correct_open": correct_form is not None and correct_form.is_bound,
            "can_organise": organiser,
            "mine": sorted(games_mine(request, match=match)),
        },
        status=status,
    )


def _frozen(match: Match) -> bool:
    return match.round.tournament.is_finished


def match_entry(request: HttpRequest, token: str) -> HttpResponse:
    """Show a match's games; POST enters the game its form names."""
    try:
        match = _match_by_token(token)
    except Http404:
        return _replaced_page(request, token)
    if request.method != "POST":
        # The tournament's language (or the visitor's own choice): web.table_language.
        moved = table_language_redirect(request, match.round.tournament)
        return moved or _match_page(request, match)
    if _frozen(match):
        return _match_page(request, match, status=409)
    posted = game_posted_enter(request, match=match)
    match_joined_mark(request, match=match)
    if posted.entered is not None:
        return redirect("web:match", token=token)
    # Read again: a taken game may have been stored since the page was drawn.
    return _match_page(request, _match_by_token(token), posted=posted, status=posted.status)


@require_POST
def match_correct(request: HttpRequest, token: str) -> HttpResponse:
    """Correct a recorded game of the match (the page offers the last one).

    Organisers only, as in the API: the token lets a table record its games,
    while corrections stay with the people answerable for the results.
    """
    try:
        match = _match_by_token(token)
    except Http404:
        return _replaced_page(request, token, prefix="fix-")
    if not can_organise(request, match.round.tournament):
        raise PermissionDenied
    if _frozen(match):
        return _match_page(request, match, status=409)
    form, corrected = game_posted_correct(request, match=match, prefix="fix")
    if corrected:
        return redirect("web:match", token=token)
    return _match_page(request, match, correct_form=form, status=400)


@require_POST
def match_mine(request: HttpRequest, token: str) -> HttpResponse:
    """Mark game ``number`` as entered on this phone, as a game posted from the
    page is: the offline queue sends its games through the API, which knows
    no phone. The mark grants nothing; it only keeps this phone from typing
    that game's second entry as well."""
    match = _match_by_token(token)
    number = request.POST.get("number", "")
    if not number.isdigit() or not 1 <= int(number) <= GAME_NUMBER_MAX:
        return HttpResponseBadRequest(gettext("Send the number of a recorded game."))
    game = match.games.filter(number=int(number)).first()
    if game is None:
        raise Http404
    games_mine_add(request, match=match, number=int(number))
    match_joined_mark(request, match=match)
    # The session is kept among the game's sources: it cannot second the game either.
    request.session.save()
    game_entry_source_mark(game=game, source=page_source(request, match=match))
    return HttpResponse(status=204)


@require_safe
def match_state(request: HttpRequest, token: str) -> HttpResponse:
    """The match's version as JSON, ``304`` to the ``ETag`` it last answered."""
    found = match_version(token=token)
    if found is None:
        if match_replaced(token=token) is None:
            raise Http404
        return JsonResponse({"replaced": True}, status=410)
    match, version = found
    tag = match_tag(tournament=match.round.tournament, match_id=match.pk, version=version)
    return live_answer(request, tag=tag, answer=lambda: JsonResponse({"version": version}))
