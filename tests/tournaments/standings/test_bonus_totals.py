"""Bonuses count in every total: a player's standings score is the sum of
``score + bonus`` over their games plus adjustments (the API's standings, the
CSV export, the match's totals row), while the games' zero-sum ``score`` stays
as it was."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client

from scoring.rules import RackIn
from tests.factories import TournamentFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tournaments.models import Adjustment, Rack
from tournaments.selectors.standings import standings_for
from tournaments.services.games import game_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """The bonus league's worked game (A out; B 31, C 15, D 10) with its bonuses stored."""
    match = match_seated(players=4)
    a, b, c, d = seated_ids(match)
    points = {a: 0, b: 31, c: 15, d: 10}
    game = game_record(
        match=match, ending="rummikub", racks=[RackIn(player=p, points=points[p]) for p in points]
    )
    Rack.objects.filter(game=game, player_id=a).update(bonus=Decimal(50))
    Rack.objects.filter(game=game, player_id=d).update(bonus=Decimal(5))
    return match, (a, b, c, d)


def test_standings_count_score_plus_bonus_plus_adjustments(played):
    match, (a, b, c, d) = played
    tournament = match.round.tournament
    Adjustment.objects.create(
        tournament=tournament, player_id=d, kind="penalty", points=-2, reason="late"
    )
    rows = {r.player_id: r for r in standings_for(tournament=tournament)}
    assert {p: rows[p].score for p in (a, b, c, d)} == {
        a: Decimal(106),
        b: Decimal(-31),
        c: Decimal(-15),
        d: Decimal(-7),
    }
    assert sum(Rack.objects.values_list("score", flat=True)) == 0
    body = client_as(tournament.owner).get(f"/api/v1/tournaments/{tournament.pk}/standings/")
    scores = {row["player"]: row["score"] for row in body.json()["results"]}
    assert scores == {a: 106, b: -31, c: -15, d: -7}


def test_the_csv_export_and_the_match_totals_include_bonuses(client: Client, played):
    match, _seated = played
    tournament = match.round.tournament
    exported = client.get(f"/t/{tournament.slug}/standings/?_export=csv")
    rows = list(csv.DictReader(io.StringIO(exported.content.decode("utf-8-sig"))))
    score = next(k for k in rows[0] if k.lower() == "score")
    assert sorted(Decimal(r[score]) for r in rows) == [-31, -15, -5, 106]
    page = client.get(f"/t/{tournament.slug}/").content.decode()
    assert "bonus +50" in page and "bonus +5" in page
    assert "+106" in page  # the winner's total: +56 score, +50 bonus


def test_the_tournament_page_states_the_cap_and_bonuses(client: Client):
    plain = TournamentFactory()
    league = TournamentFactory(loss_cap=25, winner_bonus=50, runner_up_bonus=5)
    page = client.get(f"/t/{league.slug}/").content.decode()
    assert "at most 25 points lost per game" in page and "winner +50, runner-up +5" in page
    assert "Loss cap" not in client.get(f"/t/{plain.slug}/").content.decode()
