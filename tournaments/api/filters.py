"""Filtering, search and ordering of the lists.

Vocabulary: an *id filter* takes an object id (``?club=3``) without looking
the object up. Ordering is ``apikit.defaults.StableOrderingFilter``.
A *strict* filter set refuses (400, naming the parameter) what django-filter
would quietly ignore: an empty value for anything but text, and a yes/no
written other than ``true`` or ``false``; so every list answers exactly the
parameters its document declares.
"""

from __future__ import annotations

import string
from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.drainage import set_override

from apikit.defaults import NO_NUL, NamedSearchFilter
from tournaments.api.id_fields import ID_MAX
from tournaments.models import AuditEvent, Club, Game, Player, Tournament
from tournaments.search_names import name_matches


class IdFilter(django_filters.NumberFilter):  # type: ignore[misc]  # django-filter is untyped
    """An object id, bounded so that a huge number is a 400, not a database overflow."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_MAX)
        super().__init__(*args, **kwargs)
        # Documented as an integer id (drf-spectacular would guess "number").
        schema = {
            "type": "integer",
            "minimum": 1,
            "maximum": ID_MAX,
            "description": str(kwargs.get("help_text", "")),
        }
        set_override(self, "field", schema)


class TextFilter(django_filters.CharFilter):  # type: ignore[misc]  # django-filter is untyped
    """Part of a text (case-insensitive); a NUL character is a 400, as declared."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("lookup_expr", "icontains")
        super().__init__(*args, **kwargs)
        schema = {"type": "string", "pattern": NO_NUL, "description": str(kwargs["help_text"])}
        set_override(self, "field", schema)


class StrictFilterSet(django_filters.FilterSet):  # type: ignore[misc]  # django-filter is untyped
    def is_valid(self) -> bool:
        valid: bool = super().is_valid()
        for name, declared in self.filters.items():
            if name not in self.data:
                continue
            raw = self.data.get(name)
            if raw == "" and not isinstance(declared, django_filters.CharFilter):
                self.form.add_error(name, _("Send a value, or leave the parameter out."))
                valid = False
            elif isinstance(declared, django_filters.BooleanFilter) and raw not in (
                "true",
                "false",
            ):
                self.form.add_error(name, _("Send true or false."))
                valid = False
        return valid


class ClubFilter(StrictFilterSet):
    name = TextFilter(help_text="Part of the name.")
    city = TextFilter(help_text="Part of the city.")

    class Meta:
        model = Club
        fields = ["name", "city"]


class PlayerFilter(StrictFilterSet):
    name = TextFilter(help_text="Part of the name.")
    club = IdFilter(field_name="club_id", help_text="Players of this club (its id).")
    no_club = django_filters.BooleanFilter(
        field_name="club", lookup_expr="isnull", help_text="true: players without a club."
    )

    class Meta:
        model = Player
        fields = ["name", "club", "no_club"]


ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


class PlayerSearch(NamedSearchFilter):
    """``?search=`` on players: DRF's, and also the players whose name and club
    match the words whatever their accents (``search_names``: "Bjorn" finds
    "Bjørn"), which no SQL says; those are found reading the names."""

    def filter_queryset(self, request: Any, queryset: QuerySet[Any], view: Any) -> Any:
        found = super().filter_queryset(request, queryset, view)
        terms = [str(t) for t in self.get_search_terms(request)]
        if not terms:
            return found
        query = " ".join(terms)
        # What SQL found already (SQLite's case is A to Z only): the rest are few.
        lowered = [t.translate(ASCII_LOWER) for t in terms]
        folded: list[int] = []
        for pk, name, club in queryset.values_list("pk", "name", "club__name").iterator():
            text = f"{name} {club or ''}"
            plain = all(t in text.translate(ASCII_LOWER) for t in lowered)
            if not plain and name_matches(query, text):
                folded.append(pk)
        return found | queryset.filter(pk__in=folded) if folded else found


class TournamentFilter(StrictFilterSet):
    club = IdFilter(field_name="club_id", help_text="Tournaments of this club (its id).")
    date = django_filters.DateFilter(help_text="On this date (YYYY-MM-DD).")
    date_from = django_filters.DateFilter(
        field_name="date", lookup_expr="gte", help_text="On or after this date."
    )
    date_to = django_filters.DateFilter(
        field_name="date", lookup_expr="lte", help_text="On or before this date."
    )
    status = django_filters.ChoiceFilter(choices=Tournament.Status.choices)
    kind = django_filters.ChoiceFilter(choices=Tournament.Kind.choices)
    public = django_filters.BooleanFilter()

    class Meta:
        model = Tournament
        fields = ["club", "date", "date_from", "date_to", "status", "kind", "public"]


class GameFilter(StrictFilterSet):
    tournament = IdFilter(field_name="match__round__tournament_id", help_text="A tournament id.")
    round = IdFilter(field_name="match__round_id", help_text="A round id.")
    match = IdFilter(field_name="match_id", help_text="A match id.")
    player = IdFilter(method="player_filter", help_text="Games this player (id) played.")
    state = django_filters.ChoiceFilter(
        choices=Game.State.choices, help_text="Games in this confirmation state."
    )

    class Meta:
        model = Game
        fields = ["tournament", "round", "match", "player", "state"]

    def player_filter(self, queryset: QuerySet[Game], name: str, value: int) -> QuerySet[Game]:
        # A subquery rather than a join: a join would need distinct().
        return queryset.filter(pk__in=Game.objects.filter(racks__player_id=value).values("pk"))


OBJECT_TYPES = sorted({value.split(".", 1)[0] for value in AuditEvent.Action.values})


class AuditFilter(StrictFilterSet):
    match = IdFilter(field_name="match_id", help_text="Events of this match (its id).")
    action = django_filters.ChoiceFilter(
        choices=AuditEvent.Action.choices, help_text="Events of this action."
    )
    object_type = django_filters.ChoiceFilter(
        choices=[(t, t) for t in OBJECT_TYPES],
        method="object_type_filter",
        help_text="Events about this kind of object (`game` for every game action).",
    )

    class Meta:
        model = AuditEvent
        fields = ["match", "action", "object_type"]

    def object_type_filter(
        self, queryset: QuerySet[AuditEvent], name: str, value: str
    ) -> QuerySet[AuditEvent]:
        return queryset.filter(action__startswith=f"{value}.")
