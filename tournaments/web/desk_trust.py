"""Trust on the desk: the games to confirm, disputes settled, a table's new link.

Vocabulary:

* a game *to confirm* is one in state ``entered``: entered through a match
  link under ``confirmation = organiser``, or once under double entry;
* a *disputed* game has two versions that differ: the stored *first* and the
  *second* entry kept beside it; *settling* it keeps one of them (``take`` =
  ``first`` or ``second``; the second is stored as a correction);
* a *version* is a game's racks as a page shows them: each player's name,
  what was entered (tiles, or points and jokers) and the score it gives; side
  by side, a rack *differs* when its entry or score is not the same in both;
* an *own entry* is a game the viewing organiser entered: someone else has to
  confirm it, so the pages offer them no button for it;
* who *entered* a game is named by its account, else by the name a restored
  backup gave (``Game.original_recorded_by``, else its first entry source's
  ``original_user``: text, never an account), else it was entered at the table;
* a table's *new link* replaces its private token: the old link stops at once,
  and the printed score sheet carrying it has to be printed again.

Every action is a POST (``pages.desk_action``) running one service, and comes
back (POST-redirect-GET, the message at the top) to the desk page named by the
form's ``next``, else to the list. Only organisers get here
(``pages.organiser_required``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Literal

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext

from scoring import rules
from scoring.errors import UserError
from tournaments.models import Game, Tournament
from tournaments.racks_entered import game_racks_entered
from tournaments.selectors.unsettled import game_to_confirm, games_unsettled
from tournaments.services.games import game_compute
from tournaments.services.matches import match_token_regenerate
from tournaments.services.results import game_confirm, game_second_entry
from tournaments.web.desk_results import match_of
from tournaments.web.pages import desk_action, organiser_required


def desk_back(request: HttpRequest, tournament: Tournament, default: str) -> HttpResponseRedirect:
    """Back to the desk page the form names in ``next`` (only this tournament's
    desk pages: never another site), else to ``default``."""
    target = request.POST.get("next", "")
    desk = reverse("web:organise", kwargs={"slug": tournament.slug})
    if target.startswith(desk) and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(default)


@dataclass(frozen=True)
class RackShown:
    """One player's rack in a version: what was entered and what it scores."""

    name: str
    entered: str
    score: Decimal
    winner: bool
    player: Any = None
    differs: bool = False


@dataclass(frozen=True)
class Version:
    ending: str
    racks: list[RackShown]


@dataclass(frozen=True)
class GameToConfirm:
    """A game awaiting the organiser; ``second`` is a disputed game's other
    version (``second_refused``: why it no longer scores, say after a rules change)."""

    game: Game
    first: Version
    second: Version | None = None
    second_refused: str = ""
    entered_by: str = ""


def entered_by(game: Game) -> str:
    """Who entered the game's stored version, as the page names it (see the
    module's docstring)."""
    if game.recorded_by is not None:
        return gettext("Entered by %(who)s") % {"who": game.recorded_by.get_username()}
    firsts = [s for s in game.entry_sources or [] if isinstance(s, dict)][:1]
    original = game.original_recorded_by or "".join(
        str(s.get("original_user") or "") for s in firsts
    )
    if original:
        named = gettext("%(name)s (in the original)") % {"name": original}
        return gettext("Entered by %(who)s") % {"who": named}
    return gettext("Entered at the table")


def entered_text(*, tiles: str | None, points: int, jokers: int) -> str:
    """A rack as it was entered: its tiles, or its points and jokers."""
    if tiles is not None:
        return tiles or "—"
    return ngettext("%(points)s pt, %(jokers)s J", "%(points)s pts, %(jokers)s J", points) % {
        "points": points,
        "jokers": jokers,
    }


def _entered_shown(given: rules.RackIn) -> str:
    return entered_text(tiles=given.tiles, points=given.points or 0, jokers=given.jokers or 0)


def _ending(value: str) -> str:
    return str(dict(Game.Ending.choices).get(value, value))


def _first(game: Game) -> Version:
    racks = sorted(game.racks.all(), key=lambda r: r.position)
    return Version(
        ending=_ending(game.ending),
        racks=[
            RackShown(
                name=r.player.name,
                entered=_entered_shown(given),
                score=r.score,
                winner=r.winner,
                player=r.player_id,
            )
            for r, given in zip(racks, game_racks_entered(racks=racks), strict=True)
        ],
    )


