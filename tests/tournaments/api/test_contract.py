"""The API's contract, answer by answer: every failure schemathesis found,
pinned by a plain request (each answered HTML, a silent default or an
undeclared shape before)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.http import HttpResponse, HttpResponseServerError
from django.test import RequestFactory
from rest_framework.test import APIClient

from scoring.api.middleware import ApiJsonErrorsMiddleware
from tests.factories import ClubFactory, EntryFactory, TournamentFactory, match_seated
from tournaments.models import Club, Player, Tournament

pytestmark = pytest.mark.django_db

BIGINT_MAX = 2**63 - 1


def _json_detail(response: Any, status: int) -> str:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = json.loads(response.content)
    assert set(body) == {"detail"}
    return str(body["detail"])


@pytest.fixture(scope="module")
def document(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = APIClient().get("/api/v1/schema/", {"format": "json"})
    assert response.status_code == 200
    return dict(response.json())


def _operation(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    return dict(document["paths"][path][method])


def _parameter(operation: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in operation["parameters"] if p["name"] == name)


# ----------------------------------------------------------------------------- 404, 405, 500


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nothing-here/",
        "/api/v1/clubs/abc/",
        "/api/v1/clubs/-1/",
        f"/api/v1/clubs/{BIGINT_MAX + 1}/",
        f"/api/v1/tournaments/{10**19}/standings/",
    ],
)
def test_a_path_matching_nothing_is_a_json_404(anon, path):
    _json_detail(anon.get(path), 404)


def test_the_largest_id_is_a_json_404_not_an_overflow(anon):
    _json_detail(anon.get(f"/api/v1/clubs/{BIGINT_MAX}/"), 404)
    _json_detail(anon.get(f"/api/v1/tournaments/{BIGINT_MAX}/standings/"), 404)


def test_path_ids_declare_the_database_range(document):
    parameter = _parameter(_operation(document, "get", "/api/v1/clubs/{id}/"), "id")
    assert parameter["schema"] == {"type": "integer", "minimum": 1, "maximum": BIGINT_MAX}


def test_a_method_not_offered_is_a_json_405_even_with_a_used_key(as_user, owner):
    client = as_user(owner)
    first = client.post("/api/v1/clubs/", {"name": "Kings"}, HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201
    # The same key with another method: a 405, not "key used for another request" (422).
    _json_detail(client.put("/api/v1/clubs/", {}, HTTP_IDEMPOTENCY_KEY="k1"), 405)


def test_options_on_the_import_is_refused_not_a_500(as_user, owner):
    _json_detail(as_user(owner).options("/api/v1/tournaments/import/"), 405)


def test_a_django_error_page_under_the_api_becomes_json():
    def html_500(request: Any) -> HttpResponse:
        response = HttpResponseServerError("<html>boom</html>")
        response["Retry-After"] = "5"
        return response

    middleware = ApiJsonErrorsMiddleware(html_500)
    response = middleware(RequestFactory().get("/api/v1/clubs/"))
    assert _json_detail(response, 500)
    assert response["Retry-After"] == "5"
    # Pages keep their HTML.
    page = middleware(RequestFactory().get("/tournaments/"))
    assert page["Content-Type"].startswith("text/html")


# ----------------------------------------------------------------------------- bodies


def test_a_json_body_over_the_limit_is_a_json_413(as_user, owner, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = as_user(owner).post(
        "/api/v1/clubs/", {"name": "x" * 2000}, format="json", HTTP_IDEMPOTENCY_KEY="big"
    )
    _json_detail(response, 413)
    from tournaments.models import Club

    assert not Club.objects.exists()


def test_a_form_body_over_the_limit_is_a_json_413(as_user, owner, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = as_user(owner).post("/api/v1/clubs/", {"name": "x" * 2000}, format="multipart")
    _json_detail(response, 413)


def test_a_body_that_is_no_json_is_a_declared_400(as_user, owner, document):
    response = as_user(owner).post("/api/v1/clubs/", "{not json", content_type="application/json")
    assert "JSON parse error" in _json_detail(response, 400)
    field_errors = document["components"]["schemas"]["FieldErrors"]
    assert field_errors["properties"] == {"detail": {"type": "string"}}


# ----------------------------------------------------------------------------- queries


@pytest.mark.parametrize("value", ["abc", "0", "-1", "501", "1.5", ""])
def test_a_bad_page_size_is_a_400_naming_it(anon, value):
    response = anon.get("/api/v1/clubs/", {"page_size": value})
    assert response.status_code == 400
    assert list(response.json()) == ["page_size"]


@pytest.mark.parametrize("value", ["abc", "0", "-3", "1000001"])
def test_a_bad_page_is_a_400_naming_it(anon, value):
    response = anon.get("/api/v1/clubs/", {"page": value})
    assert response.status_code == 400
    assert list(response.json()) == ["page"]


def test_page_and_page_size_at_their_limits(anon):
    ClubFactory()
    assert anon.get("/api/v1/clubs/", {"page_size": 500, "page": 1}).status_code == 200
    _json_detail(anon.get("/api/v1/clubs/", {"page": 1_000_000}), 404)  # past the end


def test_pages_declare_their_ranges_and_400(document):
    operation = _operation(document, "get", "/api/v1/tournaments/{tournament_id}/rounds/")
    assert _parameter(operation, "page_size")["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 500,
        "default": 50,
    }
    assert _parameter(operation, "page")["schema"]["maximum"] == 1_000_000
    assert "400" in operation["responses"]


def test_a_nul_in_search_is_a_400_naming_search(anon, document):
    response = anon.get("/api/v1/tournaments/", {"search": "a\x00b"})
    assert response.status_code == 400
    assert list(response.json()) == ["search"]
    response = anon.get("/api/v1/clubs/", {"name": "a\x00b"})
    assert response.status_code == 400
    assert list(response.json()) == ["name"]
    operation = _operation(document, "get", "/api/v1/clubs/")
    assert _parameter(operation, "search")["schema"]["pattern"] == r"^[^\x00]*$"
    assert _parameter(operation, "name")["schema"]["pattern"] == r"^[^\x00]*$"


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [
        ("/api/v1/tournaments/", {"public": "yes"}, "public"),
        ("/api/v1/tournaments/", {"status": ""}, "status"),
        ("/api/v1/players/", {"no_club": "null"}, "no_club"),
        ("/api/v1/games/", {"state": ""}, "state"),
        ("/api/v1/games/", {"match": ""}, "match"),
    ],
)
def test_a_filter_value_outside_its_declaration_is_a_400(anon, path, query, field):
    response = anon.get(path, query)
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_filters_still_filter(anon):
    TournamentFactory(public=True, name="Open")
    assert anon.get("/api/v1/tournaments/", {"public": "true"}).json()["count"] == 1
    assert anon.get("/api/v1/tournaments/", {"public": "false"}).json()["count"] == 0
    assert anon.get("/api/v1/clubs/", {"name": ""}).status_code == 200  # text: empty is "any"


def test_an_empty_stage_is_a_400(anon):
    tournament = TournamentFactory(public=True)
    response = anon.get(f"/api/v1/tournaments/{tournament.pk}/standings/", {"stage": ""})
    assert response.status_code == 400
    assert list(response.json()) == ["stage"]


# ----------------------------------------------------------------------------- shapes and auth


def test_entering_players_answers_the_list_its_document_declares(as_user, document):
    operation = _operation(document, "post", "/api/v1/tournaments/{tournament_id}/entries/")
    schema = operation["responses"]["201"]["content"]["application/json"]["schema"]
    assert schema["type"] == "array"
    assert "page" not in {p["name"] for p in operation.get("parameters", [])}
    match = match_seated(players=2)
    tournament = match.round.tournament
    response = as_user(tournament.owner).post(
        f"/api/v1/tournaments/{tournament.pk}/entries/", {"player": match.seats.first().player_id}
    )
    assert response.status_code == 201
    assert isinstance(response.json(), list)


def test_public_reads_declare_optional_credentials(document):
    reads = [
        ("get", "/api/v1/clubs/"),
        ("get", "/api/v1/tournaments/{id}/"),
        ("get", "/api/v1/tournaments/{tournament_id}/standings/"),
    ]
    for method, path in reads:
        assert {} in _operation(document, method, path)["security"], path
    for method, path in [
        ("post", "/api/v1/clubs/"),
        ("get", "/api/v1/tournaments/{tournament_id}/audit/"),
        ("get", "/api/v1/matches/by-token/"),
    ]:
        assert {} not in _operation(document, method, path)["security"], path


def test_an_entry_that_does_not_exist_is_a_404(as_user):
    tournament = TournamentFactory()
    client = as_user(tournament.owner)
    path = f"/api/v1/tournaments/{tournament.pk}/entries/{BIGINT_MAX}/"
    _json_detail(client.patch(path, {"status": "absent"}), 404)
    _json_detail(client.delete(path), 404)


def test_patching_an_entry_without_a_status_changes_nothing(as_user):
    entry = EntryFactory()
    client = as_user(entry.tournament.owner)
    path = f"/api/v1/tournaments/{entry.tournament_id}/entries/{entry.player_id}/"
    response = client.patch(path, {}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "active"


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
