"""Every path by which the admin writes, exercised as staff with bad data.

The admin writes only through the services: whatever a staff user posts, the
answer is never a 500, and a refused post stores nothing. The paths are read
off the admin site itself (every registered model's add, change and delete
views, the bulk delete and the inlines), so a model added later is covered.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import models
from django.test import Client

from tests.factories import ClubFactory, PlayerFactory, UserFactory, tournament_entered
from tests.tournaments.admin.support import form_data
from tournaments.models import Adjustment, Club, Entry, Game, Player, Seat, Tournament
from tournaments.services import adjustments, games, players, rounds
from tournaments.services.players import club_create

pytestmark = pytest.mark.django_db

MODELS = sorted(
    (m for m in apps.get_app_config("tournaments").get_models() if admin.site.is_registered(m)),
    key=lambda m: str(m._meta.model_name),
)
# Too long for any field, a number no column holds, a NUL byte (PostgreSQL refuses it).
GARBAGE = ["x" * 1000, "-99999999999999999999", "\x00"]


def junk_per_field(baseline: dict[str, Any]) -> list[tuple[str, str]]:
    """Each field of the form (inline management fields aside) with one kind of
    garbage, the kinds taken in turn: every field meets one, every kind meets a
    third of the fields (a tournament's form has about eighty)."""
    names = [n for n in baseline if "-" not in n]
    return [(name, GARBAGE[i % len(GARBAGE)]) for i, name in enumerate(names)]


@dataclass
class World:
    staff: Any
    tournament: Tournament
    club: Club
    played: Any  # a match with a game
    empty: Any  # a match without games
    game: Game
    penalty: Adjustment
    bye: Adjustment
    entered: Player
    free: Player


@pytest.fixture
def world(client: Client) -> World:
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    club = ClubFactory(name="Home")
    ClubFactory(name="Taken")
    t = tournament_entered(players=6, club=club, games_per_round=2, max_table_size=4)
    round_ = rounds.round_seat_next(tournament=t)
    played, empty = round_.matches.order_by("table")
    ids = [s.player_id for s in played.seats.order_by("position")]
    game = games.game_record(
        match=played,
        ending="rummikub",
        racks=[games.rules.RackIn(player=p, points=0 if i == 0 else 5) for i, p in enumerate(ids)],
    )
    penalty = adjustments.adjustment_add(
        tournament=t, player_id=ids[1], points=-3, reason="Slow play"
    )
    bye = Adjustment.objects.create(
        tournament=t, player_id=ids[2], round=round_, kind="bye", points=0, reason="Bye"
    )
    return World(
        staff, t, club, played, empty, game, penalty, bye, Player.objects.get(pk=ids[1]),
        PlayerFactory(name="Free"),
    )  # fmt: skip


def snapshot() -> dict[str, list[dict[str, Any]]]:
    return {
        m._meta.model_name: list(m.objects.order_by("pk").values())
        for m in apps.get_app_config("tournaments").get_models()
    }


def url(model: type[models.Model], view: str, *args: Any) -> str:
    path = f"/admin/tournaments/{model._meta.model_name}/"
    return path + "".join(f"{a}/" for a in args) + ("" if view == "changelist" else f"{view}/")


# What a valid add looks like, per model (fields not given keep the page's defaults).
def valid_add(model: type[models.Model], w: World) -> dict[str, Any]:
    seats = list(w.empty.seats.order_by("position"))
    return {
        Club: {"name": "Brand new", "city": "Køge"},
        Player: {"name": "Newbie"},
        Tournament: {"name": "Cup", "slug": "cup", "owner": w.staff.pk},
        Entry: {"tournament": w.tournament.pk, "player": w.free.pk, "status": "active"},
        Game: {
            "match": w.empty.pk,
            "ending": "rummikub",
            **{f"player_{s.position}": s.player_id for s in seats},
            **{f"points_{s.position}": 0 if s.position == 1 else 7 for s in seats},
        },
        Adjustment: {
            "tournament": w.tournament.pk,
            "player": w.entered.pk,
            "kind": "penalty",
            "points": "-2",
            "reason": "Late",
        },
    }.get(model, {})


# Input each service refuses, per model: (field overrides, the field that says why).
def bad_input(model: type[models.Model], w: World) -> list[dict[str, Any]]:
    return {
        Club: [{"name": ""}, {"name": "x" * 121}, {"name": "Taken"}, {"city": "c" * 121}],
        Player: [{"name": ""}, {"name": " "}, {"name": "x" * 121}, {"club": "999999"}],
        Tournament: [
            {"table_points": '[4, 3, "x", 0]'},
            {"table_points": '{"4": [4, 3, "x", 0]}'},
            {"table_points": '{"4": [1, 3, 0, 0]}'},
            {"table_points": "{not json"},
            {"tie_breaks": '["wins", "luck"]'},
            {"tie_breaks": '"wins"'},
            {"joker_penalty": "5000"},
            {"pool_tie": "coin_toss"},
            {"max_table_size": "5"},
            {"games_per_round": "0"},
            {"rounds": "101"},
            {"min_games": "1000000"},
            {"slug": "has spaces"},
            {"bye_score": "NaN"},
            {"name": " "},
        ],
        Entry: [{"player": "999999"}, {"status": "asleep"}, {"tournament": ""}],
        Game: [
            {"ending": "draw"},
            {"tiles_1": "R5 R5 R5"},
            {"points_2": "-3"},
            {"player_2": str(w.free.pk)},
            {"player_2": "", "points_2": ""},
            {"points_1": "5"},
        ],
        Adjustment: [
            {"kind": "bye"},
            {"points": "5"},
            {"points": "0"},
            {"reason": " "},
            {"player": str(w.free.pk)},
        ],
    }.get(model, [])


def existing(model: type[models.Model], w: World) -> models.Model:
    found = {
        Club: w.club,
        Player: w.entered,
        Tournament: w.tournament,
        Game: w.game,
        Adjustment: w.penalty,
        Seat: None,
    }.get(model)
    return found or model.objects.order_by("pk").first()


def post(client: Client, path: str, data: dict[str, Any]) -> int:
    before = snapshot()
    status = client.post(path, {**data, "_save": "Save"}).status_code
    assert status != 500, (path, data)
    if status != 302:  # refused: nothing stored
        assert snapshot() == before, (path, data)
    return status


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m._meta.model_name)
def test_add_refuses_bad_input_and_stores_nothing(client: Client, world: World, model):
    page = client.get(url(model, "add"))
    if page.status_code == 403:  # read-only here: a post is refused too
        assert post(client, url(model, "add"), valid_add(model, world)) == 403
        return
    assert page.status_code == 200
    form_id = f"{model._meta.model_name}_form"
    baseline = {**form_data(page.content.decode(), form_id), **valid_add(model, world)}
    for bad in bad_input(model, world):
        assert post(client, url(model, "add"), {**baseline, **bad}) == 200, bad
    assert post(client, url(model, "add"), baseline) == 302, "the valid add is accepted"
    for name, junk in junk_per_field(baseline):
        post(client, url(model, "add"), {**baseline, name: junk})


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m._meta.model_name)
def test_change_refuses_bad_input_and_stores_nothing(client: Client, world: World, model):
    obj = existing(model, world)
    page = client.get(url(model, "change", obj.pk))
    assert page.status_code == 200
    form_id = f"{model._meta.model_name}_form"
    baseline = form_data(page.content.decode(), form_id)
    for bad in bad_input(model, world):
        if not set(bad) <= set(baseline):
            continue  # not changeable here (e.g. an entry's player)
        assert post(client, url(model, "change", obj.pk), {**baseline, **bad}) == 200, bad
    for name, junk in junk_per_field(baseline):
        post(client, url(model, "change", obj.pk), {**baseline, name: junk})


