"""Unconfirmed games in the standings: left out under ``exclude``, counted
under ``include``, and counted per player for the standings page's marks."""

from __future__ import annotations

import pytest

from scoring.rules import RackIn
from tests.factories import match_seated, seated_ids
from tournaments.models import Game, Match, Tournament
from tournaments.selectors.standings import final_places_for, stage_standings, standings_for
from tournaments.selectors.unconfirmed import Unconfirmed, unconfirmed_of
from tournaments.services.games import game_record

pytestmark = pytest.mark.django_db


def game(match: Match, points: list[int], state: str = Game.State.CONFIRMED) -> Game:
    recorded = game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=p, points=n) for p, n in zip(seated_ids(match), points, strict=True)],
    )
    Game.objects.filter(pk=recorded.pk).update(state=state)
    return recorded


def played(unconfirmed: str) -> tuple[Tournament, list[int]]:
    """Game 1 confirmed (a wins), game 2 entered (b wins), game 3 disputed (c wins)."""
    match = match_seated(
        players=3,
        confirmation=Tournament.Confirmation.ORGANISER,
        standings_unconfirmed=unconfirmed,
    )
    game(match, [0, 5, 10])
    game(match, [7, 0, 3], Game.State.ENTERED)
    game(match, [20, 20, 0], Game.State.DISPUTED)
    return match.round.tournament, seated_ids(match)


def test_exclude_counts_only_confirmed_games() -> None:
    t, (a, b, c) = played(Tournament.Unconfirmed.EXCLUDE)
    rows = {r.player_id: r for r in standings_for(tournament=t)}
    assert {p: (r.games, r.wins, r.score) for p, r in rows.items()} == {
        a: (1, 1, 15),
        b: (1, 0, -5),
        c: (1, 0, -10),
    }
    assert [r.player_id for r in final_places_for(tournament=t)] == [a, b, c]


def test_include_counts_every_game() -> None:
    t, (a, b, c) = played(Tournament.Unconfirmed.INCLUDE)
    rows = {r.player_id: r for r in standings_for(tournament=t)}
    assert {p: r.games for p, r in rows.items()} == {a: 3, b: 3, c: 3}
    assert rows[c].score == -10 - 3 + 40


def test_exclude_applies_to_stage_standings_too() -> None:
    t, (a, b, c) = played(Tournament.Unconfirmed.EXCLUDE)
    final = match_seated(players=0, tournament=t)
    final.round.stage = "final"
    final.round.save()
    for position, player in enumerate((a, b, c), start=1):
        final.seats.create(round=final.round, player_id=player, position=position)
    game(final, [4, 0, 4], Game.State.ENTERED)
    rows = stage_standings(tournament=t, stage="final", carry_over=False)
    assert all(r.games == 0 for r in rows)


@pytest.mark.parametrize(
    ("setting", "counted"),
    [(Tournament.Unconfirmed.INCLUDE, True), (Tournament.Unconfirmed.EXCLUDE, False)],
)
def test_unconfirmed_games_are_counted_per_player_in_one_query(
    setting: str, counted: bool, django_assert_num_queries
) -> None:
    t, (a, b, c) = played(setting)
    with django_assert_num_queries(1):
        waiting = unconfirmed_of(tournament=t)
    assert waiting.games == 2
    assert waiting.counted is counted
    assert waiting.players == {a: 2, b: 2, c: 2}


def test_nothing_awaits_when_every_game_is_confirmed() -> None:
    match = match_seated(players=2)
    game(match, [0, 5])
    waiting = unconfirmed_of(tournament=match.round.tournament)
    assert (waiting.games, waiting.players) == (0, {})


@pytest.mark.parametrize("setting", list(Tournament.Unconfirmed.values))
def test_standings_keep_three_queries_either_way(setting: str, django_assert_num_queries) -> None:
    t, _players = played(setting)
    with django_assert_num_queries(3):
        standings_for(tournament=t)


def test_unconfirmed_counts_per_player_within_stages() -> None:
    t, (a, b, c) = played(Tournament.Unconfirmed.EXCLUDE)
    counted = unconfirmed_of(tournament=t)
    assert (counted.games, counted.counted) == (2, False)
    assert [counted.of(p) for p in (a, b, c)] == [2, 2, 2]
    assert counted.of(-1) == 0
    assert unconfirmed_of(tournament=t, stages=["qualifying"]).games == 2
    assert unconfirmed_of(tournament=t, stages=["final"]) == Unconfirmed(counted=False)
