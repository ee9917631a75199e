"""A game form posted from any page (the table's match page, the desk), put
through the game services.

Vocabulary: a *posted* game is a bound ``GameForm`` (record the next game) or
``GameCorrectForm`` (correct a recorded one). Each function binds the form,
calls the service, shows the success message and answers whether the game was
stored; a refusal is put on the form at its field, nothing stored, and the
page shows the form again.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext

from scoring.errors import UserError

from ..models import Match
from ..services.games import game_correct, game_record
from .forms import GameCorrectForm, GameForm


def game_posted_record(request: HttpRequest, *, match: Match) -> tuple[GameForm, bool]:
    """Record the posted game as the match's next one."""
    form = GameForm(request.POST, seats=list(match.seats.all()))
    if not form.is_valid():
        return form, False
    try:
        game = game_record(
            match=match, ending=form.cleaned_data["ending"], racks=form.racks(), user=request.user
        )
    except UserError as error:
        form.user_error_add(error)
        return form, False
    messages.success(request, gettext("Game %(number)s recorded.") % {"number": game.number})
    return form, True


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
