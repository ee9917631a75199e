"""The audit trail on the desk, and restoring a deleted game from it.

Vocabulary: the *audit page* (``/t/<slug>/organise/audit/``) lists the
tournament's events newest first, a page at a time, narrowed to one table
(``?match=<id>``: its *history*) or one *kind* (``?kind=game``: what the
events concern, the first part of their action). Each event shows when, who,
the action, its *object* (round, table, game) and its *changes*: one row per
changed key with the old and the new value (a setting by its label, a choice
by its words, a tie-break list by what each name means, a list as a plain
list); a game's snapshot becomes one row per player (what was entered and,
in brackets, the score it gave), by the player's name. A *note* says what an
action meant when its name alone does not: a correction of a disputed game is
how the second entry was taken.
A deletion is *restorable* (``selectors.audit_of``) while its game's number is
free at its table and not deleted again later; restoring is a POST naming the
deletion event, which runs ``services.results.game_restore``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.core.exceptions import FieldDoesNotExist
from django.core.paginator import Paginator
from django.db import models
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from scoring.errors import UserError
from tournaments.models import (
    Adjustment,
    AuditEvent,
    Club,
    Entry,
    Game,
    Player,
    Round,
    Tournament,
)
from tournaments.selectors.audit import audit_of, event_value_named, game_deletion_in
from tournaments.selectors.matches import match_in
from tournaments.selectors.people import player_names
from tournaments.services.results import game_restore
from tournaments.web.desk_results import game_event_note
from tournaments.web.desk_trust import desk_back, entered_text
from tournaments.web.pages import desk_action, organiser_required
from tournaments.web.settings_forms import TIE_BREAK_MEANINGS

PER_PAGE = 50
Action = AuditEvent.Action
# What an event concerns, as the kind filter offers it.
KINDS = {
    "game": gettext_lazy("Games"),
    "match": gettext_lazy("Match links"),
    "round": gettext_lazy("Rounds"),
    "seats": gettext_lazy("Seats"),
    "entry": gettext_lazy("Players"),
    "player": gettext_lazy("Player details"),
    "club": gettext_lazy("Clubs"),
    "adjustment": gettext_lazy("Adjustments"),
    "settings": gettext_lazy("Settings"),
    "tournament": gettext_lazy("Tournament"),
}
OBJECTS = {
    "round": pgettext_lazy("audit object", "Round"),
    "seats": pgettext_lazy("audit object", "Seats"),
    "entry": pgettext_lazy("audit object", "Player entry"),
    "player": pgettext_lazy("audit object", "Player"),
    "club": pgettext_lazy("audit object", "Club"),
    "adjustment": pgettext_lazy("audit object", "Adjustment"),
    "settings": pgettext_lazy("audit object", "Settings"),
    "tournament": pgettext_lazy("audit object", "Tournament"),
}

# Whose fields an event's keys are: their labels and choices read better than codes.
# Keys of the trail's values that are not model fields (or fields named
# without a translated label), in words.
KEYS = {
    "stage": gettext_lazy("stage"),
    "player": gettext_lazy("player"),
    "status": gettext_lazy("status"),
    "date": gettext_lazy("date"),
    "kind": gettext_lazy("kind"),
    "tables": gettext_lazy("tables"),
    "byes": gettext_lazy("byes"),
    "players": gettext_lazy("players"),
    "round": gettext_lazy("round"),
    "token": gettext_lazy("link (its last characters)"),
    "file": gettext_lazy("file"),
    "exported_at": gettext_lazy("exported"),
}
# Kept in the trail for the software (a replaced link's digest), not for reading.
HIDDEN = frozenset({"digest"})
MOMENTS = frozenset({"exported_at"})
# Kept by number, not by id, although a field of that name is a relation (an
# adjustment's round): read as written, never looked up.
NUMBERS = frozenset({"round"})
ENTRY_STATUSES: dict[Any, Any] = dict(Entry.Status.choices)

MODELS: dict[str, type[models.Model]] = {
    "settings": Tournament,
    "tournament": Tournament,
    "entry": Entry,
    "round": Round,
    "adjustment": Adjustment,
    "player": Player,
    "club": Club,
}


@dataclass(frozen=True)
class Change:
    """One changed key of an event: its label, the value before and after."""

    label: str
    old: str
    new: str


@dataclass(frozen=True)
class EventShown:
    event: AuditEvent
    object: str
    changes: list[Change]
    restorable: bool
    note: str = ""


def _plain(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        return _item(value)
    if isinstance(value, list):
        return ", ".join(_item(v) for v in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{_item(k)}: {_plain(v)}" for k, v in value.items()) or "—"
    return str(value)


def _item(value: Any) -> str:
    # A list's codes ("table_points") read as words; a player by name (and status).
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, dict) and "name" in value:
        status = ENTRY_STATUSES.get(value.get("status"))
        return f"{value['name']}: {status}" if status is not None else str(value["name"])
    if isinstance(value, list) and all(isinstance(v, list) for v in value):
        # A round's tables: each a list of players, numbered from 1.
        return "; ".join(f"{n}: {_plain(t)}" for n, t in enumerate(value, 1))
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def _when(value: Any) -> str:
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        return _plain(value)
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def _field(event: AuditEvent, key: str) -> models.Field[Any, Any] | None:
    model = MODELS.get(event.object_type)
    if model is None:
        return None
    try:
        field = model._meta.get_field(key)
    except FieldDoesNotExist:
        return None
    return field if isinstance(field, models.Field) else None


def _labelled(field: models.Field[Any, Any] | None, value: Any) -> str:
    """A value in words: a choice by its label, anything else plainly."""
    related = field.related_model if isinstance(field, models.ForeignKey) else None
    if isinstance(related, type) and isinstance(value, int):
        # By name (a tournament's club); one query, for the rare event that names one.
        named = event_value_named(model=related, pk=value)
        return named if named is not None else f"#{value}"
    if field is not None and field.choices and isinstance(value, str | int):
        labels: dict[Any, Any] = dict(field.flatchoices)
        if value in labels:
            return str(labels[value])
    return _plain(value)


def _tie_breaks_text(value: Any) -> str:
    """A tie-break list by what each name means, in order; semicolons part them,
    as a meaning may hold a comma."""
    if not isinstance(value, list) or not value:
        return _plain(value)
    return "; ".join(str(TIE_BREAK_MEANINGS.get(name, _item(name))) for name in value)


def _is_game(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("racks"), list)


def _players_named(events: list[AuditEvent]) -> dict[int, str]:
    """The names of every player the events' values mention, in one query."""
    ids: set[int] = set()
    for event in events:
        if event.object_type == "player" and event.object_id is not None:
            ids.add(event.object_id)  # a player's change is told by their name
        for value in (event.old, event.new):
            if not isinstance(value, dict):
                continue
            if isinstance(value.get("player"), int):
                ids.add(value["player"])
            for body in (value, value.get("second_entry") or {}):
                for rack in body.get("racks", []) if isinstance(body, dict) else []:
                    if isinstance(rack, dict) and isinstance(rack.get("player"), int):
                        ids.add(rack["player"])
    return player_names(ids=ids)


