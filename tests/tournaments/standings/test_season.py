"""The season table's counting rules, without a database (design §5)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import UserError
from tests.test_pure_core import _first_loading_django
from tournaments.standings.season import (
    Evening,
    Place,
    SeasonRules,
    evening_points,
    rank_points,
    season_rules_check,
    season_table,
)

D = Decimal


def evening(eid: int, *results: tuple[int, int] | tuple[int, int, str]) -> Evening:
    """An evening from (player, rank[, score]) triples, in order."""
    return Evening(
        id=eid,
        places=tuple(
            Place(
                player_id=r[0],
                name=f"P{r[0]}",
                rank=r[1],
                score=D(str(r[2])) if len(r) > 2 else D(0),
                table_points=D(r[1] * 2),
            )
            for r in results
        ),
    )


def test_the_rules_load_no_django() -> None:
    assert _first_loading_django(("tournaments.standings.season",)) == ""


@pytest.mark.parametrize(
    ("n", "first", "last", "points"),
    [
        (1, 1, 1, "1000"),
        (2, 1, 1, "1000"),
        (2, 2, 2, "0"),
        (3, 2, 2, "500"),
        (4, 2, 2, "666.67"),
        (4, 3, 3, "333.33"),
        (4, 1, 2, "833.33"),  # tied at 1-2: the formula at 1.5
        (4, 2, 4, "333.33"),  # tied at 2-4: at 3
        (7, 3, 3, "666.67"),
        (8, 2, 3, "785.71"),  # tied at 2-3: 1000 * (8 - 2.5) / 7
        (3, 1, 3, "500"),  # everyone tied
        (9, 4, 4, "625"),
    ],
)
def test_rank_points_at_the_mean_of_tied_places(n: int, first: int, last: int, points: str) -> None:
    assert rank_points(n=n, first=first, last=last) == D(points)


def test_rank_points_round_once_halves_up() -> None:
    # 1000 * (200 - 1.5) / 199 = 997.487... ; 1000 * 1/8 = 125 exactly; 1000 * 5/16 = 312.5
    assert rank_points(n=200, first=1, last=2) == D("997.49")
    assert rank_points(n=17, first=12, last=12) == D("312.50")


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("score", {1: D(40), 2: D(-5), 3: D(-5), 4: D(-30)}),
        ("table_points", {1: D(2), 2: D(4), 3: D(4), 4: D(8)}),
        ("rank_points", {1: D(1000), 2: D("500"), 3: D("500"), 4: D(0)}),
    ],
)
def test_evening_points_by_kind(kind: str, expected: dict[int, Decimal]) -> None:
    e = evening(1, (1, 1, "40"), (2, 2, "-5"), (3, 2, "-5"), (4, 4, "-30"))
    assert evening_points(e, kind=kind) == expected


def test_a_lone_player_earns_1000() -> None:
    assert evening_points(evening(1, (7, 1)), kind="rank_points") == {7: D(1000)}


BEST_3 = SeasonRules(evening_points="score", best_of=3)


@pytest.mark.parametrize(
    ("rules", "evenings", "members", "ranked", "unranked"),
    [
        # best_of 0 sums every evening
        (
            SeasonRules(evening_points="score"),
            [evening(1, (1, 1, "10"), (2, 2, "-10")), evening(2, (1, 2, "-4"), (2, 1, "4"))],
            {1, 2},
            [(1, 1, "6", (1, 2)), (2, 2, "-6", (1, 2))],
            [],
        ),
        # best 1 of 2: the better evening counts
        (
            SeasonRules(evening_points="score", best_of=1),
            [evening(1, (1, 1, "10"), (2, 2, "-10")), evening(2, (1, 2, "-4"), (2, 1, "4"))],
            {1, 2},
            [(1, 1, "10", (1,)), (2, 2, "4", (2,))],
            [],
        ),
        # a tie for the last counted place: the earlier evening counts
        (
            SeasonRules(evening_points="score", best_of=1),
            [evening(1, (1, 1, "5")), evening(2, (1, 1, "5"))],
            {1},
            [(1, 1, "5", (1,))],
            [],
        ),
        # equal points: more evenings first; then best single evening
        (
            SeasonRules(evening_points="score"),
            [
                evening(1, (1, 1, "6"), (2, 2, "3"), (3, 3, "2")),
                evening(2, (2, 1, "3"), (3, 2, "4")),
            ],
            {1, 2, 3},
            [(3, 1, "6", (1, 2)), (2, 2, "6", (1, 2)), (1, 3, "6", (1,))],
            [],
        ),
        # equal on all three: a shared rank, listed by name
        (
            SeasonRules(evening_points="score"),
            [evening(1, (2, 1, "5"), (1, 1, "5"), (3, 3, "-10"))],
            {1, 2, 3},
            [(1, 1, "5", (1,)), (2, 1, "5", (1,)), (3, 3, "-10", (1,))],
            [],
        ),
        # min_evenings: the unranked apart, by evenings, points, name
        (
            SeasonRules(evening_points="score", min_evenings=2),
            [
                evening(1, (1, 1, "9"), (2, 2, "1"), (3, 3, "-10")),
                evening(2, (1, 1, "1"), (4, 2, "-1")),
            ],
            {1, 2, 3, 4},
            [(1, 1, "10", (1, 2))],
            [(2, None, "1", (1,)), (4, None, "-1", (2,)), (3, None, "-10", (1,))],
        ),
        # guests excluded: left out, but their places still count for the others
        (
            SeasonRules(evening_points="rank_points"),
            [evening(1, (9, 1), (1, 2), (2, 3))],
            {1, 2},
            [(1, 1, "500", (1,)), (2, 2, "0", (1,))],
            [],
        ),
        # guests included
        (
            SeasonRules(evening_points="rank_points", guests="include"),
            [evening(1, (9, 1), (1, 2), (2, 3))],
            {1, 2},
            [(9, 1, "1000", (1,)), (1, 2, "500", (1,)), (2, 3, "0", (1,))],
            [],
        ),
        # an evening without a recorded game does not count
        (
            BEST_3,
            [Evening(id=1), evening(2, (1, 1, "3"))],
            {1},
            [(1, 1, "3", (2,))],
            [],
        ),
    ],
)
def test_season_table(
    rules: SeasonRules,
    evenings: list[Evening],
    members: set[int],
    ranked: list[tuple[int, int | None, str, tuple[int, ...]]],
    unranked: list[tuple[int, int | None, str, tuple[int, ...]]],
) -> None:
    table = season_table(evenings=evenings, rules=rules, members=members)
    assert [(r.player_id, r.rank, r.points, r.counted) for r in table.ranked] == [
        (p, rank, D(points), counted) for p, rank, points, counted in ranked
    ]
    assert [(r.player_id, r.rank, r.points, r.counted) for r in table.unranked] == [
        (p, rank, D(points), counted) for p, rank, points, counted in unranked
    ]


def test_names_compare_case_insensitively() -> None:
    e = Evening(
        id=1,
        places=(
            Place(player_id=1, name="bob", rank=1, score=D(1)),
            Place(player_id=2, name="Anna", rank=1, score=D(1)),
            Place(player_id=3, name="carl", rank=1, score=D(1)),
        ),
    )
    table = season_table(evenings=[e], rules=SeasonRules(evening_points="score"), members={1, 2, 3})
    assert [r.name for r in table.ranked] == ["Anna", "bob", "carl"]
    assert table.champion is not None and table.champion.name == "Anna"


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        (SeasonRules(evening_points="wins"), "evening_points"),
        (SeasonRules(guests="maybe"), "guests"),
        (SeasonRules(best_of=-1), "best_of"),
        (SeasonRules(min_evenings=367), "min_evenings"),
    ],
)
def test_rules_out_of_bounds_are_refused(rules: SeasonRules, field: str) -> None:
    with pytest.raises(UserError) as caught:
        season_rules_check(rules)
    assert caught.value.field == field


# ----------------------------------------------------------------------------- properties

scores = st.integers(min_value=-200, max_value=200)


@st.composite
def seasons(draw: st.DrawFn) -> list[Evening]:
    """Up to 6 evenings of up to 6 of 8 players, ranked by a drawn score."""
    out = []
    for eid in range(1, draw(st.integers(min_value=1, max_value=6)) + 1):
        players = draw(st.lists(st.integers(1, 8), min_size=1, max_size=6, unique=True))
        points = {p: draw(scores) for p in players}
        order = sorted(players, key=lambda p: -points[p])
        places = tuple(
            Place(
                player_id=p,
                name=f"P{p}",
                rank=1 + sum(1 for q in players if points[q] > points[p]),
                score=D(points[p]),
            )
            for p in order
        )
        out.append(Evening(id=eid, places=places))
    return out


KINDS = st.sampled_from(["score", "rank_points", "table_points"])


@given(seasons(), KINDS)
def test_best_of_zero_sums_every_evening(evenings: list[Evening], kind: str) -> None:
    table = season_table(
        evenings=evenings, rules=SeasonRules(evening_points=kind), members=range(1, 9)
    )
    for row in table.ranked:
        assert row.points == sum(row.by_evening.values())
        assert row.counted == tuple(e.id for e in evenings if e.id in row.by_evening)


@given(seasons(), st.integers(1, 4), st.integers(-300, 300), st.integers(1, 8))
def test_a_worse_evening_never_lowers_the_counted_points(
    evenings: list[Evening], best_of: int, worst: int, player: int
) -> None:
    rules = SeasonRules(evening_points="score", best_of=best_of)
    before = season_table(evenings=evenings, rules=rules, members=range(1, 9))
    had = {r.player_id: r for r in before.ranked}
    if player not in had or had[player].evenings < best_of:
        return  # with fewer evenings than best_of, a negative one adds to the sum
    worse = min(worst, int(min(had[player].by_evening.values())))
    more = [*evenings, Evening(id=99, places=(Place(player, f"P{player}", 1, D(worse)),))]
    after = {
        r.player_id: r for r in season_table(evenings=more, rules=rules, members=range(1, 9)).ranked
    }
    assert after[player].points >= had[player].points


@given(seasons(), st.integers(0, 4), st.integers(0, 3), KINDS)
def test_the_table_is_ordered_and_complete(
    evenings: list[Evening], best_of: int, min_evenings: int, kind: str
) -> None:
    rules = SeasonRules(evening_points=kind, best_of=best_of, min_evenings=min_evenings)
    table = season_table(evenings=evenings, rules=rules, members=range(1, 9))
    played = {p.player_id for e in evenings for p in e.places}
    assert {r.player_id for r in table.ranked + table.unranked} == played
    keys = [(r.points, r.evenings, r.best) for r in table.ranked]
    assert keys == sorted(keys, reverse=True)
    for row in table.ranked:
        assert row.evenings >= min_evenings
        assert len(row.counted) == (min(best_of, row.evenings) if best_of else row.evenings)
    assert all(r.rank is None and r.evenings < min_evenings for r in table.unranked)


@given(seasons())
def test_rank_points_lie_between_0_and_1000_and_add_up(evenings: list[Evening]) -> None:
    for e in evenings:
        earned = evening_points(e, kind="rank_points")
        assert all(D(0) <= v <= D(1000) for v in earned.values())
        n = len(e.places)
        if n > 1:
            # The mean place earns 500: the evening's points average 500 (up to rounding).
            total = sum(earned.values(), D(0))
            assert abs(total - 500 * n) <= D("0.01") * n
