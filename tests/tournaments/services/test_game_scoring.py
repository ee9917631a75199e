"""Scoring a match's game: the rules engine is given seated players, which its
messages name by name, and the scored game names them by id again, as every
caller stores and answers them."""

from __future__ import annotations

import pytest

from scoring.errors import UserError
from scoring.rules import RackIn
from tests.factories import TournamentFactory, match_seated, seated_ids
from tournaments.models import Tournament
from tournaments.services.game_scoring import (
    SeatedPlayer,
    game_scored,
    match_seats,
    tournament_rules,
)

pytestmark = pytest.mark.django_db


def test_a_refusal_names_the_seated_player_by_name():
    match = match_seated(players=2)
    a, b = seated_ids(match)
    seats = match_seats(match)
    with pytest.raises(UserError) as refused:
        game_scored(
            match=match,
            ending="rummikub",
            racks=[RackIn(player=a, tiles=""), RackIn(player=b, tiles="R14")],
            seats=seats,
        )
    assert f"Rack 2 ({seats[b].player.name}): unknown tile “R14”" in refused.value.render()


def test_the_scored_game_names_players_by_their_plain_ids():
    match = match_seated(players=3)
    a, b, c = seated_ids(match)
    result = game_scored(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=b, points=4), RackIn(player=a, tiles=""), RackIn(player=c, points=9)],
        seats=match_seats(match),
    )
    assert [(type(r.player), r.player) for r in result.racks] == [(int, a), (int, b), (int, c)]
    assert [(type(w), w) for w in result.winners] == [(int, a)]


def test_a_seated_player_is_no_number():
    ben = SeatedPlayer(17, "Ben")
    assert str(ben) == "Ben"
    assert ben == SeatedPlayer(17, "Ben (renamed)")  # the same seat, whatever the name says
    assert ben != 17


@pytest.mark.parametrize(
    ("changed", "value"),
    [
        ("joker_penalty", 25),
        ("pool_tie", "draw"),
        ("table_points", {"4": [5, 3, 1, 0]}),
        ("loss_cap", 50),
        ("winner_bonus", 2),
        ("runner_up_bonus", 1),
    ],
)
def test_a_rule_set_is_built_once_per_setting_and_anew_for_a_changed_one(changed, value):
    tournament = TournamentFactory()
    kept = tournament_rules(tournament)
    assert kept == tournament.rules()
    assert tournament_rules(Tournament.objects.get(pk=tournament.pk)) is kept
    setattr(tournament, changed, value)
    changed_rules = tournament_rules(tournament)
    assert changed_rules is not kept
    assert changed_rules == tournament.rules()
