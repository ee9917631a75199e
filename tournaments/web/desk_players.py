"""Players on the organiser desk: who plays, and who is here for the next round.

Vocabulary: *entering* a player registers them in the tournament, either a
new one typed in one line (``services.players.player_enter``; a walk-in
mid-event plays from the next round, or at once if the organiser re-seats a
qualifying round that has no results yet) or existing ones found by a search;
*importing* a players list first shows its *preview* (every line as it will
be imported, with its problems) and imports only when the organiser
*confirms* the same text; any problem imports nothing. *Check in*, *check
out* and *withdraw* change an entry's status; a withdrawal is asked for on a
confirmation page first. An entry's *category* (``U14``; blank = none) is set
from its row of the players list, finished tournaments too (it changes no result).

Each action is a POST that runs one service and comes back to the desk
(POST-redirect-GET) with a message; a refused form is drawn again with the
message at its field and nothing stored. Only the tournament's organisers
get here (``pages.organiser_required``).
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from scoring import rules
from scoring.errors import UserError
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors.entries import entry_of
from tournaments.selectors.people import players_not_entered
from tournaments.selectors.rounds import rounds_listed, rounds_seated
from tournaments.services import entries as entry_services
from tournaments.services import players as player_services
from tournaments.web.desk_forms import EntriesAddForm, PlayerAddForm, PlayersImportForm
from tournaments.web.organise import _organise_page, _organise_url, _service_run
from tournaments.web.pages import desk_action, organiser_required


def _walk_in_entered(tournament: Tournament, name: str) -> str:
    """Where a player entered now plays: from the next round, or from the last
    one if it is re-seated while it has no results (a qualifying round only)."""
    listed = rounds_listed(tournament=tournament)
    if not listed:
        return gettext("%(player)s entered.") % {"player": name}
    last = listed[-1]
    if last.stage == Round.Stage.QUALIFYING and not last.games_played:
        link = reverse("web:round-reseat", kwargs={"slug": tournament.slug, "number": last.number})
        return format_html(
            '{} <a href="{}">{}</a>',
            gettext("%(player)s entered. Round %(number)s has no results yet:")
            % {"player": name, "number": last.number},
            link,
            gettext("re-seat it to seat them now."),
        )
    return gettext("%(player)s entered: seated from the next round.") % {"player": name}


@desk_action
@organiser_required
def player_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PlayerAddForm(request.POST, user=request.user)
    if form.is_valid():
        try:
            entry = player_services.player_enter(
                tournament=tournament,
                name=form.cleaned_data["name"],
                club=form.cleaned_data["club"],
                user=request.user,
            )
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(request, _walk_in_entered(tournament, entry.player.name))
            return HttpResponseRedirect(_organise_url(tournament))
    return _organise_page(request, tournament, player_form=form, status=400)


@desk_action
@organiser_required
def entries_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    shown = players_not_entered(tournament=tournament, user=request.user)
    form = EntriesAddForm(request.POST, players=list(shown))
    if form.is_valid():
        ids: list[int] = form.cleaned_data["players"]

        def act() -> str:
            entries = entry_services.entries_add(
                tournament=tournament, player_ids=ids, user=request.user
            )
            if len(entries) == 1:
                return gettext("%(player)s entered.") % {"player": entries[0].player.name}
            return ngettext("%(count)s player entered.", "%(count)s players entered.", len(ids)) % {
                "count": len(ids)
            }

        _service_run(request, act)
    else:
        messages.error(request, gettext("Choose the players to enter."))
    return HttpResponseRedirect(_organise_url(tournament))


ENTRY_ACTIONS: dict[str, tuple[Callable[..., Entry], str]] = {
    "withdraw": (entry_services.entry_withdraw, gettext_noop("%(player)s withdrawn.")),
    "check-in": (entry_services.entry_activate, gettext_noop("%(player)s checked in.")),
    "check-out": (
        entry_services.entry_check_out,
        gettext_noop("%(player)s checked out for the next round."),
    ),
}


def _entry_of(tournament: Tournament, player_id: int) -> Entry:
    entry = entry_of(tournament=tournament, player_id=player_id)
    if entry is None:
        raise Http404
    return entry


@desk_action
@organiser_required
def entry_status(
    request: HttpRequest, tournament: Tournament, player_id: int, action: str
) -> HttpResponse:
    entry = _entry_of(tournament, player_id)
    service, done = ENTRY_ACTIONS[action]

    def act() -> str:
        service(tournament=tournament, player_id=player_id, user=request.user)
        return gettext(done) % {"player": entry.player.name}

    _service_run(request, act)
    return HttpResponseRedirect(_organise_url(tournament))


@require_safe
@organiser_required
def entry_withdraw_confirm(
    request: HttpRequest, tournament: Tournament, player_id: int
) -> HttpResponse:
    """Ask before withdrawing: the form on this page posts to ``entry_status``."""
    entry = _entry_of(tournament, player_id)
    return render(
        request,
        "tournaments/desk/withdraw_confirm.html",
        {
            "tournament": tournament,
            "entry": entry,
            "seated": rounds_seated(tournament=tournament),
        },
    )


def _lines_new(request: HttpRequest) -> set[int]:
    """The preview's lines the organiser marked to make a new player although one matches."""
    return {int(n) for n in request.POST.getlist("new") if n.isdigit() and len(n) < 10}


