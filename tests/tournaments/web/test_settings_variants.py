"""The settings form's event variants, stages and hall: grouped in their own
sections with help text, stored on create and edit, shown again on the edit
page, refused at their input (several at once, nothing stored), and the
scoring variants kept once results exist while stages and the hall stay
editable."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import TournamentFactory, UserFactory, match_seated
from tests.tournaments.web.support import play
from tests.tournaments.web.test_settings import form_of, form_post
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> tuple[Tournament, Match]:
    """A tournament with one game recorded."""
    match = match_seated(players=4, games_per_round=2)
    play(match, games=1)
    return match.round.tournament, match


VARIANTS = {
    "loss_cap": "25",
    "winner_bonus": "50",
    "runner_up_bonus": "5",
    "semifinal_players": "8",
    "semifinal_games": "2",
    "final_games": "1",
    "final_first_to": "4",
    "carry_over": "0.5",
    "final_from": "stage_points",
    "turn_seconds": "90",
    "round_minutes": "45",
    "pool_tie": "draw",
    "ranking": "wins",
}


def test_the_form_groups_the_new_settings_with_help(client: Client) -> None:
    client.force_login(UserFactory(password=None))
    page = client.get("/t/new/")
    titles = [s.title for s in page.context["form"].sections()]
    assert titles[titles.index("Scoring variants") :][:1] == ["Scoring variants"]
    assert {"Stages", "The hall"} <= set(titles)
    html = page.content.decode()
    for name in ("loss_cap", "winner_bonus", "final_first_to", "carry_over", "turn_seconds"):
        assert f'name="{name}"' in html
    assert "final_carry_over" not in html
    assert "Empty for no cap." in html and 'max="10000"' in html
    assert '<option value="0.5">half, rounded up</option>' in html


def test_a_new_tournament_with_every_variant(client: Client) -> None:
    client.force_login(UserFactory(password=None))
    response = client.post("/t/new/", form_post(**VARIANTS))
    assert response.status_code == 302, response.context and response.context["form"].errors
    t = Tournament.objects.get()
    assert (t.loss_cap, t.winner_bonus, t.runner_up_bonus) == (25, 50, 5)
    assert (t.semifinal_games, t.final_games, t.final_first_to) == (2, 1, 4)
    assert (t.carry_over, t.final_from, t.turn_seconds, t.round_minutes) == (
        "0.5",
        "stage_points",
        90,
        45,
    )
    assert (t.pool_tie, t.ranking) == ("draw", "wins")


def test_empty_cap_and_stage_games_mean_none(client: Client) -> None:
    t = TournamentFactory(loss_cap=25, semifinal_games=2)
    client.force_login(t.owner)
    page = client.get(f"/t/{t.slug}/edit/")
    assert page.context["form"].initial["loss_cap"] == 25
    response = client.post(
        f"/t/{t.slug}/edit/", form_of(t) | {"loss_cap": "", "semifinal_games": ""}
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.loss_cap, t.semifinal_games) == (None, None)


def test_bad_variants_are_refused_at_their_inputs_at_once(client: Client) -> None:
    client.force_login(UserFactory(password=None))
    bad = {
        "loss_cap": "0",
        "winner_bonus": "-5",
        "final_first_to": "9",
        "carry_over": "2",
        "turn_seconds": "45",
        "final_from": "luck",
        "round_minutes": "x",
    }
    response = client.post("/t/new/", form_post(**bad))
    assert response.status_code == 400
    assert set(response.context["form"].errors) == set(bad)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"loss_cap": "25"}, "loss_cap"), ({"winner_bonus": "50"}, "winner_bonus")],
)
def test_scoring_variants_stay_once_results_exist(
    client: Client, played, changes: dict[str, Any], field: str
) -> None:
    t, _match = played
    client.force_login(t.owner)
    response = client.post(f"/t/{t.slug}/edit/", form_of(t) | changes)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [field] and errors[field][0].startswith("Results exist:")
    t.refresh_from_db()
    assert (t.loss_cap, t.winner_bonus) == (None, 0)


def test_stages_and_the_hall_stay_editable_after_results(client: Client, played) -> None:
    t, _match = played
    client.force_login(t.owner)
    changes = {"final_first_to": "4", "carry_over": "1", "turn_seconds": "40"}
    assert client.post(f"/t/{t.slug}/edit/", form_of(t) | changes).status_code == 302
    t.refresh_from_db()
    assert (t.final_first_to, t.carry_over, t.turn_seconds) == (4, "1", 40)
