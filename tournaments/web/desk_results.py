"""Results on the organiser desk: one match's games, and the adjustments.

Vocabulary: the *match desk* (``/t/<slug>/organise/tables/<match id>/``) is
the organiser's page for one table of any round: its games with their scores,
the form for the next game, a *correction* of any recorded game (chosen with
``?correct=<game number>``, checked against the game's ``version`` so that a
stale page is refused), a *deletion* behind a confirmation page, and the
match's *history*: every record, correction, deletion, confirmation, dispute
and restoring, with the racks as they were then (a deletion whose game is not
back offers to restore it; a correction of a disputed game is *noted* as the
second entry taken, or as settling the dispute), and every *refused* entry
with the racks that were sent (no scores: nothing was stored) and why. Each
game shows its state; confirming, settling a dispute, restoring and a table's
new link are ``desk_trust``'s and ``desk_audit``'s actions. An *adjustment
deletion* takes back an organiser's penalty or bonus, also behind a
confirmation page.

Every write runs one service (``services.games``, ``services.adjustments``)
and answers with a redirect to the page the organiser came from
(POST-redirect-GET); a refusal (``UserError``) stores nothing and is shown
next to the input it concerns, or at the top of the page. Only the
tournament's organisers get here (``pages.organiser_required``): a match's
token opens the table's own page, never the desk.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy

from scoring import rules
from scoring.errors import UserError
from tournaments.game_numbers import game_number_next
from tournaments.models import AuditEvent, Game, Match, Seat, Tournament
from tournaments.racks_entered import game_racks_entered
from tournaments.selectors.audit import game_history_of
from tournaments.selectors.entries import adjustment_of
from tournaments.selectors.matches import match_detail
from tournaments.services import adjustments as adjustment_services
from tournaments.services.games import game_delete
from tournaments.web.forms import GameCorrectForm, GameForm
from tournaments.web.game_posts import game_posted_correct, game_posted_record
from tournaments.web.pages import MatchLayout, match_layout, organiser_required

CORRECT_PREFIX = "fix"


def match_of(tournament: Tournament, match_id: int) -> Match:
    """The tournament's match with that id, laid out for a page; else 404."""
    try:
        match = match_detail(match_id=match_id)
    except Match.DoesNotExist:
        raise Http404 from None
    if match.round.tournament_id != tournament.pk:
        raise Http404
    match.round.tournament = tournament  # already read, with its rules
    return match


def _game_of(view: MatchLayout, number: int) -> Game | None:
    return next((game for game, _racks in view.games if game.number == number), None)


def _next_number(view: MatchLayout) -> int | None:
    """The number the next recorded game gets (None: all are recorded)."""
    return game_number_next(
        taken=(game.number for game, _racks in view.games), planned=view.planned
    )


def correct_form_for(view: MatchLayout, game: Game) -> GameCorrectForm:
    """A correction form holding the game as it was entered, at its version."""
    racks = next(r for g, r in view.games if g.pk == game.pk)
    entered = game_racks_entered(racks=[r for r in racks if r is not None])
    return GameCorrectForm(
        seats=view.seats,
        prefix=CORRECT_PREFIX,
        initial={
            "ending": game.ending,
            "game": game.number,
            "version": game.version,
            **GameForm.racks_initial(seats=view.seats, racks=entered),
        },
    )


@dataclass(frozen=True)
class HistoryRack:
    """One rack of a history line, as it was then."""

    tiles: str | None
    points: int
    jokers: int
    score: Decimal | None  # None: a refused entry's rack, never scored
    winner: bool


@dataclass(frozen=True)
class HistoryLine:
    """One event of a game's history with its racks in seat order (``None``: the
    seat had no rack)."""

    revision: AuditEvent
    ending: str
    racks: list[HistoryRack | None]
    # A deletion whose game is not back, and the game's last one: it can be restored.
    restorable: bool = False
    # What a correction of a disputed game was (``game_event_note``).
    note: str = ""


