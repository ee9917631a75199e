"""The API's contract for request bodies: text is a string, either-or bodies,
decimal steps and text patterns, each declared by the document and held by
the server (the rest of the contract is in ``test_contract``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.factories import match_seated
from tests.tournaments.api.test_contract import _operation, document
from tournaments.models import Club, Player, Tournament

pytestmark = pytest.mark.django_db

__all__ = ["document"]  # the module fixture, shared


# ----------------------------------------------------------------------------- text is a string


@pytest.mark.parametrize("value", [0, 1.5, True, ["a"], {"a": 1}])
@pytest.mark.parametrize(
    ("path", "field", "others"),
    [
        ("/api/v1/clubs/", "name", {"city": "Oslo"}),
        ("/api/v1/clubs/", "city", {"name": "Fjord"}),
        ("/api/v1/players/", "name", {}),
    ],
)
def test_a_text_field_refuses_anything_but_a_string(as_user, owner, path, field, others, value):
    response = as_user(owner).post(path, {**others, field: value}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {field}
    assert not Club.objects.filter(city="Oslo").exists()
    assert not Club.objects.filter(name="Fjord").exists()
    assert not Player.objects.filter(name=str(value)).exists()


def test_a_text_field_still_takes_a_string(as_user, owner):
    response = as_user(owner).post("/api/v1/players/", {"name": " 0 "}, format="json")
    assert response.status_code == 201
    assert response.json()["name"] == "0"


@pytest.mark.parametrize("field", ["username", "password"])
def test_the_token_login_refuses_a_number_for_a_credential(anon, field):
    body: dict[str, Any] = {"username": "someone", "password": "secret", field: 0}
    response = anon.post("/api/v1/auth/token/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {field}


def test_the_token_login_declares_its_400(document):
    responses = _operation(document, "post", "/api/v1/auth/token/")["responses"]
    assert responses["400"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/FieldErrors"
    }


# ----------------------------------------------------------------------------- either-or bodies


def _request_schema(document: dict[str, Any], path: str) -> dict[str, Any]:
    body = _operation(document, "post", path)["requestBody"]["content"]["application/json"]
    ref = body["schema"]["$ref"].rsplit("/", 1)[1]
    return dict(document["components"]["schemas"][ref])


def test_entering_players_declares_one_player_or_several(document):
    schema = _request_schema(document, "/api/v1/tournaments/{tournament_id}/entries/")
    forms = [
        document["components"]["schemas"][form["$ref"].rsplit("/", 1)[1]]
        for form in schema["oneOf"]
    ]
    assert [form["required"] for form in forms] == [["player"], ["players"]]


@pytest.mark.parametrize(
    "body",
    [{"player": 1, "players": [1]}, {}, {"status": "absent"}],
)
def test_entering_players_refuses_both_or_neither(as_user, body):
    match = match_seated(players=2)
    tournament = match.round.tournament
    before = tournament.entries.count()
    response = as_user(tournament.owner).post(
        f"/api/v1/tournaments/{tournament.pk}/entries/", body, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) == {"non_field_errors"}
    assert tournament.entries.count() == before


def test_attendance_declares_and_requires_its_list_of_players(as_user, document):
    schema = _request_schema(document, "/api/v1/tournaments/{tournament_id}/attendance/")
    assert schema["required"] == ["players"]
    assert set(schema["properties"]) == {"players"}
    match = match_seated(players=2)
    tournament = match.round.tournament
    response = as_user(tournament.owner).post(
        f"/api/v1/tournaments/{tournament.pk}/attendance/",
        {"player": match.seats.first().player_id},
        format="json",
    )
    assert response.status_code == 400
    assert set(response.json()) == {"players"}


# ----------------------------------------------------------------------------- decimals


def test_a_decimal_setting_declares_its_step(document):
    schema = document["components"]["schemas"]["TournamentRequest"]["properties"]["bye_score"]
    assert schema["multipleOf"] == 0.01


@pytest.mark.parametrize(
    ("sent", "stored"),
    [(7 * 0.01, "0.07"), (926653.4, "926653.40"), (-0.1 - 0.2, "-0.30"), (12, "12.00")],
)
def test_a_decimal_a_float_stands_for_is_read_as_that_decimal(as_user, owner, sent, stored):
    response = as_user(owner).post(
        "/api/v1/tournaments/", {"name": "Cup", "bye_score": sent}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert str(Tournament.objects.get(pk=response.json()["id"]).bye_score) == stored


@pytest.mark.parametrize("sent", [926653.4031797852, 0.005, 1e-9])
def test_a_decimal_finer_than_its_step_is_refused(as_user, owner, sent):
    response = as_user(owner).post(
        "/api/v1/tournaments/", {"name": "Cup", "bye_score": sent}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) == {"bye_score"}
    assert not Tournament.objects.exists()


# ----------------------------------------------------------------------------- text patterns


@pytest.mark.parametrize(
    ("name", "accepted"),
    [
        ("Ann", True),
        ("  Ann\t", True),
        ("\u00e9", True),
        ("\r\r", False),
        (" \u00a0\u2003", False),
        ("\x1c\x1f\x85", False),
        ("A\x00", False),
    ],
)
def test_a_required_text_pattern_says_what_the_server_takes(
    as_user, owner, document, name, accepted
):
    pattern = document["components"]["schemas"]["PlayerRequest"]["properties"]["name"]["pattern"]
    assert bool(re.search(pattern, name)) is accepted
    response = as_user(owner).post("/api/v1/players/", {"name": name}, format="json")
    assert response.status_code == (201 if accepted else 400), response.json()
    assert Player.objects.exists() is accepted


def test_text_that_may_be_blank_is_declared_as_text_or_empty(document):
    city = document["components"]["schemas"]["ClubRequest"]["properties"]["city"]
    text, empty = city["oneOf"]
    assert not re.search(text["pattern"], "")
    assert re.search(text["pattern"], "  ")
    assert not re.search(text["pattern"], "a\x00")
    assert empty == {"type": "string", "maxLength": 0}


def test_a_text_field_with_its_own_pattern_keeps_it(document):
    slug = document["components"]["schemas"]["TournamentRequest"]["properties"]["slug"]
    assert slug["pattern"] == "^[-a-zA-Z0-9_]+$"
