"""A game form posted from any page (the table's match page, the desk), put
through the game services.

Vocabulary: a *posted* game is a bound ``GameForm`` (enter the game whose
number the page showed) or ``GameCorrectForm`` (correct a recorded one). Each
function binds the form, calls the service, shows the success message and
answers whether the game was stored; a refusal is put on the form at its
field, nothing stored, and the page shows the form again.

An *entry* names its game number. A number already recorded is *taken*: the
page shows that game instead of storing another one (two phones at one
table). Under double entry a game still ``entered`` takes a second entry,
which confirms or disputes it; the numbers this browser entered for a match
are *mine* (kept in the session), so that a phone is never offered its own
entry to confirm. What the server holds to is the entry's *source*
(``services.results.EntrySource``): the phone's session, the form's
``entry_key`` and the session's *joining* (when it first opened the table's
page, kept in the session too), so that neither the same session, nor the
same form sent again, nor a session begun after the first entry (cookies
cleared) makes a second entry. A refused entry is kept in the match's history
(``game_entry_refused``, ``game_entry_conflict``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext

from scoring.errors import ConflictError, UserError, _
from tournaments.access import tournament_organiser
from tournaments.models import Game, Match, Tournament
from tournaments.services.games import GameTakenError, game_correct
from tournaments.services.results import (
    EntrySource,
    GameEntered,
    SecondEntryRefusedError,
    entry_source_page,
    game_enter,
    game_entry_conflict,
    game_entry_refused,
)
from tournaments.web.forms import GameCorrectForm, GameForm


def _mine_key(match: Match) -> str:
    return f"games_entered_{match.pk}"


def games_mine(request: HttpRequest, *, match: Match) -> set[int]:
    """The game numbers this browser entered for the match."""
    return {n for n in request.session.get(_mine_key(match), []) if isinstance(n, int)}


def games_mine_add(request: HttpRequest, *, match: Match, number: int) -> None:
    request.session[_mine_key(match)] = sorted(games_mine(request, match=match) | {number})


def _joined_key(match: Match) -> str:
    return f"match_joined_{match.pk}"


def match_joined(request: HttpRequest, *, match: Match) -> dt.datetime | None:
    """When this browser's session first opened the match's page (None: never)."""
    value = request.session.get(_joined_key(match))
    try:
        return dt.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def match_joined_mark(request: HttpRequest, *, match: Match) -> None:
    """Keep when this session first opened the match's page (once; only under
    double entry, the one rule that asks: other pages write no session)."""
    double = match.round.tournament.confirmation == Tournament.Confirmation.DOUBLE_ENTRY
    if double and match_joined(request, match=match) is None:
        request.session[_joined_key(match)] = timezone.now().isoformat()


# The form's own key, one per page drawn: the same form sent twice is one entry.
ENTRY_KEY_FIELD = "entry_key"
ENTRY_KEY_MAX = 100


def page_source(request: HttpRequest, *, match: Match) -> EntrySource:
    """Where an entry posted from this browser comes from (``EntrySource``)."""
    key = request.POST.get(ENTRY_KEY_FIELD, "") if request.method == "POST" else ""
    if request.method == "POST" and request.session.session_key is None:
        request.session.save()  # a phone posting first: its entry names its session too
    return entry_source_page(
        user=request.user,
        session_key=request.session.session_key or "",
        key=str(key)[:ENTRY_KEY_MAX],
        joined=match_joined(request, match=match),
    )


@dataclass
class PostedGame:
    """What a posted entry did: ``entered`` when stored; ``taken`` when its
    number was already recorded (nothing stored); ``error`` on any refusal."""

    form: GameForm
    entered: GameEntered | None = None
    taken: Game | None = None
    error: UserError | None = None
    # taken: a game waiting for another entry than this one (the refusal says why)
    own: bool = False

    @property
    def status(self) -> int:
        return self.error.status if self.error is not None else 400


def _entered_message(request: HttpRequest, entered: GameEntered, match: Match) -> None:
    game, number = entered.game, {"number": entered.game.number}
    if entered.outcome == "confirmed":
        messages.success(
            request, gettext("Game %(number)s confirmed: both entries agree.") % number
        )
    elif entered.outcome == "disputed":
        messages.warning(
            request,
            gettext("Game %(number)s differs from the first entry; an organiser will decide.")
            % number,
        )
    elif game.state != Game.State.ENTERED:
        messages.success(request, gettext("Game %(number)s recorded.") % number)
    elif match.round.tournament.confirmation == Tournament.Confirmation.DOUBLE_ENTRY:
        messages.success(
            request,
            gettext(
                "Game %(number)s recorded; it counts once entered a second time, on another "
                "phone or by an organiser."
            )
            % number,
        )
    else:
        messages.success(
            request, gettext("Game %(number)s recorded; an organiser will confirm it.") % number
        )


def game_posted_enter(request: HttpRequest, *, match: Match) -> PostedGame:
    """Enter the posted game under the number its form showed."""
    form = GameForm(request.POST, seats=list(match.seats.all()))
    if not form.is_valid():
        return PostedGame(form)
    number: int = form.cleaned_data["number"]
    ending, racks = form.cleaned_data["ending"], form.racks()
    try:
        entered = game_enter(
            match=match,
            ending=ending,
            racks=racks,
            number=number,
            user=request.user,
            source=page_source(request, match=match),
        )
    except SecondEntryRefusedError as refused:
        # Kept as a trace, after the refused entry's transaction.
        game_entry_refused(
            match=match,
            number=number,
            ending=ending,
            racks=racks,
            reason=refused.reason,
            user=request.user,
            game=refused.game,
        )
        form.user_error_add(refused)
        return PostedGame(form, taken=refused.game, error=refused, own=True)
    except GameTakenError as taken:
        game_entry_conflict(
            taken=taken.game, match=match, ending=ending, racks=racks, user=request.user
        )
        error: UserError = taken
        if tournament_organiser(user=request.user, tournament=match.round.tournament):
            # An organiser is not "this table": the same refusal, in words that suit a desk.
            error = ConflictError(
                _("Game %(number)s is already recorded: here it is."),
                field="number",
                code="game_taken",
                number=taken.game.number,
            )
        form.user_error_add(error)
        return PostedGame(form, taken=taken.game, error=error)
    except UserError as error:
        form.user_error_add(error)
        return PostedGame(form, error=error)
    games_mine_add(request, match=match, number=entered.game.number)
    _entered_message(request, entered, match)
    return PostedGame(form, entered=entered)


def game_posted_record(request: HttpRequest, *, match: Match) -> tuple[GameForm, bool]:
    """Enter the posted game; the form, and whether anything was stored."""
    posted = game_posted_enter(request, match=match)
    return posted.form, posted.entered is not None


def game_posted_correct(
    request: HttpRequest, *, match: Match, prefix: str
) -> tuple[GameCorrectForm, bool]:
    """Correct the recorded game the posted form names (any game of the match)."""
    form = GameCorrectForm(request.POST, seats=list(match.seats.all()), prefix=prefix)
    if not form.is_valid():
        return form, False
    game = next((g for g in match.games.all() if g.number == form.cleaned_data["game"]), None)
    if game is None:
        form.add_error(None, gettext("That game no longer exists; reload the page."))
        return form, False
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
        return form, False
    messages.success(request, gettext("Game %(number)s corrected.") % {"number": game.number})
    return form, True