def _entered(body: Any) -> Any:
    """A game's ending and racks as entered (``rules.rack_from_json``: a history's
    snapshot and a second entry alike), to compare two versions."""
    if not isinstance(body, dict):
        return None
    racks = [rules.rack_from_json(r) for r in body.get("racks", []) if isinstance(r, dict)]
    return (
        body.get("ending"),
        # Points without jokers are no jokers, as the engine reads them.
        [(r.player, r.tiles, r.points or 0, r.jokers or 0) for r in racks],
    )


# Why an entry was refused (``services.results.Refusal``), as the history says it.
REFUSAL_NOTES = {
    "own_entry": gettext_lazy("a second entry by the organiser who made the first"),
    "same_phone": gettext_lazy("a second entry from the phone that made the first"),
    "joined_late": gettext_lazy(
        "a second entry from a phone that opened the page after the first entry"
    ),
    "same_key": gettext_lazy("the first entry sent again"),
    "link_api": gettext_lazy("a second entry sent with the match token through the API"),
    "taken": gettext_lazy("the game was recorded already, with other racks"),
}


def game_event_note(event: AuditEvent, seconds: dict[Any, Any]) -> str:
    """What a correction of a disputed game was: the second entry taken (when
    the dispute is among the events read, in ``seconds`` by match and number),
    or a correction that settles the dispute; for a refused entry, why."""
    if event.action == AuditEvent.Action.GAME_REFUSED:
        reason = event.new.get("reason") if isinstance(event.new, dict) else None
        return str(REFUSAL_NOTES.get(str(reason), ""))
    old = event.old if isinstance(event.old, dict) else {}
    if event.action != AuditEvent.Action.GAME_CORRECTED or old.get("state") != Game.State.DISPUTED:
        return ""
    second = seconds.get((event.match_id, event.game_number))
    if second is not None and _entered(second) == _entered(event.new):
        return gettext("the second entry taken")
    return gettext("settles the dispute")


def history_lines(*, revisions: list[AuditEvent], seats: list[Seat]) -> list[HistoryLine]:
    """The history's snapshots laid out by seat, as the games grid is."""
    endings = dict(Game.Ending.choices)
    lines = []
    seconds: dict[Any, Any] = {}
    for revision in revisions:
        snapshot: dict[str, Any] = revision.new or revision.old or {}
        sent = revision.action == AuditEvent.Action.GAME_REFUSED
        by_player = {r.get("player"): r for r in snapshot.get("racks", [])}
        racks: list[HistoryRack | None] = []
        for seat in seats:
            rack = by_player.get(seat.player_id)
            racks.append(
                None
                if rack is None
                else HistoryRack(
                    tiles=rack.get("tiles"),
                    points=rack.get("points") or 0,
                    jokers=rack.get("jokers") or 0,
                    score=None if sent else Decimal(str(rack.get("score") or 0)),
                    winner=bool(rack.get("winner")),
                )
            )
        ending = str(snapshot.get("ending", ""))
        restorable = bool(getattr(revision, "restorable", False))
        lines.append(
            HistoryLine(
                revision=revision,
                ending=str(endings.get(ending, ending)),
                racks=racks,
                restorable=restorable,
                note=game_event_note(revision, seconds),
            )
        )
        if revision.action == AuditEvent.Action.GAME_DISPUTED and isinstance(revision.new, dict):
            seconds[(revision.match_id, revision.game_number)] = revision.new.get("second_entry")
    return lines