def refused_deletes(w: World) -> list[models.Model]:
    return [
        w.entered,  # has results
        w.bye,  # goes with its round's seating
        w.played.round,
        w.played,
        w.tournament.entries.first(),
        w.tournament.audit.first(),
    ]


def test_refused_deletes_answer_clearly_and_delete_nothing(client: Client, world: World):
    for obj in refused_deletes(world):
        model = type(obj)
        post(client, url(model, "delete", obj.pk), {"post": "yes"})
        page = client.get(url(model, "delete", obj.pk))
        assert page.status_code in (200, 403)
        post(
            client,
            url(model, "changelist"),
            {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
        )
        assert model.objects.filter(pk=obj.pk).exists(), obj


def test_deletes_go_through_the_services(client: Client, world: World):
    club = club_create(name="Gone", created_by=None)
    assert client.post(url(Club, "delete", club.pk), {"post": "yes"}).status_code == 302
    assert client.post(url(Player, "delete", world.free.pk), {"post": "yes"}).status_code == 302
    assert client.post(url(Game, "delete", world.game.pk), {"post": "yes"}).status_code == 302
    assert world.played.audit.filter(action="game.deleted").exists()
    response = client.post(url(Adjustment, "delete", world.penalty.pk), {"post": "yes"})
    assert response.status_code == 302
    assert world.tournament.audit.get(action="adjustment.deleted").user == world.staff
    response = client.post(url(Tournament, "delete", world.tournament.pk), {"post": "yes"})
    assert response.status_code == 302
    assert not Tournament.objects.exists() and not Seat.objects.exists()
    assert Player.objects.filter(pk=world.entered.pk).exists()


def test_inlines_add_nothing(client: Client, world: World):
    page = client.get(url(Tournament, "change", world.tournament.pk)).content.decode()
    data = form_data(page, "tournament_form")
    total = int(data["entries-TOTAL_FORMS"])
    data.update(
        {
            "entries-TOTAL_FORMS": str(total + 1),
            f"entries-{total}-player": str(world.free.pk),
            f"entries-{total}-status": "active",
        }
    )
    post(client, url(Tournament, "change", world.tournament.pk), data)
    assert not Entry.objects.filter(player=world.free).exists()


def test_a_seat_cannot_be_added_in_the_match_admin(client: Client, world: World):
    match = world.empty
    page = client.get(url(type(match), "change", match.pk)).content.decode()
    # Shown without inputs, and at their maximum, so the admin's script offers no
    # "Add another Seat": seats come with their round.
    assert 'name="seats-0-player"' not in page
    assert '<input type="hidden" name="seats-MAX_NUM_FORMS" value="0"' in page
    data = {
        "seats-TOTAL_FORMS": "1",
        "seats-INITIAL_FORMS": "0",
        "seats-0-player": str(world.free.pk),
        "seats-0-position": "4",
    }
    assert post(client, url(type(match), "change", match.pk), data) == 403
    assert not Seat.objects.filter(player=world.free).exists()


@pytest.mark.parametrize(
    ("table_points", "message"),
    [
        ('[4, 3, "x", 0]', "Table points must map a table size to the points of its places."),
        ('{"4": [4, 3, "x", 0]}', "Table points for 4 players need 4 whole numbers"),
        ('{"3": [1, 2, 0]}', "must not grow from first place to last"),
    ],
)
def test_tournament_admin_shows_a_bad_rule_setting_at_its_field(
    client: Client, world: World, table_points: str, message: str
):
    path = url(Tournament, "change", world.tournament.pk)
    data = form_data(client.get(path).content.decode(), "tournament_form")
    response = client.post(path, {**data, "table_points": table_points, "_save": "Save"})
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert list(errors) == ["table_points"] and message in errors["table_points"][0]
    world.tournament.refresh_from_db()
    assert world.tournament.table_points == json.loads(data["table_points"])


def test_tournament_admin_changes_settings_through_the_service(client: Client, world: World):
    fresh = tournament_entered(players=4)  # no results yet: its scoring settings may change
    path = url(Tournament, "change", fresh.pk)
    data = form_data(client.get(path).content.decode(), "tournament_form")
    data.update({"table_points": '{"4": [6, 3, 1, 0]}', "joker_penalty": "25", "_save": "Save"})
    assert client.post(path, data).status_code == 302
    fresh.refresh_from_db()
    assert fresh.table_points["4"] == [6, 3, 1, 0]
    assert fresh.table_points["2"] == [4, 0]
    assert fresh.joker_penalty == 25
    event: Any = fresh.audit.get(action="settings.changed")
    assert event.user == world.staff and event.new["joker_penalty"] == 25


def test_admin_entries_are_audited_as_the_staff_user(client: Client, world: World):
    data = {"tournament": str(world.tournament.pk), "player": str(world.free.pk)}
    assert post(client, url(Entry, "add"), {**data, "status": "absent"}) == 302
    entry = Entry.objects.get(player=world.free)
    assert post(client, url(Entry, "change", entry.pk), {"status": "active"}) == 302
    events: list[Any] = list(
        world.tournament.audit.filter(action__startswith="entry.").order_by("id")
    )
    assert [(e.action, e.user) for e in events] == [
        ("entry.added", world.staff),
        ("entry.changed", world.staff),
    ]
    assert events[1].old["status"] == "absent" and events[1].new["status"] == "active"


@pytest.mark.parametrize(
    ("model", "service"),
    [(Club, "club_create"), (Player, "player_create")],
)
def test_an_add_runs_its_service_once(client: Client, world: World, model, service):
    with mock.patch.object(players, service, wraps=getattr(players, service)) as called:
        assert post(client, url(model, "add"), valid_add(model, world)) == 302
    assert called.call_count == 1


def test_a_refused_page_keeps_nothing_the_form_wrote(client: Client, world: World):
    # The game is valid (the form's service stores it) but the read-only inline's
    # management form is missing: the page is shown again, and nothing stays.
    before = snapshot()
    path = url(Tournament, "change", world.tournament.pk)
    data = form_data(client.get(path).content.decode(), "tournament_form")
    data = {k: v for k, v in data.items() if not k.startswith("entries-")}
    data["name"] = "Renamed"
    assert client.post(path, data).status_code == 200
    assert snapshot() == before
