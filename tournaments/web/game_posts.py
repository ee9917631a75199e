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
are *mine* (kept in the session), so that a phone is never offered, and
never allowed, to confirm its own entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext

from scoring.errors import ConflictError, UserError, _
from tournaments.access import tournament_organiser
from tournaments.models import Game, Match, Tournament
from tournaments.services.games import GameTakenError, game_correct
from tournaments.services.results import GameEntered, game_enter
from tournaments.web.forms import GameCorrectForm, GameForm


def _mine_key(match: Match) -> str:
    return f"games_entered_{match.pk}"


def games_mine(request: HttpRequest, *, match: Match) -> set[int]:
    """The game numbers this browser entered for the match."""
    return {n for n in request.session.get(_mine_key(match), []) if isinstance(n, int)}


def games_mine_add(request: HttpRequest, *, match: Match, number: int) -> None:
    request.session[_mine_key(match)] = sorted(games_mine(request, match=match) | {number})


@dataclass
class PostedGame:
    """What a posted entry did: ``entered`` when stored; ``taken`` when its
    number was already recorded (nothing stored); ``error`` on any refusal."""

    form: GameForm
    entered: GameEntered | None = None
    taken: Game | None = None
    error: UserError | None = None
    own: bool = False  # taken: the game this browser entered itself, waiting for another entry

    @property
    def status(self) -> int:
        return self.error.status if self.error is not None else 400


def _own_entry_error(number: int) -> ConflictError:
    return ConflictError(
        _(
            "You entered game %(number)s on this phone: its second entry has to come from "
            "another phone or an organiser."
        ),
        field="number",
        number=number,
    )


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
    if number in games_mine(request, match=match):
        existing = match.games.filter(number=number, state=Game.State.ENTERED).first()
        if existing is not None:
            # A match link has no user, so only the session tells the same phone apart.
            error = _own_entry_error(number)
            form.user_error_add(error)
            return PostedGame(form, taken=existing, error=error, own=True)
    try:
        entered = game_enter(
            match=match,
            ending=form.cleaned_data["ending"],
            racks=form.racks(),
            number=number,
            user=request.user,
        )
    except GameTakenError as taken:
        error = taken
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
