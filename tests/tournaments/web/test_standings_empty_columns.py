"""The standings page leaves out the adjustments column while no one has an
adjustment (its long heading squeezed the names onto several lines); the exports
keep every column."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from tests.factories import round_play, tournament_entered
from tournaments.services import adjustments, rounds

pytestmark = pytest.mark.django_db

HEADING = "Organiser&#x27;s bonuses and penalties"


def test_the_adjustments_column_shows_once_someone_has_one(client: Client) -> None:
    t = tournament_entered(players=4, games_per_round=1)
    round_play(rounds.round_seat_next(tournament=t))
    page = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert "<table" in page and HEADING not in page
    export = client.get(f"/t/{t.slug}/standings/?_export=csv").content.decode()
    assert "Organiser's bonuses and penalties" in next(csv.reader(io.StringIO(export)))

    adjustments.adjustment_add(
        tournament=t, player_id=t.entries.first().player_id, points=-5, reason="Late"
    )
    page = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert HEADING in page
