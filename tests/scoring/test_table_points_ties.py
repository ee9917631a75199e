"""Table points when capped losers tie: places by the zero-sum ``score`` (bonuses
kept apart, design §2 and §2b), a tied share's spare cents to the earliest
seated (the rule §2 gives joint winners), never by rack."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.racks import RackIn
from scoring.rules import Rules, game_score, table_points_for

BONUS_LEAGUE = Rules(loss_cap=25, winner_bonus=50, runner_up_bonus=5)


@pytest.mark.parametrize(
    ("points", "table_points", "bonuses"),
    [
        # Three losers capped at -25: they share places 2-4 (3+1+0) in seat order,
        # the runner-up's bonus (rack 26, seat 4) counts in the total, not the place.
        ((0, 40, 31, 26), ("4.00", "1.34", "1.33", "1.33"), ("50", "0", "0", "5")),
        ((0, 26, 31, 40), ("4.00", "1.34", "1.33", "1.33"), ("50", "5", "0", "0")),
        # The worked example of §2b: no tie, places as the racks give them.
        ((0, 31, 15, 10), ("4", "0", "1", "3"), ("50", "0", "0", "5")),
    ],
)
def test_capped_losers_share_their_places_spare_cent_by_seat(points, table_points, bonuses):
    racks = [RackIn(player=i, points=p, jokers=0) for i, p in enumerate(points)]
    game = game_score(ending="rummikub", racks=racks, rules=BONUS_LEAGUE)
    scores = [rack.score for rack in game.racks]
    assert [rack.bonus for rack in game.racks] == [D(b) for b in bonuses]
    assert table_points_for(scores=scores, vector=(4, 3, 1, 0)) == tuple(D(t) for t in table_points)


@given(
    scores=st.lists(st.integers(-30, 30).map(D), min_size=2, max_size=4),
)
def test_tied_places_split_by_seat_whatever_the_order_of_seats(scores):
    """The spare cents of a tied share go to the earliest seats, so the points a
    seat gets depend on its score and its seat, and always add up to the vector."""
    vector = {2: (4, 0), 3: (4, 2, 0), 4: (4, 3, 1, 0)}[len(scores)]
    points = table_points_for(scores=scores, vector=vector)
    assert sum(points) == sum(vector)
    for score in set(scores):
        seats = [i for i, s in enumerate(scores) if s == score]
        shares = [points[i] for i in seats]
        assert shares == sorted(shares, reverse=True)  # earlier seats never get less
        assert max(shares) - min(shares) <= D("0.01")
