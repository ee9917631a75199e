"""A tournament's event variants, stages and hall settings through the API:
read, created, changed, refused with a specific message naming the field
(nothing stored), audited, and the scoring ones kept once results exist; each
game's score lines answer their ``bonus``."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.factories import TournamentFactory, match_seated, seated_ids
from tournaments.models import AuditEvent, Rack, Tournament

pytestmark = pytest.mark.django_db

VARIANTS = {
    "loss_cap": 25,
    "winner_bonus": 50,
    "runner_up_bonus": 5,
    "semifinal_games": 2,
    "final_games": 1,
    "final_first_to": 4,
    "carry_over": 0.5,
    "final_from": "stage_points",
    "turn_seconds": 90,
    "round_minutes": 45,
    "pool_tie": "draw",
    "ranking": "wins",
}
DEFAULTS = {
    "loss_cap": None,
    "winner_bonus": 0,
    "runner_up_bonus": 0,
    "semifinal_games": None,
    "final_games": None,
    "final_first_to": 0,
    "carry_over": 0,
    "final_from": "semifinal_winners",
    "turn_seconds": 60,
    "round_minutes": 0,
    "format": "",
}


@pytest.fixture
def api(as_user, owner):
    return as_user(owner)


def test_a_new_tournament_answers_the_defaults(api, anon):
    body = api.post("/api/v1/tournaments/", {"name": "Club night"}, format="json").json()
    assert {k: body[k] for k in DEFAULTS} == DEFAULTS
    assert "final_carry_over" not in body
    public = anon.get(f"/api/v1/tournaments/{body['id']}/").json()
    assert {k: public[k] for k in DEFAULTS} == DEFAULTS


def test_every_variant_is_created_stored_and_answered(api):
    response = api.post("/api/v1/tournaments/", {"name": "League", **VARIANTS}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert {k: body[k] for k in VARIANTS} == VARIANTS
    stored = Tournament.objects.get(pk=body["id"])
    assert (stored.loss_cap, stored.carry_over, stored.turn_seconds) == (25, "0.5", 90)
    assert (stored.semifinal_games, stored.final_first_to, stored.ranking) == (2, 4, "wins")


@pytest.mark.parametrize(("sent", "stored"), [(0, "0"), (0.5, "0.5"), (1, "1"), (1.0, "1")])
def test_carry_over_is_a_number(api, owner, sent, stored):
    t = TournamentFactory(owner=owner)
    response = api.patch(f"/api/v1/tournaments/{t.pk}/", {"carry_over": sent}, format="json")
    assert response.status_code == 200, response.content
    assert Tournament.objects.get(pk=t.pk).carry_over == stored
    assert response.json()["carry_over"] == float(stored)


def test_tie_breaks_named_by_the_ranking_are_accepted(api, owner):
    t = TournamentFactory(owner=owner)
    response = api.patch(
        f"/api/v1/tournaments/{t.pk}/", {"tie_breaks": ["score", "wins"]}, format="json"
    )
    assert response.status_code == 200, response.content


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"carry_over": 0.25}, "carry_over"),
        ({"carry_over": "0.5"}, "carry_over"),
        ({"carry_over": True}, "carry_over"),
        ({"carry_over": None}, "carry_over"),
        ({"turn_seconds": 45}, "turn_seconds"),
        ({"final_from": "luck"}, "final_from"),
        ({"loss_cap": 0}, "loss_cap"),
        ({"loss_cap": -25}, "loss_cap"),
        ({"loss_cap": 2.5}, "loss_cap"),
        ({"winner_bonus": -1}, "winner_bonus"),
        ({"runner_up_bonus": "five"}, "runner_up_bonus"),
        ({"final_first_to": 8}, "final_first_to"),
        ({"semifinal_games": 0}, "semifinal_games"),
        ({"final_games": 31}, "final_games"),
        ({"round_minutes": -1}, "round_minutes"),
    ],
)
def test_bad_variants_are_refused_naming_the_field(api, owner, body, field):
    t = TournamentFactory(owner=owner)
    response = api.patch(f"/api/v1/tournaments/{t.pk}/", body, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]
    fresh = Tournament.objects.get(pk=t.pk)
    assert (fresh.carry_over, fresh.loss_cap, fresh.turn_seconds) == ("0", None, 60)


def test_a_changed_variant_is_audited(api, owner):
    t = TournamentFactory(owner=owner)
    api.patch(
        f"/api/v1/tournaments/{t.pk}/",
        {"loss_cap": 25, "carry_over": 1, "turn_seconds": 40},
        format="json",
    )
    event = AuditEvent.objects.get(tournament=t, action=AuditEvent.Action.SETTINGS_CHANGED)
    assert event.old == {"loss_cap": None, "carry_over": "0", "turn_seconds": 60}
    assert event.new == {"loss_cap": 25, "carry_over": "1", "turn_seconds": 40}


@pytest.mark.parametrize(
    ("name", "value"), [("loss_cap", 25), ("winner_bonus", 50), ("runner_up_bonus", 5)]
)
def test_scoring_variants_stay_once_results_exist(as_user, name, value):
    match = match_seated(players=4)
    t = match.round.tournament
    api = as_user(t.owner)
    a, b, c, d = seated_ids(match)
    recorded = api.post(
        f"/api/v1/matches/{match.pk}/games/",
        {
            "ending": "rummikub",
            "racks": [
                {"player": a, "points": 0},
                {"player": b, "points": 10},
                {"player": c, "points": 5},
                {"player": d, "points": 3},
            ],
        },
        format="json",
    )
    assert recorded.status_code == 201, recorded.content
    response = api.patch(f"/api/v1/tournaments/{t.pk}/", {name: value}, format="json")
    assert response.status_code == 409, response.content
    assert getattr(Tournament.objects.get(pk=t.pk), name) == getattr(t, name)
    # The stages and the hall stay editable.
    assert (
        api.patch(f"/api/v1/tournaments/{t.pk}/", {"round_minutes": 50}, format="json").status_code
        == 200
    )


def test_score_lines_answer_their_bonus(as_user):
    match = match_seated(players=4)
    api = as_user(match.round.tournament.owner)
    a, b, c, d = seated_ids(match)
    body = api.post(
        f"/api/v1/matches/{match.pk}/games/",
        {
            "ending": "rummikub",
            "racks": [
                {"player": a, "points": 0},
                {"player": b, "points": 31},
                {"player": c, "points": 15},
                {"player": d, "points": 10},
            ],
        },
        format="json",
    ).json()
    assert [line["bonus"] for line in body["scores"]] == [0, 0, 0, 0]
    assert list(Rack.objects.values_list("bonus", flat=True)) == [Decimal(0)] * 4
    Rack.objects.filter(player_id=a).update(bonus=Decimal("50"))
    again = api.get(f"/api/v1/games/{body['id']}/").json()
    assert [line["bonus"] for line in again["scores"]] == [50, 0, 0, 0]


def _racks(ids: list[int], points: tuple[int, ...]) -> list[dict[str, int]]:
    return [{"player": p, "points": v} for p, v in zip(ids, points, strict=True)]


def test_the_bonus_league_game_is_recorded_corrected_and_totalled(as_user):
    """The worked example: cap 25, winner +50, runner-up +5; racks 0 / 31 / 15 / 10."""
    match = match_seated(players=4, loss_cap=25, winner_bonus=50, runner_up_bonus=5)
    t = match.round.tournament
    api = as_user(t.owner)
    ids = seated_ids(match)
    body = api.post(
        f"/api/v1/matches/{match.pk}/games/",
        {"ending": "rummikub", "racks": _racks(ids, (0, 31, 15, 10))},
        format="json",
    ).json()
    assert [(s["score"], s["bonus"]) for s in body["scores"]] == [
        (50, 50),
        (-25, 0),
        (-15, 0),
        (-10, 5),
    ]
    stored = Rack.objects.filter(game_id=body["id"]).order_by("position")
    assert [r.bonus for r in stored] == [Decimal(50), 0, 0, Decimal(5)]
    standings = api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()["results"]
    assert {r["player"]: r["score"] for r in standings} == dict(
        zip(ids, (100, -25, -15, -5), strict=True)
    )

    # A correction scores again: the second player went out, the third is runner-up.
    url = f"/api/v1/games/{body['id']}/"
    corrected = api.put(
        url,
        {"ending": "rummikub", "racks": _racks(ids, (40, 0, 3, 12))},
        format="json",
        HTTP_IF_MATCH=api.get(url)["ETag"],
    )
    assert corrected.status_code == 200, corrected.content
    assert [s["bonus"] for s in corrected.json()["scores"]] == [0, 50, 5, 0]
    assert [r.bonus for r in stored.all()] == [0, Decimal(50), Decimal(5), 0]
    assert sum(r.score for r in stored.all()) == 0
