"""The tournament settings form: what an organiser types on ``/t/new/`` and
``/t/<slug>/edit/``, turned into the arguments of the tournament services.

Vocabulary: the form's *sections* group its fields for the page (the event,
the rules of scoring and their variants, the ranking, the plan, the stages,
the hall, the results, the organisers; the variants', stages' and hall's
inputs come from ``settings_variants``). Table points are
three small inputs, one per table size (``table_points_2`` ... ``_4``), each a
list of whole numbers such as "4 3 1 0"; tie-breaks are one ordered list of
names; co-organisers one list of usernames: the organisers wanted, those who
accepted and those invited (a new name is invited, a name left out removed or
its invitation withdrawn; whether an account has a name is never said). Only
the owner (and staff) changes the visibility and the organisers: for a
co-organiser those inputs are shown but disabled. The club is one the user may
use (``access.clubs_usable_q``) or the one named already. The form checks the
shape (a number is a number) and, so that several bad inputs are
refused at once, each value on its own by the same checks the services run
(the rules engine, the tie-break list, the plan's bounds); the services stay
the authority over the settings together, and their refusal is put back at
its input by ``user_error_add``.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django import forms
from django.conf import settings as django_settings
from django.forms.boundfield import BoundField
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import rules
from scoring.errors import UserError
from scoring.tie_breaks import TIE_BREAK_NAMES, tie_breaks_check
from tournaments.actors import ActingUser
from tournaments.models import Club, Season, Tournament
from tournaments.models.rule_fields import table_points_rules
from tournaments.selectors.people import clubs_all, clubs_usable
from tournaments.selectors.seasons import seasons_usable
from tournaments.selectors.tournaments import co_organiser_names, invited_names
from tournaments.services.co_organisers import USERNAME_MAX
from tournaments.services.setting_bounds import PLAN_BOUNDS
from tournaments.web.settings_variants import (
    HALL_FIELDS,
    STAGE_FIELDS,
    VARIANT_FIELDS,
    VariantFields,
)

T = TypeVar("T")

SCORING_FIELDS = (
    "joker_penalty",
    "pool_tie",
    "table_points_2",
    "table_points_3",
    "table_points_4",
    *VARIANT_FIELDS,
)
_SPLIT = re.compile(r"[\s,;]+")


# What each tie-break name means, for organisers who type the names.
TIE_BREAK_MEANINGS = {
    "score": _("total score"),
    "wins": _("games won"),
    "table_points": _("table points"),
    "rack_total": _("points left on racks, fewest first"),
    "games": _("games played"),
    "average": _("average score"),
    "opponents_average": _("opponents' average score"),
    "head_to_head": _("the games between the tied players"),
    "best_game": _("best single game"),
    "countback": _("best game, then second best, and so on"),
}


def _tie_breaks_help() -> str:
    names = "; ".join(f"{name} ({TIE_BREAK_MEANINGS[name]})" for name in TIE_BREAK_NAMES)
    return gettext(
        "In order, separated by commas, from: {names}. Applied when the ranking ties."
    ).format(names=names)


def _words(text: str) -> list[str]:
    return [w for w in _SPLIT.split(text.strip()) if w]


def _number(**attrs: str | int) -> forms.NumberInput:
    return forms.NumberInput(attrs={"class": "num", "inputmode": "numeric", **attrs})


def _bounds(name: str) -> dict[str, int]:
    """The plan setting's bounds, for the browser (the form has ``novalidate``)."""
    low, high, _message = PLAN_BOUNDS[name]
    return {"min": low, "max": high}


def _checked(value: T, check: Callable[[], object]) -> T:
    """``value`` if ``check`` accepts it; its ``UserError`` as the field's error."""
    try:
        check()
    except UserError as error:
        raise forms.ValidationError(error.render(gettext), code=error.code) from error
    return value


@dataclass
class Section:
    """A titled group of the form's inputs, for the page."""

    title: str
    fields: list[BoundField]


ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class CalendarDateField(forms.DateField):
    """A date, ``YYYY-MM-DD`` (what a date picker sends), refused in the API's words:
    the wrong format, or a day the calendar does not have (``2026-02-30``)."""

    default_error_messages = {"invalid": _("Enter the date as YYYY-MM-DD.")}

    def to_python(self, value: Any) -> Any:
        text = value.strip() if isinstance(value, str) else ""
        if ISO_DATE.fullmatch(text):
            try:
                return datetime.date.fromisoformat(text)
            except ValueError:
                raise forms.ValidationError(
                    gettext("“{value}” is not a date in the calendar.").format(value=text),
                    code="not_in_calendar",
                ) from None
        return super().to_python(value)