def _rack_text(rack: dict[str, Any] | None) -> str:
    if rack is None:
        return "—"
    entered = entered_text(
        tiles=rack.get("tiles"), points=rack.get("points") or 0, jokers=rack.get("jokers") or 0
    )
    score = rack.get("score")
    if score is None:
        return entered
    try:
        value = Decimal(str(score))
    except ArithmeticError:
        shown = str(score)
    else:
        # As the score grids show it: no trailing zeros, a sign on a gain.
        shown = f"{'+' if value > 0 else ''}{floatformat(value, -2)}"
    if entered == "—":  # the rack that went out: nothing entered, only its score
        return gettext("score %(score)s") % {"score": shown}
    return gettext("%(entered)s (score %(score)s)") % {"entered": entered, "score": shown}


def _game_changes(old: Any, new: Any, names: dict[int, str]) -> list[Change]:
    """A game's snapshots side by side: ending, state, then a row per player."""
    before = old if _is_game(old) else {}
    after = new if _is_game(new) else {}
    endings: dict[Any, Any] = dict(Game.Ending.choices)
    states: dict[Any, Any] = dict(Game.State.choices)
    rows = []
    for key, label, choices in (
        ("ending", gettext("Ending"), endings),
        ("state", gettext("State"), states),
    ):
        a, b = before.get(key), after.get(key)
        if a != b or not before or not after:
            rows.append(Change(label, _plain(choices.get(a, a)), _plain(choices.get(b, b))))
    racks_before = {r.get("player"): r for r in before.get("racks", [])}
    racks_after = {r.get("player"): r for r in after.get("racks", [])}
    for player in dict.fromkeys([*racks_before, *racks_after]):
        a_text, b_text = _rack_text(racks_before.get(player)), _rack_text(racks_after.get(player))
        if a_text != b_text or not before or not after:
            rows.append(Change(names.get(player, str(player)), a_text, b_text))
    second = after.get("second_entry") if isinstance(after, dict) else None
    if isinstance(second, dict):
        for rack in second.get("racks", []):
            label = gettext("%(name)s, second entry") % {
                "name": names.get(rack.get("player"), str(rack.get("player")))
            }
            rows.append(Change(label, "", _rack_text(rack)))
    return rows


