"""The scoring rules against the rulebooks' worked examples and hand-worked cases."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scoring.errors import UserError
from scoring.rules import (
    DEFAULT_TABLE_POINTS,
    ENDINGS,
    POOL_TIES,
    TILE_SET_FACE_TOTAL,
    GameOut,
    RackIn,
    RuleError,
    Rules,
    Tile,
    game_score,
    rack_entered,
    rack_value,
    racks_count_check,
    starting_seat,
    table_points_for,
    tiles_format,
    tiles_parse,
)

D = Decimal


def racks_of(*entries: str | dict[str, Any]) -> list[RackIn]:
    """Racks for players A, B, C, ...: a string is a tile list, a dict the other fields."""
    return [
        RackIn(player=chr(ord("A") + seat), tiles=entry)
        if isinstance(entry, str)
        else RackIn(player=chr(ord("A") + seat), **entry)
        for seat, entry in enumerate(entries)
    ]


def scores_of(game: GameOut) -> list[Decimal]:
    return [rack.score for rack in game.racks]


# --------------------------------------------------------------------------- constants


def test_constants() -> None:
    assert ENDINGS == ("rummikub", "pool_exhausted", "time_up")
    assert POOL_TIES == ("share", "fewest_tiles", "draw")
    assert DEFAULT_TABLE_POINTS == {2: (4, 0), 3: (4, 2, 0), 4: (4, 3, 1, 0)}
    assert TILE_SET_FACE_TOTAL == 728
    assert issubclass(RuleError, UserError)


# --------------------------------------------------------------------------- rulebooks

# Racks that reproduce the rulebooks' score examples; in each game the winner's rack is
# empty and the losers hold exactly the points the example takes from them.
GAME_1 = ("", "R5", "K9 B7", "O3")  # +24 / -5 / -16 / -3
GAME_2 = ("R6", "B11", "", "K2 O3")  # -6 / -11 / +22 / -5
GAME_3 = ("J R2", "K13", "B2", "")  # -32 / -13 / -2 / +47, a joker at 30

DANISH = (  # 000: three games
    [GAME_1, GAME_2, GAME_3],
    [[24, -5, -16, -3], [-6, -11, 22, -5], [-32, -13, -2, 47]],
    [-14, -29, 4, 39],
    30,
)
NORWEGIAN = (  # 002: the first two games
    [GAME_1, GAME_2],
    [[24, -5, -16, -3], [-6, -11, 22, -5]],
    [18, -16, 6, -8],
    30,
)
# 004 (Dutch, joker 25) prints the same two games; its OCR reads Speler B as "5 -1 -16",
# which the total -16 and the Norwegian sheet settle as -5 and -11.
DUTCH = (
    [GAME_1, GAME_2],
    [[24, -5, -16, -3], [-6, -11, 22, -5]],
    [18, -16, 6, -8],
    25,
)


@pytest.mark.parametrize(
    ("games", "expected", "totals", "joker_penalty"),
    [DANISH, NORWEGIAN, DUTCH],
    ids=["danish-000", "norwegian-002", "dutch-004"],
)
def test_rulebook_score_examples(
    games: list[tuple[str, ...]],
    expected: list[list[int]],
    totals: list[int],
    joker_penalty: int,
) -> None:
    rules = Rules(joker_penalty=joker_penalty)
    played = [game_score(ending="rummikub", racks=racks_of(*game), rules=rules) for game in games]
    assert [scores_of(game) for game in played] == [[D(s) for s in row] for row in expected]
    column_totals = [sum(column) for column in zip(*map(scores_of, played), strict=True)]
    assert column_totals == [D(t) for t in totals]
    assert sum(column_totals) == 0  # the rulebooks' check: plus equals minus


def test_game_out_shape() -> None:
    game = game_score(ending="rummikub", racks=racks_of(*GAME_1))
    assert game.ending == "rummikub"
    assert game.winners == ("A",)
    winner, loser = game.racks[0], game.racks[2]
    assert (winner.player, winner.tiles, winner.tile_count, winner.winner) == ("A", (), 0, True)
    assert loser.tiles == (Tile("K", 9), Tile("B", 7))
    assert (loser.points, loser.jokers, loser.tile_count, loser.rack_value) == (16, 0, 2, 16)
    assert loser.score == D("-16") and loser.score.as_tuple().exponent == -2
    assert not loser.winner


# --------------------------------------------------------------------------- jokers


@pytest.mark.parametrize("joker_penalty", [0, 25, 30, 50])
def test_joker_penalty(joker_penalty: int) -> None:
    game = game_score(
        ending="rummikub",
        racks=racks_of("", "J R3", {"points": 4, "jokers": 1}),
        rules=Rules(joker_penalty=joker_penalty),
    )
    assert [rack.rack_value for rack in game.racks] == [0, 3 + joker_penalty, 4 + joker_penalty]
    assert scores_of(game) == [7 + 2 * joker_penalty, -(3 + joker_penalty), -(4 + joker_penalty)]


@pytest.mark.parametrize(
    ("points", "jokers", "joker_penalty", "value"),
    [(0, 0, 30, 0), (10, 1, 30, 40), (10, 2, 25, 60), (0, 2, 50, 100), (7, 1, 0, 7)],
)
def test_rack_value(points: int, jokers: int, joker_penalty: int, value: int) -> None:
    assert rack_value(points=points, jokers=jokers, joker_penalty=joker_penalty) == value


# --------------------------------------------------------------------------- pool exhausted


@pytest.mark.parametrize(
    ("racks", "rules", "expected", "winners"),
    [
        # values 10, 25, 7, 40: lowest 7; losers -3, -18, -33; winner +54
        (racks_of("R10", "K12 B13", "O7", "J R10"), Rules(), [-3, -18, 54, -33], ("C",)),
        # the same by points; a joker on the lowest rack
        (
            racks_of({"points": 10}, {"points": 25}, {"points": 2, "jokers": 1}, {"points": 40}),
            Rules(joker_penalty=5),
            [-3, -18, 54, -33],
            ("C",),
        ),
        # two players
        (racks_of("R1", "K13"), Rules(), [12, -12], ("A",)),
        # the joker decides: 1 + 30 against 20
        (racks_of("J R1", "K10 B10"), Rules(), [-11, 11], ("B",)),
        (racks_of("J R1", "K10 B10"), Rules(joker_penalty=0), [19, -19], ("A",)),
    ],
)
def test_pool_exhausted(
    racks: list[RackIn], rules: Rules, expected: list[int], winners: tuple[str, ...]
) -> None:
    game = game_score(ending="pool_exhausted", racks=racks, rules=rules)
    assert scores_of(game) == [D(s) for s in expected]
    assert game.winners == winners
    assert [rack.winner for rack in game.racks] == [rack.player in winners for rack in racks]


# --------------------------------------------------------------------------- ties


@pytest.mark.parametrize(
    ("racks", "expected", "winners"),
    [
        # 3 joint winners of 100: the spare cent goes to the earliest seated (B)
        (
            racks_of({"points": 105}, {"points": 5}, {"points": 5}, {"points": 5}),
            ["-100", "33.34", "33.33", "33.33"],
            ("B", "C", "D"),
        ),
        # 3 joint winners of 2: two spare cents
        (
            racks_of("R5", "K5", {"points": 7}, "B1 B4"),
            ["0.67", "0.67", "-2", "0.66"],
            ("A", "B", "D"),
        ),
        # 2 joint winners of an odd plus
        (racks_of("R5", "K2 K6", "O5"), ["1.50", "-3", "1.50"], ("A", "C")),
        # 2 of 2
        (racks_of("R5", "K5"), ["0", "0"], ("A", "B")),
        # every rack alike
        (racks_of("R5", "K5", "O5", "B5"), ["0", "0", "0", "0"], ("A", "B", "C", "D")),
        # 2 joint winners with jokers: 1 + 30 = 31 each; plus 9 + 19 = 28
        (
            racks_of("J R1", {"points": 40}, "J K1", {"points": 50}),
            ["14", "-9", "14", "-19"],
            ("A", "C"),
        ),
    ],
)
def test_tie_share(racks: list[RackIn], expected: list[str], winners: tuple[str, ...]) -> None:
    game = game_score(ending="pool_exhausted", racks=racks, rules=Rules(pool_tie="share"))
    assert scores_of(game) == [D(s) for s in expected]
    assert all(score.as_tuple().exponent == -2 for score in scores_of(game))
    assert sum(scores_of(game)) == 0
    assert game.winners == winners
    assert [rack.winner for rack in game.racks] == [rack.player in winners for rack in racks]


@pytest.mark.parametrize(
    ("racks", "expected", "winners"),
    [
        # 5 in one tile beats 5 in two: an outright win; the other tied rack scores 0
        (racks_of("K2 B3", "R5", "O9"), ["0", "4", "-4"], ("B",)),
        (racks_of("K1 B1 O1 R1 K1", "R5", "B1 B4", "O13"), ["0", "8", "0", "-8"], ("B",)),
        # fallback: the tile counts tie too
        (racks_of("K2 B3", "R1 R4", "O9"), ["2", "2", "-4"], ("A", "B")),
        # fallback: a tied rack entered as points
        (racks_of("K2 B3", {"points": 5}, "O9"), ["2", "2", "-4"], ("A", "B")),
        # a loser entered as points does not matter
        (racks_of("K2 B3", "R5", {"points": 9}), ["0", "4", "-4"], ("B",)),
        # fewest among three tied; the two others tie on count, but not for fewest
        (racks_of("K2 B3", "O2 O3", "R5", "B13"), ["0", "0", "8", "-8"], ("C",)),
    ],
)
def test_tie_fewest_tiles(
    racks: list[RackIn], expected: list[str], winners: tuple[str, ...]
) -> None:
    game = game_score(ending="pool_exhausted", racks=racks, rules=Rules(pool_tie="fewest_tiles"))
    assert scores_of(game) == [D(s) for s in expected]
    assert game.winners == winners
    assert [rack.winner for rack in game.racks] == [rack.player in winners for rack in racks]


def test_fewest_tiles_does_not_touch_untied_games() -> None:
    racks = racks_of("K1 B1 O1", "R5", "O9")
    tie = game_score(ending="pool_exhausted", racks=racks, rules=Rules(pool_tie="fewest_tiles"))
    share = game_score(ending="pool_exhausted", racks=racks)
    assert tie == share
    assert tie.winners == ("A",)


# --------------------------------------------------------------------------- table points


@pytest.mark.parametrize(
    ("scores", "vector", "expected"),
    [
        ([24, -5, -16, -3], (4, 3, 1, 0), ["4", "1", "0", "3"]),
        ([-6, -11, 22, -5], (4, 3, 1, 0), ["1", "0", "4", "3"]),
        ([10, 0, 0, -10], (4, 3, 1, 0), ["4", "2", "2", "0"]),
        ([5, 5, -5, -5], (4, 3, 1, 0), ["3.50", "3.50", "0.50", "0.50"]),
        # three tied for places 2-4 share 3 + 1 + 0 = 4: the spare cent to the earliest
        (["-1", "-1", "3", "-1"], (4, 3, 1, 0), ["1.34", "1.33", "4", "1.33"]),
        # three tied for places 1-3 share 8: two spare cents
        (["1", "1", "-3", "1"], (4, 3, 1, 0), ["2.67", "2.67", "0", "2.66"]),
        ([0, 0, 0, 0], (4, 3, 1, 0), ["2", "2", "2", "2"]),
        ([5, -5, 0], (4, 2, 0), ["4", "0", "2"]),
        (["0.50", "0.50", "-1"], (4, 2, 0), ["3", "3", "0"]),
        ([0, 0, 0], (4, 2, 0), ["2", "2", "2"]),
        ([-7, 7], (4, 0), ["0", "4"]),
        ([0, 0], (4, 0), ["2", "2"]),
        ([0, 0, 0], (3, 1, 1), ["1.67", "1.67", "1.66"]),
    ],
)
def test_table_points(scores: list[Any], vector: tuple[int, ...], expected: list[str]) -> None:
    points = table_points_for(scores=[D(s) for s in scores], vector=vector)
    assert points == tuple(D(p) for p in expected)
    assert sum(points) == sum(vector)


def test_table_points_need_a_place_per_player() -> None:
    with pytest.raises(RuleError) as refused:
        table_points_for(scores=[D(1), D(-1)], vector=(4, 2, 0))
    assert refused.value.field == "table_points"
    assert "2 players" in str(refused.value)


def test_table_points_from_a_game() -> None:
    game = game_score(ending="pool_exhausted", racks=racks_of("R5", "K5", "O9"))
    points = table_points_for(scores=scores_of(game), vector=Rules().table_points[len(game.racks)])
    assert points == (D(3), D(3), D(0))


# --------------------------------------------------------------------------- parse/format


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        ("", ()),
        ("   ", ()),
        (" , ,", ()),
        ("R7", (Tile("R", 7),)),
        ("r7 R8 j", (Tile("R", 7), Tile("R", 8), Tile("J", 0))),
        ("K1,B13,O5", (Tile("K", 1), Tile("B", 13), Tile("O", 5))),
        (
            "k1, b13 ,,  o5\tR2\nJ",
            (Tile("K", 1), Tile("B", 13), Tile("O", 5), Tile("R", 2), Tile("J", 0)),
        ),
        ("Y3 y13", (Tile("O", 3), Tile("O", 13))),
        # Black and yellow-orange as German, Scandinavian and Dutch players write them.
        (
            "S7 s13 Z1 G4 g5",
            (Tile("K", 7), Tile("K", 13), Tile("K", 1), Tile("O", 4), Tile("O", 5)),
        ),
        ("R07", (Tile("R", 7),)),
    ],
)
def test_tiles_parse(text: str, tiles: tuple[Tile, ...]) -> None:
    assert tiles_parse(text) == tiles


@pytest.mark.parametrize(
    ("token", "fragment"),
    [
        ("R14", "numbers run from 1 to 13"),
        ("R0", "numbers run from 1 to 13"),
        ("o99999999999999999999", "numbers run from 1 to 13"),
        ("X3", "the colours are"),
        ("P12", "the colours are"),
        ("7", "write a colour letter"),
        ("R", "write a colour letter"),
        ("R-1", "write a colour letter"),
        ("R7R8", "write a colour letter"),
        ("R7;R8", "write a colour letter"),
        ("7R", "write a colour letter"),
        ("joker", "write a colour letter"),
        ("R٣", "write a colour letter"),  # an Arabic-Indic digit
        ("J0", "the joker is written “J”"),
        ("J5", "the joker is written “J”"),
    ],
)
def test_tiles_parse_refuses_unknown_tiles(token: str, fragment: str) -> None:
    with pytest.raises(RuleError) as refused:
        tiles_parse(f"K1 {token} K2", field="rack")
    assert refused.value.field == "rack"
    assert f"“{token[:19]}" in str(refused.value)
    assert fragment in str(refused.value)
    assert refused.value.params["token"].startswith(token[:19])
    assert "%(token)s" in refused.value.template  # translatable: the token is a parameter


def test_tiles_parse_shortens_a_long_token_and_survives_huge_numbers() -> None:
    with pytest.raises(RuleError) as refused:
        tiles_parse("R" + "9" * 10_000)
    assert len(refused.value.params["token"]) == 20
    assert refused.value.params["token"].endswith("…")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("", ""),
        ("J R7 o1 K13 b2 K3", "K3 K13 B2 O1 R7 J"),
        ("y13, y1, R1, J, K1, J", "K1 O1 O13 R1 J J"),
        ("R7 R7", "R7 R7"),
    ],
)
def test_tiles_format(text: str, canonical: str) -> None:
    assert tiles_format(tiles_parse(text)) == canonical
    assert tiles_format(tiles_parse(canonical)) == canonical


def test_tile() -> None:
    red_seven, joker = Tile("R", 7), Tile("J", 0)
    assert (str(red_seven), red_seven.face_value, red_seven.is_joker) == ("R7", 7, False)
    assert (str(joker), joker.face_value, joker.is_joker) == ("J", 0, True)
    assert sorted([red_seven, Tile("B", 9), Tile("B", 2)]) == [
        Tile("B", 2),
        Tile("B", 9),
        red_seven,
    ]
    assert len({Tile("R", 7), Tile("R", 7)}) == 1


@pytest.mark.parametrize(
    ("colour", "number"),
    [("X", 3), ("R", 0), ("R", 14), ("J", 1), ("Y", 3), ("r", 7), ("R", "7"), ("R", True)],
)
def test_tile_refuses_what_is_not_in_the_set(colour: str, number: int) -> None:
    with pytest.raises(RuleError):
        Tile(colour, number)


# --------------------------------------------------------------------------- rules


def test_rules_defaults() -> None:
    rules = Rules()
    assert (rules.joker_penalty, rules.pool_tie) == (30, "share")
    assert dict(rules.table_points) == DEFAULT_TABLE_POINTS
    assert rules == Rules()
    assert hash(rules) == hash(Rules())


def test_rules_table_points_fill_in_defaults_and_are_read_only() -> None:
    rules = Rules(table_points={4: (5, 3, 1, 0), 3: [3, 1, 0]})
    assert dict(rules.table_points) == {2: (4, 0), 3: (3, 1, 0), 4: (5, 3, 1, 0)}
    with pytest.raises(TypeError):
        rules.table_points[2] = (1, 0)
    assert DEFAULT_TABLE_POINTS == {2: (4, 0), 3: (4, 2, 0), 4: (4, 3, 1, 0)}


@pytest.mark.parametrize(
    ("rule_settings", "field", "fragment"),
    [
        ({"joker_penalty": -1}, "joker_penalty", "cannot be negative (-1 was given)"),
        ({"joker_penalty": 10**27}, "joker_penalty", "at most 1000 points"),
        ({"joker_penalty": 1001}, "joker_penalty", "at most 1000 points (1001 was given)"),
        ({"joker_penalty": 2.5}, "joker_penalty", "whole number"),
        ({"joker_penalty": True}, "joker_penalty", "whole number"),
        ({"pool_tie": "coin"}, "pool_tie", "“coin”: use one of share, fewest_tiles"),
        ({"table_points": {4: (4, 3, 1)}}, "table_points", "4 players need 4 whole numbers"),
        ({"table_points": {3: (4, 2, 0, 0)}}, "table_points", "4/2/0/0 was given"),
        ({"table_points": {2: ()}}, "table_points", "2 players need 2"),
        ({"table_points": {2: (4, 0.5)}}, "table_points", "whole numbers"),
        ({"table_points": {5: (5, 4, 3, 2, 1)}}, "table_points", "2 to 4 players, not “5”"),
        ({"table_points": {1: (1,)}}, "table_points", "not “1”"),
        ({"table_points": {3: "420"}}, "table_points", "a list of numbers"),
        ({"table_points": {3: (0, 2, 4)}}, "table_points", "must not grow"),
        ({"table_points": [(4, 0)]}, "table_points", "map a table size"),
    ],
)
def test_rules_refusals(rule_settings: dict[str, Any], field: str, fragment: str) -> None:
    with pytest.raises(RuleError) as refused:
        Rules(**rule_settings)
    assert refused.value.field == field
    assert fragment in str(refused.value)


# --------------------------------------------------------------------------- rack entry


def test_rack_entered_as_points() -> None:
    game = game_score(
        ending="rummikub",
        racks=[
            RackIn(player="Anna", tiles=""),
            RackIn(player="Ben", tiles="R5 J"),
            RackIn(player="Cleo", points=16),
            RackIn(player="Dan", points=3, jokers=0),
            # the README's calculator example
        ],
    )
    assert scores_of(game) == [D(54), D(-35), D(-16), D(-3)]
    cleo = game.racks[2]
    assert (cleo.tiles, cleo.tile_count, cleo.points, cleo.jokers) == (None, None, 16, 0)


def test_rack_entered_as_jokers_alone_has_no_points() -> None:
    game = game_score(ending="rummikub", racks=racks_of("", {"jokers": 1}))
    assert (game.racks[1].points, game.racks[1].jokers, game.racks[1].rack_value) == (0, 1, 30)
    assert scores_of(game) == [D(30), D(-30)]


def test_rack_entered_both_ways_keeps_the_tiles() -> None:
    game = game_score(
        ending="rummikub",
        racks=racks_of({"tiles": "", "points": 0, "jokers": 0}, {"tiles": "J R7", "points": 7}),
    )
    assert game.racks[1].tiles == (Tile("J", 0), Tile("R", 7))
    assert game.racks[1].tile_count == 2
    assert scores_of(game) == [D(37), D(-37)]


def test_empty_rack_by_points_wins_a_rummikub() -> None:
    game = game_score(
        ending="rummikub", racks=racks_of("R3", {"points": 0}, {"points": 0, "jokers": 1})
    )
    assert game.winners == ("B",)
    assert scores_of(game) == [D(-3), D(33), D(-30)]


def test_players_are_any_hashable_label() -> None:
    game = game_score(
        ending="pool_exhausted",
        racks=[RackIn(player=17, points=3), RackIn(player=("x", 2), points=4)],
    )
    assert game.winners == (17,)
    assert [rack.player for rack in game.racks] == [17, ("x", 2)]


# --------------------------------------------------------------------------- refusals

FULL = "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13"


@pytest.mark.parametrize(
    ("ending", "racks", "rules", "field", "fragment"),
    [
        ("draw", racks_of("", "R5"), None, "ending", "“draw”: use one of rummikub, pool_exhausted"),
        ("Rummikub", racks_of("", "R5"), None, "ending", "Unknown ending"),
        ("rummikub", racks_of(""), None, "racks", "2 to 4 racks, one per player; 1 was given"),
        ("rummikub", [], None, "racks", "0 were given"),
        ("rummikub", racks_of("", "R1", "R2", "R3", "R4"), None, "racks", "5 were given"),
        (
            "rummikub",
            [
                RackIn(player="Ben", tiles=""),
                RackIn(player="Cleo", tiles="R1"),
                RackIn(player="Ben", tiles="R2"),
            ],
            None,
            "racks",
            "Ben has two racks in this game (racks 1 and 3)",
        ),
        (
            "rummikub",
            [RackIn(player="Anna", tiles=""), RackIn(player="Ben", tiles="R14")],
            None,
            "racks",
            "Rack 2 (Ben): unknown tile “R14”: numbers run from 1 to 13.",
        ),
        ("rummikub", racks_of("", "R1 X3"), None, "racks", "Rack 2 (B): unknown tile “X3”"),
        ("rummikub", racks_of("", "R0"), None, "racks", "Rack 2 (B): unknown tile “R0”"),
        ("rummikub", racks_of("", "7"), None, "racks", "Rack 2 (B): unknown tile “7”"),
        ("rummikub", racks_of("", {}), None, "racks", "Rack 2 (B): give its tiles or its points"),
        (
            "rummikub",
            racks_of("", {"points": -3}),
            None,
            "racks",
            "Rack 2 (B): points cannot be negative (-3 was given)",
        ),
        (
            "rummikub",
            racks_of("", {"points": 4, "jokers": -1}),
            None,
            "racks",
            "jokers cannot be negative",
        ),
        (
            "rummikub",
            racks_of("", {"points": 2.5}),
            None,
            "racks",
            "Rack 2 (B): points must be a whole number",
        ),
        (
            "rummikub",
            racks_of("", {"points": 1, "jokers": True}),
            None,
            "racks",
            "jokers must be a whole number",
        ),
        ("rummikub", racks_of("", {"tiles": 7}), None, "racks", "the tiles must be text"),
        (
            "rummikub",
            racks_of("", {"points": 729}),
            None,
            "racks",
            "Rack 2 (B): 729 points is more than the whole tile set holds (728)",
        ),
        (
            "rummikub",
            racks_of("", {"tiles": "R7 K8", "points": 16}),
            None,
            "racks",
            "Rack 2 (B): the tiles add up to 15 points, but the points given are 16",
        ),
        (
            "rummikub",
            racks_of("", {"tiles": "R7 J", "jokers": 2}),
            None,
            "racks",
            "the tiles hold 1 joker(s), but the jokers given are 2",
        ),
        (
            "rummikub",
            racks_of("", {"tiles": "R7", "jokers": 1}),
            None,
            "racks",
            "the tiles hold 0 joker(s), but the jokers given are 1",
        ),
        (
            "rummikub",
            racks_of("", "R7 K1", "R7", "B2 R7"),
            None,
            "racks",
            "Tile R7 appears 3 times in this game; the set has only 2.",
        ),
        ("rummikub", racks_of("", "y5 O5 o5"), None, "racks", "Tile O5 appears 3 times"),
        (
            "rummikub",
            racks_of("", "K1 K1 K1 K1 R2 R2 R2"),
            None,
            "racks",
            "Tile K1 appears 4 times",
        ),
        (
            "rummikub",
            racks_of("", "J J", "J"),
            None,
            "racks",
            "This game has 3 jokers; the set has only 2.",
        ),
        (
            "rummikub",
            racks_of("", "J", {"points": 5, "jokers": 2}),
            None,
            "racks",
            "This game has 3 jokers",
        ),
        ("rummikub", racks_of("", {"jokers": 3}), None, "racks", "This game has 3 jokers"),
        (
            "rummikub",
            racks_of("", {"points": 700}, FULL + " " + FULL),
            None,
            "racks",
            "hold 882 face points; the whole tile set holds only 728",
        ),
        (
            "rummikub",
            racks_of("R1", "R2"),
            None,
            "racks",
            "exactly one empty rack, the winner's; 0 racks were empty",
        ),
        ("rummikub", racks_of("", {"points": 0}, "R2"), None, "racks", "2 racks were empty"),
        (
            "pool_exhausted",
            [RackIn(player="Anna", tiles="R1"), RackIn(player="Ben", tiles=" ")],
            None,
            "racks",
            "Rack 2 (Ben) is empty",
        ),
        (
            "pool_exhausted",
            racks_of("R1", {"points": 0, "jokers": 0}),
            None,
            "racks",
            "Rack 2 (B) is empty",
        ),
    ],
)
def test_game_refusals(
    ending: str, racks: list[RackIn], rules: Rules | None, field: str, fragment: str
) -> None:
    with pytest.raises(RuleError) as refused:
        game_score(ending=ending, racks=racks, rules=rules or Rules())
    assert refused.value.field == field
    assert fragment in str(refused.value)


@pytest.mark.parametrize(
    ("ending", "racks", "fragment"),
    [
        # the ending is checked before the rack count
        ("draw", racks_of(""), "Unknown ending"),
        # the rack count before repeated players
        ("rummikub", [RackIn(player="A", tiles="")] * 5, "5 were given"),
        # repeated players before the racks themselves
        ("rummikub", [RackIn(player="A", tiles="X1"), RackIn(player="A", tiles="")], "two racks"),
        # racks in seat order
        ("rummikub", racks_of("X1", "R99"), "Rack 1 (A)"),
        # each rack before the game-wide counts
        ("rummikub", racks_of("R1 R1 R1", {"points": -1}), "Rack 2 (B)"),
        # game-wide counts before the ending's own check
        ("pool_exhausted", racks_of("", "J J J"), "3 jokers"),
        # the first over-used tile entered is the one named
        ("rummikub", racks_of("", "R9 K1 K1 K1 R9 R9"), "Tile R9"),
    ],
)
def test_refusal_order(ending: str, racks: list[RackIn], fragment: str) -> None:
    with pytest.raises(RuleError) as refused:
        game_score(ending=ending, racks=racks)
    assert fragment in str(refused.value)


def test_refusals_are_translatable_templates() -> None:
    with pytest.raises(RuleError) as refused:
        game_score(ending="rummikub", racks=racks_of("", "R7 R7 R7"))
    error = refused.value
    assert (
        error.template == "Tile %(tile)s appears %(count)s times in this game; the set has only 2."
    )
    assert error.params == {"tile": "R7", "count": 3}
    assert error.render(lambda s: s.replace("Tile", "Brik")).startswith("Brik R7")
    assert error.status == 400


@pytest.mark.parametrize(
    ("typed", "entered"),
    [
        ({"tiles": ""}, {"tiles": ""}),
        ({"tiles": "  "}, {"tiles": ""}),
        ({"tiles": "", "points": 5}, {"points": 5}),
        ({"tiles": " ", "points": 0, "jokers": 1}, {"points": 0, "jokers": 1}),
        ({"tiles": "R5 J"}, {"tiles": "R5 J"}),
        # Sent without any field (the API): nothing was entered, which the engine refuses.
        ({}, {}),
    ],
)
def test_rack_entered_reads_a_blank_tile_list_as_an_emptied_rack(typed, entered):
    assert rack_entered(player="A", **typed) == RackIn(player="A", **entered)


def test_starting_seat_rotates_round_the_table():
    assert [starting_seat(game_number=g, table_size=4) for g in range(1, 7)] == [1, 2, 3, 4, 1, 2]
    assert [starting_seat(game_number=g, table_size=3) for g in range(1, 5)] == [1, 2, 3, 1]
    with pytest.raises(ValueError):
        starting_seat(game_number=0, table_size=4)


@pytest.mark.parametrize(
    ("count", "english"),
    [(1, "; 1 was given."), (5, "; 5 were given."), (0, "; 0 were given.")],
)
def test_the_racks_count_is_said_with_the_number_s_own_form(count, english):
    """A message that counts carries both forms (the edge translates it with ngettext)."""
    with pytest.raises(RuleError) as refused:
        racks_count_check(count)
    assert refused.value.render().endswith(english)
    assert refused.value.plural is not None and refused.value.params == {"count": count}
