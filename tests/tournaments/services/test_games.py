from decimal import Decimal

import pytest

from scoring.errors import ConflictError, PreconditionFailedError, UserError
from scoring.rules import RackIn
from tests.factories import PlayerFactory, match_seated, seated_ids
from tournaments.models import AuditEvent, Game, Rack
from tournaments.services.games import game_correct, game_delete, game_record

pytestmark = pytest.mark.django_db

# The Danish rulebook's table, as racks: (ending, points per seat A..D).
DANISH = [
    [24, -5, -16, -3],
    [-6, -11, 22, -5],
    [-32, -13, -2, 47],
]


def racks_from_scores(ids: list[int], scores: list[int]) -> list[RackIn]:
    return [RackIn(player=p, points=max(0, -s), jokers=0) for p, s in zip(ids, scores, strict=True)]


def test_game_record_reproduces_the_danish_table():
    match = match_seated(players=4)
    ids = seated_ids(match)
    for row in DANISH:
        game_record(match=match, ending="rummikub", racks=racks_from_scores(ids, row))
    totals = {p: sum(Rack.objects.filter(player_id=p).values_list("score", flat=True)) for p in ids}
    assert [totals[p] for p in ids] == [-14, -29, 4, 39]
    assert list(match.games.values_list("number", flat=True)) == [1, 2, 3]


def test_game_record_stores_tiles_values_and_table_points():
    match = match_seated(players=3)
    a, b, c = seated_ids(match)
    game = game_record(
        match=match,
        ending="rummikub",
        racks=[
            RackIn(player=a, tiles=""),
            RackIn(player=b, tiles="r5 j"),
            RackIn(player=c, points=16),
        ],
    )
    racks = {r.player_id: r for r in game.racks.all()}
    assert racks[b].tiles == "R5 J" and racks[b].entered_as_tiles
    assert racks[b].rack_value == 35 and racks[b].score == -35
    assert racks[a].score == 51 and racks[a].winner
    assert [racks[p].table_points for p in (a, c, b)] == [4, 2, 0]
    assert AuditEvent.objects.get().action == "game.recorded"


def test_a_refused_game_stores_nothing():
    match = match_seated(players=4)
    ids = seated_ids(match)
    with pytest.raises(UserError) as err:
        game_record(
            match=match,
            ending="rummikub",
            racks=[RackIn(player=ids[0], tiles=""), RackIn(player=ids[1], tiles="R14")],
        )
    assert "R14" in str(err.value)
    assert not Game.objects.exists() and not Rack.objects.exists()


def test_a_player_not_seated_is_refused():
    match = match_seated(players=2)
    stranger = PlayerFactory()
    with pytest.raises(UserError, match="not seated"):
        game_record(
            match=match,
            ending="rummikub",
            racks=[
                RackIn(player=seated_ids(match)[0], tiles=""),
                RackIn(player=stranger.pk, points=5),
            ],
        )
    assert not Game.objects.exists()


def test_no_more_games_than_the_round_plays():
    match = match_seated(players=2, games_per_round=1)
    a, b = seated_ids(match)
    racks = [RackIn(player=a, tiles=""), RackIn(player=b, points=3)]
    game_record(match=match, ending="rummikub", racks=racks)
    with pytest.raises(ConflictError):
        game_record(match=match, ending="rummikub", racks=racks)
    assert Game.objects.count() == 1


def test_correction_recomputes_and_keeps_history():
    match = match_seated(players=2)
    a, b = seated_ids(match)
    game = game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=a, tiles=""), RackIn(player=b, points=3)],
    )
    game = game_correct(
        game=game,
        ending="pool_exhausted",
        version=1,
        racks=[RackIn(player=a, points=2), RackIn(player=b, points=9)],
    )
    assert game.version == 2
    assert {r.player_id: r.score for r in game.racks.all()} == {a: Decimal(7), b: Decimal(-7)}
    history = list(AuditEvent.objects.order_by("id").values_list("action", "version"))
    assert history == [("game.recorded", 1), ("game.corrected", 2)]
    with pytest.raises(PreconditionFailedError):
        game_correct(
            game=game,
            ending="rummikub",
            version=1,
            racks=[RackIn(player=a, tiles=""), RackIn(player=b, points=3)],
        )


def test_delete_keeps_history_and_the_gap_is_filled_next():
    match = match_seated(players=2)
    a, b = seated_ids(match)
    racks = [RackIn(player=a, tiles=""), RackIn(player=b, points=3)]
    games = [game_record(match=match, ending="rummikub", racks=racks) for _ in range(3)]
    game_delete(game=games[1], version=1)
    assert list(match.games.values_list("number", flat=True)) == [1, 3]
    assert game_record(match=match, ending="rummikub", racks=racks).number == 2
    deleted = AuditEvent.objects.get(action="game.deleted")
    assert deleted.new is None and deleted.old is not None
    assert deleted.old["racks"][1]["points"] == 3


def test_every_seated_player_needs_a_rack():
    match = match_seated(players=3)
    a, b, c = seated_ids(match)
    with pytest.raises(UserError) as err:
        game_record(
            match=match,
            ending="rummikub",
            racks=[RackIn(player=a, tiles=""), RackIn(player=b, points=4)],
        )
    assert err.value.field == "racks"
    assert "missing: " + match.seats.get(player_id=c).player.name in str(err.value)
    assert not Game.objects.exists()
