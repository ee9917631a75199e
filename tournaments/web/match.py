"""The match page: the table's own page, ``/m/<token>/``.

Vocabulary: the *token* is the match's private code, printed as a QR code on
its score sheet; whoever holds it may record that match's games, one after the
other, without logging in. A *correction* replaces the last recorded game and
stays with the tournament's organisers, as in the API. A stale correction
(the game changed since the page was drawn) is refused by its ``version``.

Every write answers with a redirect (POST-redirect-GET); a refused write
(``UserError``) stores nothing and is shown next to the input it concerns.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from ..models import Match, Tournament
from ..selectors import match_detail
from ..services.games import game_racks_entered
from .forms import GameCorrectForm, GameForm
from .game_posts import game_posted_correct, game_posted_record
from .pages import can_organise, match_view


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
    tournament = match.round.tournament
    return render(
        request,
        "tournaments/match_entry.html",
        {
            "match": match,
            "tournament": tournament,
            "frozen": tournament.status == Tournament.Status.FINISHED,
            "view": view,
            "form": form if not view.complete else None,
            # A game posted after the last one was recorded: say why it was refused.
            "refused": form.non_field_errors() if form is not None and view.complete else [],
            "correct_form": correct_form,
            "correct_open": correct_form is not None and correct_form.is_bound,
            "can_organise": can_organise(request, tournament),
        },
        status=status,
    )


def match_entry(request: HttpRequest, token: str) -> HttpResponse:
    """Show a match's games; POST records the next one."""
    match = _match_by_token(token)
    if request.method != "POST":
        return _match_page(request, match)
    form, recorded = game_posted_record(request, match=match)
    if recorded:
        return redirect("web:match", token=token)
    return _match_page(request, match, form=form, status=400)


@require_POST
def match_correct(request: HttpRequest, token: str) -> HttpResponse:
    """Correct a recorded game of the match (the page offers the last one).

    Organisers only, as in the API: the token lets a table record its games,
    while corrections stay with the people answerable for the results.
    """
    match = _match_by_token(token)
    if not can_organise(request, match.round.tournament):
        raise PermissionDenied
    form, corrected = game_posted_correct(request, match=match, prefix="fix")
    if corrected:
        return redirect("web:match", token=token)
    return _match_page(request, match, correct_form=form, status=400)