class TournamentForm(VariantFields):
    """A tournament's settings; ``settings()`` gives them as service arguments."""

    name = forms.CharField(label=_("Name"), max_length=160)
    # The format chosen above the form on /t/new/ (its settings are the form's
    # initial values); carried hidden so the new tournament remembers it.
    format = forms.CharField(max_length=32, required=False, widget=forms.HiddenInput)
    date = CalendarDateField(
        label=_("Date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=clubs_all(),
        required=False,
        empty_label=_("— no club —"),
        help_text=_("The organising club, if any."),
    )
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=Tournament.Kind.choices,
        initial=Tournament.Kind.TOURNAMENT,
        required=False,
        help_text=_("A one-off tournament, or a league night (a club's evening)."),
    )
    season = forms.ModelChoiceField(
        label=_("Season"),
        queryset=Season.objects.none(),
        required=False,
        empty_label=_("— no season —"),
        help_text=_(
            "The club season this is an evening of: one of a club you organise. An evening "
            "is its season's club's (with no club, it takes that one)."
        ),
    )
    public = forms.BooleanField(
        label=_("Public"),
        required=False,
        help_text=_("Anyone can follow a public tournament; a private one only its organisers."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_("Its games move the players' ratings; a private tournament's never do."),
    )
    language = forms.ChoiceField(
        label=_("Language"),
        choices=django_settings.LANGUAGES,
        help_text=_("The language of its score sheets and reports."),
    )
    paper = forms.ChoiceField(
        label=_("Paper size"), choices=Tournament.Paper.choices, help_text=_("For printing.")
    )

    joker_penalty = forms.IntegerField(
        label=_("Joker penalty"),
        widget=_number(min=0, max=rules.JOKER_PENALTY_MAX),
        help_text=_("Points per joker left on a rack: 30 in the official rules, 25 in some."),
    )
    # The dropdowns' labels are short enough for a phone; the help texts explain them.
    pool_tie = forms.ChoiceField(
        label=_("Tie for the lowest rack"),
        choices=[
            (Tournament.PoolTie.SHARE, Tournament.PoolTie.SHARE.label),
            (Tournament.PoolTie.FEWEST_TILES, Tournament.PoolTie.FEWEST_TILES.label),
            (Tournament.PoolTie.DRAW, _("a draw, nobody wins")),
        ],
        help_text=_(
            "When the pool runs out and two racks are equally low. A draw: they share "
            "the points, and the game counts as won by nobody."
        ),
    )
    table_points_2 = forms.CharField(
        label=_("Table points, 2 players"), max_length=40, help_text=_("First place first: 4 0.")
    )
    table_points_3 = forms.CharField(
        label=_("Table points, 3 players"), max_length=40, help_text=_("E.g. 4 2 0.")
    )
    table_points_4 = forms.CharField(
        label=_("Table points, 4 players"),
        max_length=40,
        help_text=_("E.g. 4 3 1 0. Players who tie for a place share its points."),
    )
    ranking = forms.ChoiceField(
        label=_("Ranking"),
        choices=Tournament.Ranking.choices,
        help_text=_("What the standings are ordered by."),
    )
    tie_breaks = forms.CharField(
        label=_("Tie-breaks"),
        max_length=300,
        required=False,
        help_text=lazy(_tie_breaks_help, str)(),
    )
    min_games = forms.IntegerField(
        label=_("Minimum games to be ranked by average"),
        min_value=0,
        max_value=rules.MIN_GAMES_MAX,
        widget=_number(),
        help_text=_("Only for the average ranking; 0 for none."),
    )

    rounds = forms.IntegerField(
        label=_("Rounds"),
        widget=_number(**_bounds("rounds")),
        help_text=_("Qualifying rounds planned."),
    )
    games_per_round = forms.IntegerField(
        label=_("Games per round"),
        widget=_number(**_bounds("games_per_round")),
        help_text=_("Games at each table, 1 to 30."),
    )
    seating = forms.ChoiceField(
        label=_("Seating"),
        choices=[
            (value, _("balanced") if value == Tournament.Seating.BALANCED else label)
            for value, label in Tournament.Seating.choices
        ],
        help_text=_("How the next round's tables are drawn. Balanced: the fewest repeat meetings."),
    )
    max_table_size = forms.TypedChoiceField(
        label=_("Largest table"),
        coerce=int,
        choices=[(n, str(n)) for n in rules.TABLE_SIZES],
        help_text=_("Players at a full table; smaller tables fill the rest."),
    )
    seed_by_rating = forms.BooleanField(
        label=_("Seat the first round by rating"),
        required=False,
        help_text=_(
            "Swiss: players of similar rating share the first round's tables. Balanced: "
            "every table of the first round gets a fair mix of ratings."
        ),
    )
    bye_score = forms.DecimalField(
        label=_("Score for a bye"),
        # Its 8 digits, 2 of them decimals, are the engine's bound (SCORE_SETTING_MAX).
        max_digits=8,
        decimal_places=2,
        widget=forms.TextInput(attrs={"class": "num", "inputmode": "decimal"}),
        help_text=_("What a player left without a table scores for the round."),
    )

    confirmation = forms.ChoiceField(
        label=_("Confirmation of results"),
        choices=[
            (Tournament.Confirmation.NONE, _("none")),
            (Tournament.Confirmation.ORGANISER, _("by an organiser")),
            (Tournament.Confirmation.DOUBLE_ENTRY, _("double entry")),
        ],
        initial=Tournament.Confirmation.NONE,
        help_text=_(
            "None: a game entered counts at once. Organiser: games entered at a table wait "
            "for an organiser to confirm them. Double entry: a game counts once it has been "
            "entered twice with the same racks; a difference goes to the organisers."
        ),
    )
    standings_unconfirmed = forms.ChoiceField(
        label=_("Unconfirmed games in the standings"),
        choices=Tournament.Unconfirmed.choices,
        initial=Tournament.Unconfirmed.INCLUDE,
        help_text=_(
            "Whether the standings, their downloads and printouts count games not yet "
            "confirmed (marked as such) or leave them out until they are."
        ),
    )

    co_organisers = forms.CharField(
        label=_("Co-organisers"),
        max_length=1000,
        required=False,
        help_text=_(
            "Usernames of other users who may organise this tournament, separated by commas. "
            "Each new name is invited and organises once they accept; removing a name "
            "removes them (or withdraws their invitation). Only the owner changes this."
        ),
    )

    SECTIONS = (
        (
            _("Event"),
            ("name", "date", "kind", "club", "season", "public", "rated", "language", "paper"),
        ),
        (
            _("Scoring"),
            ("joker_penalty", "pool_tie", "table_points_2", "table_points_3", "table_points_4"),
        ),
        (_("Scoring variants"), VARIANT_FIELDS),
        (_("Ranking"), ("ranking", "tie_breaks", "min_games")),
        (
            _("Plan"),
            (
                "rounds",
                "games_per_round",
                "seating",
                "seed_by_rating",
                "max_table_size",
                "bye_score",
            ),
        ),
        (_("Stages"), STAGE_FIELDS),
        (_("The hall"), HALL_FIELDS),
        (_("Results"), ("confirmation", "standings_unconfirmed")),
        (_("Organisers"), ("co_organisers",)),
    )

    def __init__(
        self,
        *args: Any,
        results: bool = False,
        user: ActingUser = None,
        tournament: Tournament | None = None,
        owner: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # Only the clubs this user may name, and the one named already.
        club_field = cast(forms.ModelChoiceField[Club], self.fields["club"])
        kept = tournament.club_id if tournament is not None else None
        club_field.queryset = clubs_usable(user=user, kept=kept)
        # Only the seasons of the clubs this user organises, and the one named already.
        season_field = cast(forms.ModelChoiceField[Season], self.fields["season"])
        season_field.queryset = seasons_usable(
            user=user, kept=tournament.season_id if tournament is not None else None
        )
        if tournament is not None and tournament.pk:
            waiting = invited_names(tournament=tournament)
            if waiting:
                note = gettext("Invited, not answered yet: %(names)s.") % {
                    "names": ", ".join(waiting)
                }
                field = self.fields["co_organisers"]
                field.help_text = f"{field.help_text} {note}"
        if not owner:
            # The owner's rights: shown, not changed (a disabled input keeps its initial).
            for name in ("public", "co_organisers"):
                self.fields[name].disabled = True
        if results:
            note = gettext("Results exist: this cannot change any more.")
            for name in SCORING_FIELDS:
                self.fields[name].help_text = f"{self.fields[name].help_text} {note}"

    @staticmethod
    def initial_from(tournament: Tournament) -> dict[str, Any]:
        """A (possibly unsaved) tournament's settings as the form's initial data."""
        composed = {
            "club",
            "season",
            "tie_breaks",
            "co_organisers",
            *(f"table_points_{n}" for n in rules.TABLE_SIZES),
        }
        initial: dict[str, Any] = {
            name: getattr(tournament, name)
            for name in TournamentForm.base_fields
            if name not in composed
        }
        initial["club"] = tournament.club_id
        initial["season"] = tournament.season_id
        for size in rules.TABLE_SIZES:
            initial[f"table_points_{size}"] = " ".join(
                str(p) for p in tournament.table_points.get(str(size), [])
            )
        initial["tie_breaks"] = ", ".join(tournament.tie_breaks)
        if tournament.pk:
            names = co_organiser_names(tournament=tournament) + invited_names(tournament=tournament)
            initial["co_organisers"] = ", ".join(sorted(names))
        return initial

    def sections(self) -> Iterator[Section]:
        for title, names in self.SECTIONS:
            yield Section(title=str(title), fields=[self[name] for name in names])

    def clean_joker_penalty(self) -> int:
        value: int = self.cleaned_data["joker_penalty"]
        return _checked(value, lambda: rules.Rules(joker_penalty=value))

    def _clean_bounded(self, name: str) -> int:
        value: int = self.cleaned_data[name]
        low, high, message = PLAN_BOUNDS[name]
        if not low <= value <= high:
            raise forms.ValidationError(
                gettext(message) % {"value": value, "min": low, "max": high}
            )
        return value

    def clean_rounds(self) -> int:
        return self._clean_bounded("rounds")

    def clean_games_per_round(self) -> int:
        return self._clean_bounded("games_per_round")

    def _clean_points(self, size: int) -> list[int]:
        words = _words(self.cleaned_data[f"table_points_{size}"])
        try:
            points = [int(w) for w in words]
        except ValueError:
            raise forms.ValidationError(
                gettext("Give %(size)s whole numbers separated by spaces, e.g. %(example)s.")
                % {"size": size, "example": " ".join(["4", "3", "1", "0"][:size])}
            ) from None
        return _checked(points, lambda: table_points_rules({str(size): points}))

    def clean_table_points_2(self) -> list[int]:
        return self._clean_points(2)

    def clean_table_points_3(self) -> list[int]:
        return self._clean_points(3)

    def clean_table_points_4(self) -> list[int]:
        return self._clean_points(4)

    def clean_tie_breaks(self) -> list[str]:
        names = _words(self.cleaned_data["tie_breaks"])
        return _checked(names, lambda: tie_breaks_check(names=names))

    def clean_co_organisers(self) -> list[str]:
        # Usernames as typed: the services invite them, without saying who has an account.
        names = list(dict.fromkeys(_words(self.cleaned_data["co_organisers"])))
        too_long = [n for n in names if len(n) > USERNAME_MAX]
        if too_long:
            raise forms.ValidationError(
                gettext("A username has at most %(max)s characters.") % {"max": USERNAME_MAX}
            )
        return names

    def settings(self) -> dict[str, Any]:
        """The settings typed, as the services take them; call after ``is_valid()``."""
        data = dict(self.cleaned_data)
        data["table_points"] = {str(s): data.pop(f"table_points_{s}") for s in rules.TABLE_SIZES}
        if not data.get("format"):
            data.pop("format", None)  # editing never changes where a tournament started
        if not data.get("kind"):
            data.pop("kind", None)  # left out: kept as it is (a new one: a tournament)
        return data

    def user_error_add(self, error: UserError) -> None:
        """Show a service's refusal next to the input it concerns."""
        field: str | None = error.field
        if field == "table_points":
            size = error.params.get("size", error.params.get("count"))
            field = f"table_points_{size}" if f"table_points_{size}" in self.fields else None
        elif field == "slug":
            field = "name"  # the address is made from the name here
        self.add_error(field if field in self.fields else None, error.render(gettext))