def _desk_page(
    request: HttpRequest,
    tournament: Tournament,
    match: Match,
    *,
    form: GameForm | None = None,
    correct_form: GameCorrectForm | None = None,
    status: int = 200,
) -> HttpResponse:
    view = match_layout(match)
    if form is None and not view.complete:
        form = GameForm(seats=view.seats)
    correcting = None
    if correct_form is None:
        chosen = request.GET.get("correct", "")
        correcting = _game_of(view, int(chosen)) if chosen.isdigit() else None
        if correcting is not None:
            correct_form = correct_form_for(view, correcting)
    elif correct_form.is_bound:
        number = correct_form.data.get(f"{CORRECT_PREFIX}-game", "")
        correcting = _game_of(view, int(number)) if str(number).isdigit() else None
    return render(
        request,
        "tournaments/desk/match.html",
        {
            "tournament": tournament,
            "frozen": tournament.is_finished,
            "match": match,
            "view": view,
            "form": form if not view.complete else None,
            "refused": form.non_field_errors() if form is not None and view.complete else [],
            "next_number": _next_number(view),
            "correct_form": correct_form,
            "correcting": correcting,
            "history": history_lines(
                revisions=list(game_history_of(match=match)), seats=view.seats
            ),
            "can_organise": True,
        },
        status=status,
    )


@organiser_required
def desk_match(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    """A match on the desk; POST records its next game."""
    match = match_of(tournament, match_id)
    if request.method != "POST":
        return _desk_page(request, tournament, match)
    form, recorded = game_posted_record(request, match=match)
    if recorded:
        return redirect("web:desk-match", slug=tournament.slug, match_id=match.pk)
    return _desk_page(request, tournament, match, form=form, status=400)


@organiser_required
def desk_game_correct(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    """Correct any recorded game of the match (POST only; GET shows the match)."""
    match = match_of(tournament, match_id)
    if request.method != "POST":
        return redirect("web:desk-match", slug=tournament.slug, match_id=match.pk)
    form, corrected = game_posted_correct(request, match=match, prefix=CORRECT_PREFIX)
    if corrected:
        return redirect("web:desk-match", slug=tournament.slug, match_id=match.pk)
    return _desk_page(request, tournament, match, correct_form=form, status=400)


@organiser_required
def desk_game_delete(
    request: HttpRequest, tournament: Tournament, match_id: int, number: int
) -> HttpResponse:
    """GET asks for a confirmation; POST (with the game's version) deletes the game."""
    match = match_of(tournament, match_id)
    view = match_layout(match)
    game = _game_of(view, number)
    if game is None:
        raise Http404
    errors: list[str] = []
    status = 200
    if request.method == "POST":
        version = request.POST.get("version", "")
        try:
            game_delete(
                game=game, version=int(version) if version.isdigit() else None, user=request.user
            )
        except UserError as error:
            errors.append(error.render(gettext))
            status = error.status
            # Show the game as it is now, with its current version to confirm.
            game.refresh_from_db()
            view = match_layout(match_of(tournament, match_id))
        else:
            messages.success(request, gettext("Game %(number)s deleted.") % {"number": number})
            return redirect("web:desk-match", slug=tournament.slug, match_id=match.pk)
    racks = next(r for g, r in view.games if g.number == number)
    return render(
        request,
        "tournaments/desk/game_delete_confirm.html",
        {
            "tournament": tournament,
            "match": match,
            "view": view,
            "game": game,
            "racks": list(zip(view.seats, racks, strict=True)),
            "errors": errors,
        },
        status=status,
    )


@organiser_required
def adjustment_delete(
    request: HttpRequest, tournament: Tournament, adjustment_id: int
) -> HttpResponse:
    """GET asks for a confirmation; POST deletes the organiser's adjustment."""
    adjustment = adjustment_of(tournament=tournament, adjustment_id=adjustment_id)
    if adjustment is None:
        raise Http404
    if request.method == "POST":
        try:
            adjustment_services.adjustment_delete(adjustment=adjustment, user=request.user)
        except UserError as error:
            messages.error(request, error.render(gettext))
        else:
            messages.success(
                request,
                gettext("Adjustment for %(player)s deleted.") % {"player": adjustment.player.name},
            )
        return redirect("web:organise", slug=tournament.slug)
    return render(
        request,
        "tournaments/desk/adjustment_delete_confirm.html",
        {"tournament": tournament, "adjustment": adjustment},
    )
