"""What the audit trail keeps as old and new values: settings, entries,
seating and adjustments, as plain JSON naming players by id and name."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import UserFactory, seated_ids, tournament_entered
from tests.tournaments.services.support import first_entered, tables_swapped
from tournaments.models import Adjustment, AuditEvent, Tournament
from tournaments.services import adjustments, entries, rounds
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db

A = AuditEvent.Action


@pytest.fixture
def tournament() -> Tournament:
    return tournament_entered(players=8, games_per_round=1, rounds=2)


def test_settings_changed_holds_only_what_changed(tournament):
    helper = UserFactory(username="helper")
    tournament_services.tournament_update(
        tournament=tournament,
        rounds=5,
        name="Renamed",
        co_organisers=[helper.username],
        user=tournament.owner,
    )
    event: Any = AuditEvent.objects.get(action=A.SETTINGS_CHANGED)
    assert event.old == {"name": tournament.name, "rounds": 2}
    assert event.new == {"name": "Renamed", "rounds": 5}
    # Who organises it has its own events: an invitation, not a setting.
    invited: Any = AuditEvent.objects.get(action=A.INVITATION_SENT)
    assert invited.new == {"username": "helper"}
    assert event.object_id == tournament.pk and event.object_type == "settings"


def test_tournament_created_holds_its_settings():
    owner = UserFactory(username="anna")
    t = tournament_services.tournament_create(owner=owner, name="Cup", rounds=4, user=owner)
    event: Any = AuditEvent.objects.get(tournament=t)
    assert event.action == A.TOURNAMENT_CREATED and event.old is None
    assert event.new["name"] == "Cup" and event.new["slug"] == "cup"
    assert event.new["rounds"] == 4 and event.new["owner"] == "anna"


def test_entry_changes_say_who_and_from_what(tournament):
    first = first_entered(tournament)
    name = tournament.entries.get(player_id=first).player.name
    entries.entry_check_out(tournament=tournament, player_id=first, user=tournament.owner)
    event: Any = AuditEvent.objects.get()
    assert event.old == {"player": first, "name": name, "status": "active"}
    assert event.new == {"player": first, "name": name, "status": "absent"}
    others = list(tournament.entries.exclude(player_id=first).values_list("player_id", flat=True))
    entries.attendance_set(tournament=tournament, player_ids=[first, others[0]])
    night: Any = AuditEvent.objects.order_by("-id")[0]
    assert night.via == "system" and night.action == A.ENTRY_CHANGED
    assert {p["player"]: p["status"] for p in night.old["players"]} == {
        first: "absent",
        **dict.fromkeys(others[1:], "active"),
    }
    assert {p["player"]: p["status"] for p in night.new["players"]} == {
        first: "active",
        **dict.fromkeys(others[1:], "absent"),
    }


def test_seating_events_hold_the_tables_by_name(tournament):
    round_ = rounds.round_seat_next(tournament=tournament)
    seated: Any = AuditEvent.objects.get(action=A.ROUND_SEATED)
    tables = [seated_ids(m) for m in round_.matches.order_by("table")]
    assert [[p["player"] for p in table] for table in seated.new["tables"]] == tables
    assert seated.new["byes"] == [] and seated.new["round"] == 1
    swapped = tables_swapped(round_)
    rounds.round_manual_set(round=round_, tables=swapped, user=tournament.owner)
    changed: Any = AuditEvent.objects.get(action=A.SEATS_CHANGED)
    assert [[p["player"] for p in t] for t in changed.old["tables"]] == tables
    assert [[p["player"] for p in t] for t in changed.new["tables"]] == swapped != tables
    assert (
        changed.new["tables"][0][0]["name"]
        == round_.seats.get(player_id=changed.new["tables"][0][0]["player"]).player.name
    )


def test_adjustment_events_hold_kind_points_reason_player_and_round(tournament):
    round_ = rounds.round_seat_next(tournament=tournament)
    first = first_entered(tournament)
    adjustment = adjustments.adjustment_add(
        tournament=tournament,
        player_id=first,
        points="2.50",
        reason="Fair play",
        kind=Adjustment.Kind.BONUS,
        round=round_,
        user=tournament.owner,
    )
    pk = adjustment.pk
    adjustments.adjustment_delete(adjustment=adjustment, user=tournament.owner)
    added = AuditEvent.objects.get(action=A.ADJUSTMENT_ADDED)
    deleted = AuditEvent.objects.get(action=A.ADJUSTMENT_DELETED)
    expected = {
        "player": first,
        "name": adjustment.player.name,
        "kind": "bonus",
        "points": "2.50",
        "reason": "Fair play",
        "round": 1,
    }
    assert added.new == deleted.old == expected
    assert added.object_id == deleted.object_id == pk
