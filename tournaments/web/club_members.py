"""A club's members on the web (its organisers): the list (``/c/<slug>/members/``),
adding one (new, or a player of the organiser's), importing a list with its
preview, and a member leaving.

Vocabulary: *importing* shows the list's *preview* first (every line as it
will be imported, with its problems: the desk's importer, each line's club
being this club) and imports only when the organiser *confirms* the same
text; any problem imports nothing. Each action runs one service
(``services.clubs``) and comes back to the members page with a message; a
refused form is drawn again with its message and nothing stored.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring.errors import UserError
from tournaments.models import Club, Player
from tournaments.selectors.clubs import member_candidates, member_of, members_of
from tournaments.services import clubs as club_services
from tournaments.services.players_file import NAME_MAX, PlayersFileError, header_shown
from tournaments.web.clubs import club_organiser_required, club_url, service_run
from tournaments.web.desk_forms import PlayersImportForm


class MemberAddForm(forms.Form):
    """A new member by name, or one of the organiser's players."""

    name = forms.CharField(label=gettext_lazy("New player"), max_length=NAME_MAX, required=False)
    player = forms.ModelChoiceField(
        label=gettext_lazy("Or one of your players"),
        queryset=Player.objects.none(),
        required=False,
    )

    def __init__(self, *args: Any, candidates: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelChoiceField[Player], self.fields["player"])
        field.queryset = Player.objects.filter(pk__in=[p.pk for p in candidates])
        field.choices = [("", "—")] + [
            (p.pk, f"{p.name} ({p.club.name})" if p.club else p.name) for p in candidates
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not cleaned.get("name", "").strip() and cleaned.get("player") is None:
            raise forms.ValidationError(gettext("Give a name or choose a player."))
        return cleaned

    def user_error_add(self, error: UserError) -> None:
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.render(gettext))


class MembersImportForm(PlayersImportForm):
    """A members list: a name a line (a ``name`` header and other columns allowed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The header's word as the page's language writes it (every language's is read).
        self.fields["text"].help_text = gettext(
            "A member a line: a name. A first line such as %(header)s names the columns."
        ) % {"header": header_shown(get_language()).split(",")[0]}


def _members_page(
    request: HttpRequest, club: Club, form: MemberAddForm | None = None, status: int = 200
) -> HttpResponse:
    candidates = member_candidates(user=request.user, club=club)
    return render(
        request,
        "tournaments/clubs/members.html",
        {
            "club": club,
            "members": members_of(user=request.user, club=club),
            "form": form or MemberAddForm(candidates=candidates),
        },
        status=status,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@club_organiser_required
def members(request: HttpRequest, club: Club) -> HttpResponse:
    """The members and the form to add one (GET); adding one (POST)."""
    if request.method != "POST":
        return _members_page(request, club)
    candidates = member_candidates(user=request.user, club=club)
    form = MemberAddForm(request.POST, candidates=candidates)
    if form.is_valid():
        try:
            player = club_services.member_add(
                club=club,
                user=request.user,
                name=form.cleaned_data["name"],
                player=form.cleaned_data["player"],
            )
        except UserError as error:
            form.user_error_add(error)
        else:
            done = gettext("%(player)s is a member now.") % {"player": player.name}
            messages.success(request, done)
            return HttpResponseRedirect(club_url(club, "web:club-members"))
    return _members_page(request, club, form, status=400)


@require_POST
@club_organiser_required
def member_leave(request: HttpRequest, club: Club, player_id: int) -> HttpResponse:
    player = member_of(club=club, player_id=player_id)
    if player is None:
        raise Http404

    def act() -> str:
        club_services.member_remove(club=club, player=player, user=request.user)
        return gettext("%(player)s left the club.") % {"player": player.name}

    service_run(request, act)
    return HttpResponseRedirect(club_url(club, "web:club-members"))


def _lines_new(request: HttpRequest) -> set[int]:
    """The preview's lines the organiser marked to make a new player although one matches."""
    return {int(n) for n in request.POST.getlist("new") if n.isdigit() and len(n) < 10}


def _preview_page(
    request: HttpRequest,
    club: Club,
    form: PlayersImportForm,
    text: str | None = None,
    *,
    windows_1252: bool = False,
) -> HttpResponse:
    preview = (
        None
        if text is None
        else club_services.members_import_preview(
            club=club, text=text, user=request.user, new_lines=_lines_new(request)
        )
    )
    general = preview.general if preview else []
    return render(
        request,
        "tournaments/clubs/import_preview.html",
        {
            "club": club,
            "form": form,
            "text": text,
            "preview": preview,
            "windows_1252": windows_1252,
            "rows": [(line, line.messages(gettext)) for line in preview.lines] if preview else [],
            "general": PlayersFileError(general).lines(gettext) if general else [],
        },
        status=400 if form.errors or (preview and preview.problems) else 200,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@club_organiser_required
def members_import(request: HttpRequest, club: Club) -> HttpResponse:
    """The import form (GET) and the preview of what it would import (POST)."""
    if request.method != "POST":
        return _preview_page(request, club, MembersImportForm())
    form = MembersImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _preview_page(request, club, form)
    text: str = form.cleaned_data["text"]
    return _preview_page(
        request,
        club,
        MembersImportForm(initial={"text": text}),
        text,
        windows_1252=form.cleaned_data["windows_1252"],
    )


@require_POST
@club_organiser_required
def members_import_confirm(request: HttpRequest, club: Club) -> HttpResponse:
    """Import the previewed text; on any problem, the preview again and nothing stored."""
    text = request.POST.get("text", "")
    try:
        result = club_services.members_import(
            club=club, text=text, user=request.user, new_lines=_lines_new(request)
        )
    except PlayersFileError:
        return _preview_page(request, club, MembersImportForm(initial={"text": text}), text)
    listed = len(result.created) + len(result.existing)
    messages.success(
        request,
        ngettext(
            "%(count)s member imported (%(new)s new).",
            "%(count)s members imported (%(new)s new).",
            listed,
        )
        % {"count": listed, "new": len(result.created)},
    )
    return HttpResponseRedirect(club_url(club, "web:club-members"))
