"""The final report's table says in which stage each place was decided, and the
final report is public with its tournament."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import round_play, tournament_entered
from tests.printing.engine.pdf import pages_of
from tournaments.models import Tournament
from tournaments.services import rounds, stages

pytestmark = pytest.mark.django_db


def _staged(*, finished: bool) -> Tournament:
    t = tournament_entered(players=12, games_per_round=2, rounds=1, semifinal_players=8)
    round_play(rounds.round_seat_next(tournament=t), seed=3)
    round_play(stages.stage_seat(tournament=t, stage="semifinal"), seed=4)
    round_play(stages.stage_seat(tournament=t, stage="final"), seed=5)
    if finished:
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
        t.refresh_from_db()
    return t


def _places(t: Tournament) -> str:
    pdf = Client().get(f"/t/{t.slug}/report.pdf")  # anonymous: a public tournament's report
    assert pdf.status_code == 200
    return "".join(p.extract_text() for p in pages_of(pdf.content)).split("Results by table")[0]


def test_each_final_place_names_the_stage_that_decided_it() -> None:
    t = _staged(finished=True)
    text = _places(t)
    assert "Decided in" in text
    lines = [line for line in text.split("\n") if re.match(r"^\d+ Player ", line)]
    stages_named = [
        next(s for s in ("Final", "Semi-finals", "Qualifying") if s in line) for line in lines
    ]
    # 4 finalists, the other 4 semi-finalists, then the 4 out after qualifying.
    assert stages_named == ["Final"] * 4 + ["Semi-finals"] * 4 + ["Qualifying"] * 4


def test_no_stage_column_without_stages() -> None:
    t = tournament_entered(players=4, games_per_round=1)
    round_play(rounds.round_seat_next(tournament=t))
    text = _places(t)
    assert "Decided in" not in text and "Stage" not in text and "Qualifying" not in text


def test_the_adjustments_column_only_when_someone_has_one() -> None:
    from tournaments.services import adjustments

    t = tournament_entered(players=4, games_per_round=1)
    round_play(rounds.round_seat_next(tournament=t))
    heading = "Organiser's"
    assert heading not in _places(t)
    adjustments.adjustment_add(
        tournament=t, player_id=t.entries.first().player_id, points=-5, reason="Late"
    )
    assert heading in _places(t)
