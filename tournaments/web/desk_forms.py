"""The players section of the organiser desk: its forms, and what it shows.

Vocabulary: a *new player* is typed in one line (a name, a club chosen from
those the organiser may name, ``access.clubs_usable_q``, or none) and entered
at once; a *search* (``?q=``) finds players not yet entered by part of their
name or club, each offered with an Enter button (with JavaScript the same box
asks the players API as the organiser types); a *players list* is a pasted
list or an uploaded CSV file (a name a line, or ``name,club``) that is
previewed before it is imported. The players the organiser works with
(``players_known_not_entered``: made by them, in their tournaments, members of
their clubs) and not yet entered are offered as a list of checkboxes with a
filter box, which is quicker on a club night.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.http import HttpRequest
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from scoring import rules
from scoring.errors import UserError
from tournaments.actors import ActingUser
from tournaments.models import Club, Entry, Player, Tournament
from tournaments.selectors.people import (
    clubs_all,
    clubs_usable,
    players_known_not_entered,
    players_not_entered_found,
)
from tournaments.services.players import NAME_MAX
from tournaments.services.players_file import header_shown, players_file_decoded

SEARCH_SHOWN = 30  # players listed for one search
POOL_LISTED = 150  # up to this many known players not entered are offered to tick
FILE_MAX = 1_000_000  # bytes: thousands of players, far more than any event


class PlayerAddForm(forms.Form):
    """A new player, entered in the tournament at once."""

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=clubs_all(),
        required=False,
        empty_label=_("No club"),
    )

    def __init__(self, *args: Any, user: ActingUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only the clubs this organiser may name (``access.clubs_usable_q``), as
        # the API: a club they merely see (the owner's, on a private tournament)
        # answers as one that does not exist.
        club_field = cast(forms.ModelChoiceField[Club], self.fields["club"])
        club_field.queryset = clubs_usable(user=user)

    def user_error_add(self, error: UserError) -> None:
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.render(gettext))


class EntriesAddForm(forms.Form):
    """Register existing players in a tournament: a checkbox each (a tap, not a
    Ctrl-click), named with their club."""

    players = forms.TypedMultipleChoiceField(
        label=_("Players"), coerce=int, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players_field = cast(forms.TypedMultipleChoiceField, self.fields["players"])
        players_field.choices = [
            (p.pk, f"{p.name} · {p.club.name}" if p.club else p.name) for p in players
        ]


class PlayersImportForm(forms.Form):
    """A players list, pasted or as a file; ``text`` is the list either way."""

    file = forms.FileField(
        label=_("CSV file"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv,text/plain"}),
    )
    text = forms.CharField(
        label=_("Or paste a list"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6, "cols": 40, "spellcheck": "false"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The header as the page's language writes it (every language's is read).
        self.fields["text"].help_text = gettext(
            "A player a line: a name, or a name and a club separated by a comma or a "
            "semicolon. A first line such as %(header)s names the columns."
        ) % {"header": header_shown(get_language())}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        cleaned["windows_1252"] = False
        if upload:
            if upload.size > FILE_MAX:
                self.add_error("file", gettext("The file is too large (at most 1 MB)."))
                return cleaned
            # Spreadsheets on Windows still save CSV in their own code page.
            try:
                cleaned["text"], cleaned["windows_1252"] = players_file_decoded(upload.read())
            except UserError as error:
                self.add_error("file", error.render(gettext))
        elif not cleaned.get("text", "").strip():
            self.add_error("text", gettext("Paste a list of players or choose a file."))
        return cleaned


def players_found(*, tournament: Tournament, query: str, user: ActingUser) -> list[Player]:
    """Players the user may see, not entered, whose name or club contains ``query``."""
    return players_not_entered_found(
        tournament=tournament, user=user, query=query, limit=SEARCH_SHOWN
    )


def players_section(
    request: HttpRequest,
    tournament: Tournament,
    *,
    entries: list[Entry],
    player_form: PlayerAddForm | None = None,
) -> dict[str, Any]:
    """What the desk's players section draws (``player_form``: a refused one, bound)."""
    query = request.GET.get("q", "").strip()[:NAME_MAX]
    # The players the organiser works with (not everyone they may see), to tick.
    pool = list(
        players_known_not_entered(tournament=tournament, user=request.user)[: POOL_LISTED + 1]
    )
    return {
        "entries": entries,
        "entered_ids": [e.player_id for e in entries],
        "player_form": player_form or PlayerAddForm(user=request.user),
        "import_form": PlayersImportForm(),
        "query": query,
        "found": (
            players_found(tournament=tournament, query=query, user=request.user) if query else None
        ),
        "entries_form": EntriesAddForm(players=pool) if 0 < len(pool) <= POOL_LISTED else None,
        "category_max": rules.CATEGORY_MAX_LENGTH,
    }