def _preview_page(
    request: HttpRequest,
    tournament: Tournament,
    form: PlayersImportForm,
    text: str | None = None,
    *,
    windows_1252: bool = False,
) -> HttpResponse:
    preview = (
        None
        if text is None
        else player_services.players_import_preview(
            text=text, tournament=tournament, user=request.user, new_lines=_lines_new(request)
        )
    )
    general = preview.general if preview else []
    return render(
        request,
        "tournaments/desk/import_preview.html",
        {
            "tournament": tournament,
            "form": form,
            "text": text,
            "preview": preview,
            "windows_1252": windows_1252,
            "rows": [(line, line.messages(gettext)) for line in preview.lines] if preview else [],
            "general": player_services.PlayersFileError(general).lines(gettext) if general else [],
        },
        status=400 if form.errors or (preview and preview.problems) else 200,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_required
def players_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The import form (GET) and the preview of what it would import (POST)."""
    if request.method != "POST":
        return _preview_page(request, tournament, PlayersImportForm())
    form = PlayersImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _preview_page(request, tournament, form)
    text: str = form.cleaned_data["text"]
    # The form below the preview shows the list as it was read, to be fixed.
    return _preview_page(
        request,
        tournament,
        PlayersImportForm(initial={"text": text}),
        text,
        windows_1252=form.cleaned_data["windows_1252"],
    )


@desk_action
@organiser_required
def players_import_confirm(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Import the previewed text; on any problem, the preview again and nothing stored."""
    text = request.POST.get("text", "")
    try:
        result = player_services.players_import(
            text=text, tournament=tournament, user=request.user, new_lines=_lines_new(request)
        )
    except player_services.PlayersFileError:
        return _preview_page(request, tournament, PlayersImportForm(initial={"text": text}), text)
    listed = len(result.created) + len(result.existing)
    messages.success(
        request,
        ngettext(
            "%(count)s player imported and entered (%(new)s new).",
            "%(count)s players imported and entered (%(new)s new).",
            listed,
        )
        % {"count": listed, "new": len(result.created)},
    )
    return HttpResponseRedirect(_organise_url(tournament))


class EntryCategoryForm(forms.Form):
    """One entry's category, as the players list sends it (blank = none)."""

    category = forms.CharField(
        label=gettext_lazy("Category"), required=False, max_length=rules.CATEGORY_MAX_LENGTH
    )


@desk_action
@organiser_required
def entry_category(request: HttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """Set one entry's category (a row's own small form: its refusal comes back as a message)."""
    entry = _entry_of(tournament, player_id)
    form = EntryCategoryForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("category", []):
            messages.error(request, f"{entry.player.name}: {error}")
        return HttpResponseRedirect(_organise_url(tournament))

    def act() -> str:
        (changed,) = entry_services.entries_category_set(
            tournament=tournament,
            player_ids=[player_id],
            category=form.cleaned_data["category"],
            user=request.user,
        )
        if changed.category:
            return gettext("%(player)s is in the category %(category)s.") % {
                "player": entry.player.name,
                "category": changed.category,
            }
        return gettext("%(player)s is in no category.") % {"player": entry.player.name}

    _service_run(request, act)
    return HttpResponseRedirect(_organise_url(tournament))
