"""The settings form with the plan checks and a finished tournament: an
impossible plan is refused at its field, a finished tournament's plan and rules
with a message on the form, and nothing is changed; its description stays editable."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import TournamentFactory, UserFactory, match_seated
from tests.tournaments.web.test_settings import form_of, form_post
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_semifinals_of_one_table_are_refused_at_the_field(client: Client) -> None:
    client.force_login(UserFactory())
    response = client.post("/t/new/", form_post(semifinal_players="4"))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == ["semifinal_players"]
    assert "two tables or more so that a final follows" in errors["semifinal_players"][0]
    assert not Tournament.objects.exists()


def test_rounds_below_those_seated_are_refused_at_the_field(client: Client) -> None:
    t = TournamentFactory(rounds=3)
    match_seated(players=4, tournament=t)
    match_seated(players=4, tournament=t)
    client.force_login(t.owner)
    response = client.post(f"/t/{t.slug}/edit/", form_of(t) | {"rounds": "1"})
    assert response.status_code == 400
    assert "Qualifying rounds seated already: 2" in response.context["form"].errors["rounds"][0]
    t.refresh_from_db()
    assert t.rounds == 3


def test_a_finished_tournament_keeps_its_plan_but_not_its_name(client: Client) -> None:
    t = TournamentFactory(status=Tournament.Status.FINISHED, rounds=3)
    client.force_login(t.owner)
    response = client.post(f"/t/{t.slug}/edit/", form_of(t) | {"rounds": "4"})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "The tournament is finished: reopen it to change it."
    ]
    t.refresh_from_db()
    assert t.rounds == 3
    renamed = client.post(f"/t/{t.slug}/edit/", form_of(t) | {"name": "Winter Cup"})
    assert renamed.status_code == 302
    t.refresh_from_db()
    assert (t.name, t.rounds, t.status) == ("Winter Cup", 3, Tournament.Status.FINISHED)