def event_changes(event: AuditEvent, names: dict[int, str]) -> list[Change]:
    """What an event changed, a row per key."""
    old, new = event.old, event.new
    if _is_game(old) or _is_game(new):
        return _game_changes(old, new, names)
    if isinstance(old, dict) or isinstance(new, dict):
        before, after = old if isinstance(old, dict) else {}, new if isinstance(new, dict) else {}
        # Sorted: PostgreSQL's jsonb keeps keys in an order of its own.
        keys = sorted(
            k for k in {*before, *after} if before.get(k) != after.get(k) and k not in HIDDEN
        )
        rows = []
        for key in keys:
            a, b = before.get(key), after.get(key)
            if key == "player":
                a, b = names.get(a, a) if a else a, names.get(b, b) if b else b
            field = _field(event, key)
            label = str(field.verbose_name) if field is not None else key.replace("_", " ")
            label = str(KEYS.get(key, label))
            if key in MOMENTS:
                rows.append(Change(label, _when(a), _when(b)))
                continue
            if key in NUMBERS:
                rows.append(Change(label, _plain(a), _plain(b)))
                continue
            if key == "tie_breaks":
                rows.append(Change(label, _tie_breaks_text(a), _tie_breaks_text(b)))
                continue
            rows.append(Change(label, _labelled(field, a), _labelled(field, b)))
        return rows
    if old is None and new is None:
        return []
    return [Change(gettext("value"), _plain(old), _plain(new))]


def event_object(event: AuditEvent) -> str:
    """The round, table and game an event concerns, in words."""
    parts = []
    if event.round_number is not None:
        parts.append(gettext("round %(round)s") % {"round": event.round_number})
    if event.table is not None:
        parts.append(gettext("table %(table)s") % {"table": event.table})
    if event.game_number is not None:
        parts.append(gettext("game %(number)s") % {"number": event.game_number})
    if parts:
        text = ", ".join(parts)
        # Only the first letter: German nouns further on keep their capitals.
        return text[:1].upper() + text[1:]
    return str(OBJECTS.get(event.object_type, event.object_type))


def events_shown(events: list[AuditEvent]) -> list[EventShown]:
    names = _players_named(events)
    # Oldest first, so that each correction meets the latest dispute before it.
    seconds: dict[Any, Any] = {}
    notes: dict[int, str] = {}
    for e in reversed(events):
        notes[e.pk] = game_event_note(e, seconds)
        if e.action == Action.GAME_DISPUTED and isinstance(e.new, dict):
            seconds[(e.match_id, e.game_number)] = e.new.get("second_entry")
    return [
        EventShown(
            event=e,
            object=(
                f"{event_object(e)}: {names[e.object_id]}"
                if e.object_type == "player" and e.object_id in names
                else event_object(e)
            ),
            changes=event_changes(e, names),
            restorable=getattr(e, "restorable", False),
            note=notes[e.pk],
        )
        for e in events
    ]


@organiser_required
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's audit trail, newest first; ``?match=`` and ``?kind=`` narrow it."""
    match = None
    chosen = request.GET.get("match", "")
    if chosen:
        if not chosen.isdigit():
            raise Http404
        match = match_in(tournament=tournament, match_id=int(chosen))
        if match is None:
            raise Http404
    kind = request.GET.get("kind", "")
    if kind not in KINDS:
        kind = ""
    events = audit_of(tournament=tournament, match=match, kind=kind or None)
    page = Paginator(events, PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "tournaments/desk/audit.html",
        {
            "tournament": tournament,
            "frozen": tournament.is_finished,
            "match": match,
            "kind": kind,
            "kinds": list(KINDS.items()),
            "page": page,
            "events": events_shown(list(page.object_list)),
        },
    )


@desk_action
@organiser_required
def game_restore_post(request: HttpRequest, tournament: Tournament, event_id: int) -> HttpResponse:
    """Bring back the game a deletion event of the tournament removed."""
    back = reverse("web:desk-audit", kwargs={"slug": tournament.slug})
    event = game_deletion_in(tournament=tournament, event_id=event_id)
    if event is None or event.match is None:
        messages.error(request, gettext("This tournament has no such deleted game to restore."))
        return desk_back(request, tournament, back)
    try:
        game = game_restore(event=event, user=request.user)
    except UserError as error:
        messages.error(request, error.render(gettext))
    else:
        messages.success(
            request,
            gettext("Game %(number)s of table %(table)s restored.")
            % {"number": game.number, "table": event.match.table},
        )
    return desk_back(request, tournament, back)
