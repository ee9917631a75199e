"""Every number a person sets on a web page or in a URL is bounded by the rules
engine's constants: the settings form, a table's entry form, the desk's
adjustments, the calculator, the blank score pad's query and round numbers in
addresses. At its limit a number is accepted; one past it the page says so at
the field (400, or the form shown again), nothing is stored, never a 500."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from scoring import rules
from tests.factories import TournamentFactory, UserFactory, match_seated, seated_ids
from tests.tournaments.web.support import entry_post
from tests.tournaments.web.test_settings import form_post
from tournaments.models import Adjustment, Game, Tournament

pytestmark = pytest.mark.django_db

SCORE_MAX = rules.SCORE_SETTING_MAX
CENT = Decimal("0.01")

# (field, value at the limit, value one past it) on the settings form.
SETTINGS: list[tuple[str, str, str]] = [
    ("joker_penalty", str(rules.JOKER_PENALTY_MAX), str(rules.JOKER_PENALTY_MAX + 1)),
    ("joker_penalty", str(rules.JOKER_PENALTY_MAX), "32768"),
    ("joker_penalty", "0", "-1"),
    ("table_points_4", f"{rules.TABLE_POINTS_MAX} 0 0 0", f"{rules.TABLE_POINTS_MAX + 1} 0 0 0"),
    ("table_points_2", f"{rules.TABLE_POINTS_MAX} 0", "10000 0"),
    ("table_points_3", "0 0 0", "0 0 -1"),
    ("rounds", str(rules.ROUNDS_MAX), str(rules.ROUNDS_MAX + 1)),
    ("rounds", "0", "-1"),
    ("games_per_round", str(rules.GAMES_PER_ROUND_MAX), str(rules.GAMES_PER_ROUND_MAX + 1)),
    ("games_per_round", str(rules.GAMES_PER_ROUND_MIN), str(rules.GAMES_PER_ROUND_MIN - 1)),
    ("max_table_size", str(rules.PLAYERS_MAX), str(rules.PLAYERS_MAX + 1)),
    ("min_games", str(rules.MIN_GAMES_MAX), str(rules.MIN_GAMES_MAX + 1)),
    (
        "semifinal_players",
        str(rules.SEMIFINAL_PLAYERS_MAX // 4 * 4),
        str(rules.SEMIFINAL_PLAYERS_MAX + 1),
    ),
    ("bye_score", str(SCORE_MAX), str(SCORE_MAX + CENT)),
    ("bye_score", str(-SCORE_MAX), str(-SCORE_MAX - CENT)),
    ("bye_score", "0", "1e400"),
    ("loss_cap", str(rules.LOSS_CAP_MAX), str(rules.LOSS_CAP_MAX + 1)),
    ("loss_cap", "1", "0"),
    ("winner_bonus", str(rules.BONUS_MAX), str(rules.BONUS_MAX + 1)),
    ("runner_up_bonus", "0", "-1"),
    ("semifinal_games", str(rules.GAMES_PER_ROUND_MAX), str(rules.GAMES_PER_ROUND_MAX + 1)),
    ("final_games", str(rules.GAMES_PER_ROUND_MIN), str(rules.GAMES_PER_ROUND_MIN - 1)),
    ("final_first_to", str(rules.FINAL_FIRST_TO_MAX), str(rules.FINAL_FIRST_TO_MAX + 1)),
    ("round_minutes", str(rules.ROUND_MINUTES_MAX), str(rules.ROUND_MINUTES_MAX + 1)),
    ("turn_seconds", "120", "121"),
]


@pytest.mark.parametrize(("name", "limit", "past"), SETTINGS, ids=lambda v: str(v)[:20])
def test_the_settings_form_at_a_limit_and_past_it(client: Client, name, limit, past):
    client.force_login(UserFactory(password=None))
    refused = client.post("/t/new/", form_post(**{name: past}))
    assert refused.status_code in (200, 400), refused.status_code
    assert name in refused.context["form"].errors, refused.context["form"].errors
    assert not Tournament.objects.exists()

    accepted = client.post("/t/new/", form_post(**{name: limit}))
    assert accepted.status_code == 302, accepted.context and accepted.context["form"].errors
    assert Tournament.objects.count() == 1


# (what, the second rack at the limit, one past it, the field the error shows at)
RACKS: list[tuple[str, dict[str, str], dict[str, str], str]] = [
    (
        "points",
        {"points": str(rules.TILE_SET_FACE_TOTAL)},
        {"points": str(rules.TILE_SET_FACE_TOTAL + 1)},
        "p2_tiles",
    ),
    ("points huge", {"points": "1"}, {"points": "9" * 30}, "p2_tiles"),
    (
        "jokers",
        {"jokers": str(rules.JOKERS_IN_SET)},
        {"jokers": str(rules.JOKERS_IN_SET + 1)},
        "__all__",
    ),
    ("jokers huge", {"jokers": "1"}, {"jokers": "9" * 30}, "__all__"),
]


@pytest.mark.parametrize(("what", "limit", "past", "field"), RACKS, ids=[r[0] for r in RACKS])
def test_the_entry_form_at_a_limit_and_past_it(client: Client, what, limit, past, field):
    match = match_seated(players=2)
    a, b = seated_ids(match)
    refused = client.post(f"/m/{match.token}/", entry_post(match, {a: {"tiles": ""}, b: past}))
    assert refused.status_code == 400
    assert field in refused.context["form"].errors, refused.context["form"].errors
    assert not Game.objects.exists()
    accepted = client.post(f"/m/{match.token}/", entry_post(match, {a: {"tiles": ""}, b: limit}))
    assert accepted.status_code == 302
    assert Game.objects.count() == 1


@pytest.mark.parametrize("number", [rules.GAME_NUMBER_MAX + 1, 0, 10**30])
def test_the_entry_form_game_number_is_bounded(client: Client, number):
    match = match_seated(players=2, games_per_round=rules.GAMES_PER_ROUND_MAX)
    a, b = seated_ids(match)
    racks = {a: {"tiles": ""}, b: {"points": "3"}}
    refused = client.post(f"/m/{match.token}/", entry_post(match, racks, number=number))
    assert refused.status_code == 400
    assert not Game.objects.exists()
    at_limit = entry_post(match, racks, number=rules.GAME_NUMBER_MAX)
    assert client.post(f"/m/{match.token}/", at_limit).status_code == 302
    assert Game.objects.get().number == rules.GAME_NUMBER_MAX


@pytest.mark.parametrize(
    ("kind", "limit", "past"),
    [
        ("penalty", SCORE_MAX, SCORE_MAX + CENT),
        ("bonus", SCORE_MAX, SCORE_MAX + CENT),
        ("bonus", SCORE_MAX, Decimal("1e30")),
    ],
)
def test_a_desk_adjustment_at_its_limit_and_past_it(client: Client, kind, limit, past):
    match = match_seated(players=2)
    tournament = match.round.tournament
    client.force_login(tournament.owner)
    url = f"/t/{tournament.slug}/organise/adjustments/"
    body = {"player": seated_ids(match)[0], "kind": kind, "reason": "x"}
    refused = client.post(url, {**body, "points": str(past)})
    assert refused.status_code == 400
    assert "points" in refused.context["adjustment_form"].errors
    assert not Adjustment.objects.exists()
    assert client.post(url, {**body, "points": str(limit)}).status_code == 302
    assert abs(Adjustment.objects.get().points) == limit


@pytest.mark.parametrize(
    ("query", "ok"),
    [
        (f"joker_penalty={rules.JOKER_PENALTY_MAX}", True),
        (f"joker_penalty={rules.JOKER_PENALTY_MAX + 1}", False),
        ("joker_penalty=" + "9" * 40, False),
        (f"p2_points={rules.TILE_SET_FACE_TOTAL}", True),
        (f"p2_points={rules.TILE_SET_FACE_TOTAL + 1}", False),
        (f"p2_jokers={rules.JOKERS_IN_SET}&p2_points=0", True),
        (f"p2_jokers={rules.JOKERS_IN_SET + 1}&p2_points=0", False),
    ],
)
def test_the_calculator_page_at_its_limits(client: Client, query, ok):
    base = "ending=rummikub&players=2&p1_name=A&p2_name=B&p1_tiles=&pool_tie=share"
    if not query.startswith("joker_penalty"):
        base += "&joker_penalty=30"
    if "p2_" not in query:
        base += "&p2_points=5"
    response = client.get(f"/calculator/?{base}&{query}")
    assert response.status_code == (200 if ok else 400)
    assert bool(response.context["form"].errors) is not ok, response.context["form"].errors
    assert (response.context["result"] is not None) is ok


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("games=30", 200),
        ("games=31", 400),
        ("games=0", 400),
        ("games=" + "9" * 40, 400),
        ("players=4", 200),
        ("players=5", 400),
        ("players=1", 400),
        ("joker=100", 200),
        ("joker=101", 400),
    ],
)
def test_the_score_pad_query_is_bounded(client: Client, query, status):
    response = client.get(f"/scoresheet.pdf?{query}")
    assert response.status_code == status


@pytest.mark.parametrize("number", ["1", "32767", "32768", "9" * 18])
def test_round_numbers_in_addresses_never_overflow(client: Client, number):
    tournament = TournamentFactory(owner__password=None)
    response = client.get(f"/t/{tournament.slug}/rounds/{number}/")
    assert response.status_code == 404
    assert client.get(f"/t/{tournament.slug}/rounds/{'9' * 19}/").status_code == 404


def test_the_engine_bounds_fit_their_columns() -> None:
    """Each bound fits the column that stores it (PostgreSQL's sizes)."""
    smallint, integer = 32767, 2**31 - 1
    columns: dict[str, tuple[Any, Any]] = {
        "joker penalty": (rules.JOKER_PENALTY_MAX, smallint),
        "rounds": (rules.ROUNDS_MAX, smallint),
        "games per round": (rules.GAMES_PER_ROUND_MAX, smallint),
        "game number": (rules.GAME_NUMBER_MAX, smallint),
        "minimum games": (rules.MIN_GAMES_MAX, smallint),
        "semi-final players": (rules.SEMIFINAL_PLAYERS_MAX, smallint),
        "seed": (rules.SEED_MAX, integer),
        "rack points": (rules.TILE_SET_FACE_TOTAL, smallint),
        # A rack's value: its points and two jokers at the highest penalty.
        "rack value": (rules.TILE_SET_FACE_TOTAL + 2 * rules.JOKER_PENALTY_MAX, integer),
        # A place's table points, stored with 6 digits, 2 of them decimals.
        "table points": (rules.TABLE_POINTS_MAX, Decimal("9999.99")),
        # A game's score: three racks at their highest value, stored with 8 digits.
        "score": (3 * (rules.TILE_SET_FACE_TOTAL + 2 * rules.JOKER_PENALTY_MAX), SCORE_MAX),
    }
    for what, (bound, column) in columns.items():
        assert bound <= column, what
