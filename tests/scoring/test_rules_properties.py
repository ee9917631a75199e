"""Properties every scored game keeps, whatever the racks (Hypothesis)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    ENDINGS,
    POOL_TIES,
    TILE_COLOURS,
    GameOut,
    RackIn,
    RuleError,
    Rules,
    Tile,
    game_score,
    table_points_for,
    tiles_format,
    tiles_parse,
)

# Per test, not a global profile: other modules' Hypothesis settings are theirs.
moderate = settings(max_examples=150, deadline=None)

SET = [Tile(c, n) for c in TILE_COLOURS for n in range(1, 14)] * 2 + [Tile("J", 0)] * 2
CENT = Decimal("0.01")

rules_any = st.builds(
    Rules,
    joker_penalty=st.sampled_from([0, 25, 30, 50]) | st.integers(0, 100),
    pool_tie=st.sampled_from(POOL_TIES),
)


@st.composite
def tile_racks(draw: st.DrawFn, *, ending: str) -> list[RackIn]:
    """2-4 racks dealt from one shuffled set; short racks make ties for lowest common."""
    players = draw(st.integers(2, 4))
    deck = draw(st.permutations(SET))
    sizes = [draw(st.integers(1, 3) | st.integers(1, 20)) for _ in range(players)]
    if ending == "rummikub":
        sizes[draw(st.integers(0, players - 1))] = 0
    racks, dealt = [], 0
    for seat, size in enumerate(sizes):
        hand = deck[dealt : dealt + size]
        dealt += size
        text = draw(st.sampled_from([" ", ", "])).join(str(tile) for tile in hand)
        racks.append(RackIn(player=f"P{seat}", tiles=draw(st.sampled_from([text, text.lower()]))))
    return racks


@st.composite
def point_racks(draw: st.DrawFn, *, ending: str) -> list[RackIn]:
    """2-4 racks entered by hand; small values make ties, also among 3 or 4 winners."""
    players = draw(st.integers(2, 4))
    jokers_left = 2
    racks = []
    for seat in range(players):
        jokers = draw(st.just(0) | st.integers(0, jokers_left))
        jokers_left -= jokers
        points = draw(st.integers(1, 3) | st.integers(1, 150))
        racks.append(RackIn(player=seat, points=points, jokers=jokers))
    if ending == "rummikub":
        winner = draw(st.integers(0, players - 1))
        racks[winner] = RackIn(player=winner, points=0)
    return racks


@st.composite
def games(draw: st.DrawFn) -> tuple[str, list[RackIn], Rules]:
    ending = draw(st.sampled_from(ENDINGS))
    racks = draw(tile_racks(ending=ending) | point_racks(ending=ending))
    return ending, racks, draw(rules_any)


def shares_are_even(game: GameOut) -> bool:
    return len({rack.score for rack in game.racks if rack.winner}) == 1


@moderate
@given(games())
def test_every_game_sums_to_zero(game_in: tuple[str, list[RackIn], Rules]) -> None:
    ending, racks, rules = game_in
    game = game_score(ending=ending, racks=racks, rules=rules)
    assert sum(rack.score for rack in game.racks) == 0
    assert all(rack.score == rack.score.quantize(CENT) for rack in game.racks)


@moderate
@given(games())
def test_winners_plus_is_the_losers_minus(game_in: tuple[str, list[RackIn], Rules]) -> None:
    ending, racks, rules = game_in
    game = game_score(ending=ending, racks=racks, rules=rules)
    winners = [rack for rack in game.racks if rack.winner]
    assert game.winners == tuple(rack.player for rack in winners)
    if not winners:  # a draw: the tied lowest racks share the plus, and nobody wins
        assert rules.pool_tie == "draw"
        lowest = min(rack.rack_value for rack in game.racks)
        winners = [rack for rack in game.racks if rack.rack_value == lowest]
        assert len(winners) > 1
    losers = [rack for rack in game.racks if rack not in winners]
    assert sum(rack.score for rack in winners) == -sum(rack.score for rack in losers)
    assert all(rack.score >= 0 for rack in winners)
    assert all(rack.score <= 0 for rack in losers)
    lowest = min(rack.rack_value for rack in game.racks)
    assert all(rack.rack_value == lowest for rack in winners)
    for rack in losers:  # a loser pays the gap to the lowest rack (to zero in a rummikub)
        assert rack.score == lowest - rack.rack_value
    if len(winners) > 1:  # joint winners split within a cent, spare cents seated first
        shares = [rack.score for rack in winners]
        assert max(shares) - min(shares) <= CENT
        assert shares == sorted(shares, reverse=True)


@moderate
@given(games(), st.data())
def test_permuting_seats_permutes_scores(
    game_in: tuple[str, list[RackIn], Rules], data: st.DataObject
) -> None:
    ending, racks, rules = game_in
    order = data.draw(st.permutations(range(len(racks))))
    game = game_score(ending=ending, racks=racks, rules=rules)
    moved = game_score(ending=ending, racks=[racks[i] for i in order], rules=rules)

    assert Counter(rack.score for rack in moved.racks) == Counter(r.score for r in game.racks)
    assert set(moved.winners) == set(game.winners)
    for seat, before in enumerate(order):
        after, was = moved.racks[seat], game.racks[before]
        # Only an uneven split depends on the seats: the spare cents go to whoever sits first.
        if shares_are_even(game):
            assert after == was
        else:
            assert after.player == was.player and after.winner == was.winner
            assert after.rack_value == was.rack_value and after.tiles == was.tiles
            assert abs(after.score - was.score) <= CENT


@moderate
@given(
    st.sampled_from(ENDINGS).flatmap(
        lambda ending: tile_racks(ending=ending).map(lambda r: (ending, r))
    ),
    st.integers(0, 60),
    st.data(),
)
def test_tiles_and_points_score_alike(
    game_in: tuple[str, list[RackIn]], joker_penalty: int, data: st.DataObject
) -> None:
    ending, racks = game_in
    rules = Rules(joker_penalty=joker_penalty, pool_tie="share")
    by_hand = []
    for rack in racks:
        tiles = tiles_parse(rack.tiles or "")
        points = sum(tile.face_value for tile in tiles)
        jokers = sum(tile.is_joker for tile in tiles)
        # Points alone mean no jokers and jokers alone no points, so leave out what is 0.
        alone = {"points": points} if points or not jokers else {}
        alone |= {"jokers": jokers} if jokers else {}
        form = data.draw(st.sampled_from(["tiles", "points", "both", "alone"]))
        by_hand.append(
            {
                "tiles": rack,
                "points": RackIn(player=rack.player, points=points, jokers=jokers),
                "both": RackIn(player=rack.player, tiles=rack.tiles, points=points, jokers=jokers),
                "alone": RackIn(player=rack.player, **alone),
            }[form]
        )
    listed = game_score(ending=ending, racks=racks, rules=rules)
    counted = game_score(ending=ending, racks=by_hand, rules=rules)
    assert [r.score for r in listed.racks] == [r.score for r in counted.racks]
    assert [r.rack_value for r in listed.racks] == [r.rack_value for r in counted.racks]
    assert listed.winners == counted.winners


@moderate
@given(
    st.integers(2, 4).flatmap(
        lambda size: st.tuples(
            st.lists(st.integers(-5, 5) | st.integers(-200, 200), min_size=size, max_size=size),
            st.lists(st.integers(-3, 10), min_size=size, max_size=size).map(
                lambda v: sorted(v, reverse=True)
            ),
        )
    )
)
def test_table_points_hand_out_the_vector(scores_vector: tuple[list[int], list[int]]) -> None:
    raw, vector = scores_vector
    scores = [Decimal(s) / 2 for s in raw]  # halves, as shared game scores can be
    points = table_points_for(scores=scores, vector=vector)
    assert sum(points) == sum(vector)
    for i, mine in enumerate(points):
        for j, theirs in enumerate(points):
            if scores[i] > scores[j]:
                assert mine >= theirs
            elif scores[i] == scores[j]:
                assert abs(mine - theirs) <= CENT


@moderate
@given(games())
def test_table_points_of_real_games(game_in: tuple[str, list[RackIn], Rules]) -> None:
    ending, racks, rules = game_in
    game = game_score(ending=ending, racks=racks, rules=rules)
    vector = rules.table_points[len(racks)]
    points = table_points_for(scores=[rack.score for rack in game.racks], vector=vector)
    assert sum(points) == sum(vector)
    winner_points = {p for p, rack in zip(points, game.racks, strict=True) if rack.winner}
    # A draw has no winner; otherwise a winner holds the most points.
    assert not winner_points or max(winner_points) == max(points)


@moderate
@given(st.lists(st.sampled_from(SET), max_size=30))
def test_format_then_parse_keeps_the_tiles(tiles: list[Tile]) -> None:
    text = tiles_format(tiles)
    assert sorted(tiles_parse(text)) == sorted(tiles)
    assert tiles_format(tiles_parse(text.lower().replace(" ", ", "))) == text


@moderate
@given(st.text(max_size=40))
def test_parse_refuses_only_with_rule_errors(text: str) -> None:
    try:
        tiles = tiles_parse(text)
    except RuleError as refused:
        assert refused.field == "tiles"
        assert refused.params["token"]
    else:
        assert all(isinstance(tile, Tile) for tile in tiles)
