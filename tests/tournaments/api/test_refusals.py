"""Every refusal of the scoring rules, sent to the calculator and to a match's games:
400, the field it concerns, a message that says what is wrong, nothing stored.

Racks are written by seat (0-3) so that one table serves both endpoints: the
calculator gets labels ``P0``..``P3``, the match its seated players' ids.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import PlayerFactory, match_seated, seated_ids
from tournaments.models import AuditEvent, Game, Rack

pytestmark = pytest.mark.django_db

STRANGER = -1  # a seat index meaning "a player not seated at this match"

# (case, ending, [(seat, rack fields)], field, message fragments)
REFUSALS: list[tuple[str, str, list[tuple[int, dict[str, Any]]], str, list[str]]] = [
    ("one player", "rummikub", [(0, {"tiles": ""})], "racks", ["2 to 4 racks", "1 was given"]),
    (
        "five players",
        "rummikub",
        [
            (0, {"tiles": ""}),
            (1, {"points": 5}),
            (2, {"points": 5}),
            (3, {"points": 5}),
            (0, {"points": 1}),
        ],
        "racks",
        ["2 to 4 racks", "5 were given"],
    ),
    (
        "same player twice",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"points": 5}), (1, {"points": 6})],
        "racks",
        ["has two racks", "racks 2 and 3"],
    ),
    (
        "tile R14",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"tiles": "R5 R14"})],
        "racks",
        ["Rack 2", "R14", "1 to 13"],
    ),
    (
        "tile X3",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"tiles": "X3"})],
        "racks",
        ["Rack 2", "X3", "colours"],
    ),
    (
        "tile R0",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"tiles": "R0"})],
        "racks",
        ["Rack 2", "R0", "1 to 13"],
    ),
    (
        "a tile three times",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"tiles": "R5 R5"}), (2, {"tiles": "r5"})],
        "racks",
        ["R5 appears 3 times", "only 2"],
    ),
    (
        "three jokers as tiles",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"tiles": "J J"}), (2, {"tiles": "J"})],
        "racks",
        ["3 jokers", "only 2"],
    ),
    (
        "three jokers as counts",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"points": 0, "jokers": 2}), (2, {"points": 4, "jokers": 1})],
        "racks",
        ["3 jokers"],
    ),
    (
        "rummikub without an empty rack",
        "rummikub",
        [(0, {"points": 5}), (1, {"points": 6})],
        "racks",
        ["exactly one empty rack", "0 racks were empty"],
    ),
    (
        "rummikub with two empty racks",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"points": 0}), (2, {"points": 3})],
        "racks",
        ["exactly one empty rack", "2 racks were empty"],
    ),
    (
        "pool exhausted with an empty rack",
        "pool_exhausted",
        [(0, {"points": 4}), (1, {"tiles": ""})],
        "racks",
        ["Rack 2", "is empty", "not with the pool exhausted"],
    ),
    (
        "negative points",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"points": -5})],
        "racks",
        ["Rack 2", "points cannot be negative", "-5"],
    ),
    (
        "negative jokers",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"points": 5, "jokers": -1})],
        "racks",
        ["Rack 2", "jokers cannot be negative"],
    ),
    (
        "729 points on one rack",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"points": 729})],
        "racks",
        ["729 points", "728"],
    ),
    (
        "more than the set over the racks",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"points": 400}), (2, {"points": 400})],
        "racks",
        ["800 face points", "728"],
    ),
    (
        "tiles and points disagree",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"tiles": "R5 K7", "points": 13})],
        "racks",
        ["add up to 12", "13"],
    ),
    (
        "tiles and jokers disagree",
        "rummikub",
        [(0, {"tiles": ""}), (1, {"tiles": "R5 J", "jokers": 0})],
        "racks",
        ["1 joker", "0"],
    ),
    (
        "neither tiles nor points",
        "rummikub",
        [(0, {"tiles": ""}), (1, {})],
        "racks",
        ["Rack 2", "tiles or its points"],
    ),
    (
        "unknown ending",
        "draw",
        [(0, {"tiles": ""}), (1, {"points": 5})],
        "ending",
        ["Unknown ending", "draw", "rummikub, pool_exhausted"],
    ),
]

MATCH_ONLY = [
    (
        "player not seated",
        "rummikub",
        [(0, {"tiles": ""}), (STRANGER, {"points": 5})],
        "racks",
        ["not seated", "table 1"],
    ),
]

CALCULATOR_RULES = [
    (
        "negative joker penalty",
        {"joker_penalty": -5},
        "joker_penalty",
        ["cannot be negative", "-5"],
    ),
    (
        "unknown tie policy",
        {"pool_tie": "coin_toss"},
        "pool_tie",
        ["Unknown tie policy", "coin_toss", "share, fewest_tiles"],
    ),
]


def stored() -> tuple[int, int, int]:
    return Game.objects.count(), Rack.objects.count(), AuditEvent.objects.count()


def message_of(body: dict[str, Any], field: str) -> str:
    assert list(body) == [field], body
    return " ".join(body[field])


@pytest.fixture
def table(as_user, owner):
    match = match_seated(players=4, owner=owner)
    # One game already stored: a refusal must leave it (and everything else) alone.
    ids = seated_ids(match)
    response = as_user(owner).post(
        f"/api/v1/matches/{match.pk}/games/",
        {
            "ending": "rummikub",
            "racks": [{"player": ids[0], "tiles": ""}]
            + [{"player": p, "points": 3} for p in ids[1:]],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return match, ids, as_user(owner)


@pytest.mark.parametrize(
    ("ending", "racks", "field", "fragments"),
    [pytest.param(*case[1:], id=case[0]) for case in REFUSALS + MATCH_ONLY],
)
def test_a_match_refuses_with_the_engines_message(table, ending, racks, field, fragments):
    match, ids, client = table
    stranger = PlayerFactory().pk
    before = stored()
    body = {
        "ending": ending,
        "racks": [
            {"player": stranger if seat == STRANGER else ids[seat], **fields}
            for seat, fields in racks
        ],
    }
    response = client.post(f"/api/v1/matches/{match.pk}/games/", body, format="json")
    assert response.status_code == 400, response.content
    message = message_of(response.json(), field)
    for fragment in fragments:
        assert fragment in message, message
    assert stored() == before


@pytest.mark.parametrize(
    ("ending", "racks", "field", "fragments"),
    [pytest.param(*case[1:], id=case[0]) for case in REFUSALS],
)
def test_the_calculator_refuses_with_the_same_message(anon, ending, racks, field, fragments):
    before = stored()
    body = {"ending": ending, "racks": [{"player": f"P{seat}", **fields} for seat, fields in racks]}
    response = anon.post("/api/v1/score/", body, format="json")
    assert response.status_code == 400, response.content
    message = message_of(response.json(), field)
    for fragment in fragments:
        assert fragment in message, message
    assert stored() == before


@pytest.mark.parametrize(
    ("rules", "field", "fragments"), [pytest.param(*c[1:], id=c[0]) for c in CALCULATOR_RULES]
)
def test_the_calculator_refuses_bad_rules(anon, rules, field, fragments):
    body = {
        "rules": rules,
        "ending": "rummikub",
        "racks": [{"player": "A", "tiles": ""}, {"player": "B", "points": 3}],
    }
    response = anon.post("/api/v1/score/", body, format="json")
    assert response.status_code == 400, response.content
    errors = response.json()
    assert list(errors) == ["rules"]
    message = message_of(errors["rules"], field)
    for fragment in fragments:
        assert fragment in message, message


def test_both_endpoints_give_the_very_same_message(table, anon):
    match, ids, client = table
    recorded = client.post(
        f"/api/v1/matches/{match.pk}/games/",
        {
            "ending": "rummikub",
            "racks": [{"player": ids[0], "tiles": ""}, {"player": ids[1], "tiles": "R5 R5 R5"}],
        },
        format="json",
    ).json()
    calculated = anon.post(
        "/api/v1/score/",
        {
            "ending": "rummikub",
            "racks": [{"player": "A", "tiles": ""}, {"player": "B", "tiles": "R5 R5 R5"}],
        },
        format="json",
    ).json()
    assert (
        recorded
        == calculated
        == {"racks": ["Tile R5 appears 3 times in this game; the set has only 2."]}
    )


def test_refusals_are_translated_by_accept_language(anon):
    response = anon.post(
        "/api/v1/score/",
        {"ending": "draw", "racks": []},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400
    assert "draw" in response.json()["ending"][0]


@pytest.mark.parametrize(
    ("lang", "rack", "says", "never"),
    [
        ("de", {"points": -5}, "die Punkte können nicht negativ sein", "points"),
        ("de", {"points": 5, "jokers": -1}, "die Zahl der Joker kann nicht negativ sein", "jokers"),
        ("nl", {"points": -1}, "de punten kunnen niet negatief zijn (opgegeven: -1)", "points"),
        ("da", {"points": 5, "jokers": -2}, "antallet af jokere kan ikke være negativt", "jokers"),
    ],
)
def test_a_bad_count_is_named_in_the_readers_language(anon, lang, rack, says, never):
    response = anon.post(
        "/api/v1/score/",
        {"ending": "rummikub", "racks": [{"player": "A", "tiles": ""}, {"player": "B", **rack}]},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    message = response.json()["racks"][0]
    assert says in message and never not in message, message