def _second(game: Game) -> tuple[Version | None, str]:
    second = game_second_entry(game)
    if second is None:
        return None, ""
    ending, racks = second
    try:
        result = game_compute(match=game.match, ending=ending, racks=racks)
    except UserError as error:
        return None, error.render(gettext)
    names: dict[Any, str] = {s.player_id: s.player.name for s in game.match.seats.all()}
    return (
        Version(
            ending=_ending(ending),
            racks=[
                RackShown(
                    name=names.get(given.player, str(given.player)),
                    entered=_entered_shown(given),
                    score=out.score,
                    winner=out.winner,
                    player=given.player,
                )
                for given, out in zip(racks, result.racks, strict=True)
            ],
        ),
        "",
    )


def versions_compared(first: Version, second: Version) -> tuple[Version, Version]:
    """Both versions with each rack marked when it differs from the other's."""

    # What was entered, not the score: a loser's other points change the
    # winner's score too, but only the loser's entry is the one to check.
    def shown(rack: RackShown | None) -> str | None:
        return None if rack is None else rack.entered

    a = {r.player: r for r in first.racks}
    b = {r.player: r for r in second.racks}

    def marked(version: Version, other: dict[Any, RackShown]) -> Version:
        racks = [replace(r, differs=shown(r) != shown(other.get(r.player))) for r in version.racks]
        return replace(version, racks=racks)

    return marked(first, b), marked(second, a)


@organiser_required
def confirm_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The games to confirm (one click each) and the disputed ones side by side."""
    listed = []
    for game in games_unsettled(tournament=tournament):
        game.match.round.tournament = tournament  # its rules score the second version
        first = _first(game)
        second, refused = _second(game) if game.state == Game.State.DISPUTED else (None, "")
        if second is not None:
            first, second = versions_compared(first, second)
        listed.append(
            GameToConfirm(
                game=game,
                first=first,
                second=second,
                second_refused=refused,
                entered_by=entered_by(game),
            )
        )
    return render(
        request,
        "tournaments/desk/confirm.html",
        {
            "tournament": tournament,
            "frozen": tournament.is_finished,
            "entered": [g for g in listed if g.game.state == Game.State.ENTERED],
            "disputed": [g for g in listed if g.game.state == Game.State.DISPUTED],
        },
    )


def _where(game: Game) -> dict[str, int]:
    return {"number": game.number, "table": game.match.table, "round": game.match.round.number}


@desk_action
@organiser_required
def game_confirm_post(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """Confirm a game, or settle a disputed one (``take`` = first or second)."""
    back = reverse("web:desk-confirm", kwargs={"slug": tournament.slug})
    game = game_to_confirm(tournament=tournament, game_id=game_id)
    # No take: a plain confirmation, which the service refuses for a disputed game.
    take = request.POST.get("take") or None
    if game is None:
        messages.error(request, gettext("That game is no longer there: nothing was confirmed."))
    elif take not in (None, "first", "second"):
        messages.error(request, gettext("Choose the first or the second version."))
    elif game.state == Game.State.CONFIRMED:
        messages.info(
            request,
            gettext("Game %(number)s of table %(table)s is already confirmed.") % _where(game),
        )
    else:
        chosen: Literal["first", "second"] | None = (
            "second" if take == "second" else "first" if take == "first" else None
        )
        try:
            game_confirm(game=game, user=request.user, take=chosen)
        except UserError as error:
            messages.error(request, error.render(gettext))
        else:
            done = (
                gettext("Game %(number)s of table %(table)s confirmed with the second version.")
                if chosen == "second"
                else gettext("Game %(number)s of table %(table)s confirmed.")
            )
            messages.success(request, done % _where(game))
    return desk_back(request, tournament, back)


@organiser_required
def match_link_new(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    """GET warns what a new link does; POST replaces the table's link."""
    match = match_of(tournament, match_id)
    desk = reverse("web:desk-match", kwargs={"slug": tournament.slug, "match_id": match.pk})
    if request.method != "POST":
        return render(
            request,
            "tournaments/desk/match_link_confirm.html",
            {
                "tournament": tournament,
                "match": match,
                "frozen": tournament.is_finished,
            },
        )
    try:
        match_token_regenerate(match=match, user=request.user)
    except UserError as error:
        messages.error(request, error.render(gettext))
        return redirect(desk)
    sheets = reverse(
        "print:round-scoresheets",
        kwargs={"slug": tournament.slug, "number": match.round.number},
    )
    messages.success(
        request,
        format_html(
            '{} <a href="{}">{}</a>',
            gettext(
                "Table %(table)s has a new link: the old one stopped working. "
                "Reprint table %(table)s's score sheet before the next game."
            )
            % {"table": match.table},
            sheets,
            gettext("Print the score sheets of round %(round)s") % {"round": match.round.number},
        ),
    )
    return redirect(desk)
