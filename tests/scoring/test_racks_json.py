"""Rack entries kept as JSON (a game's second entry, its history) come back as entered."""

from __future__ import annotations

import pytest

from scoring.racks import RackIn, rack_as_json, rack_from_json


@pytest.mark.parametrize(
    "rack",
    [
        RackIn(player=3, tiles="R5 J"),
        RackIn(player=3, tiles=""),
        RackIn(player=4, points=12, jokers=1),
        RackIn(player=5, points=0, jokers=0),
    ],
)
def test_a_rack_entry_survives_json(rack: RackIn) -> None:
    assert rack_from_json(rack_as_json(rack)) == rack


def test_a_snapshot_with_tiles_and_stored_points_reads_as_tiles() -> None:
    snapshot = {"player": 3, "tiles": "R5 J", "points": 5, "jokers": 1, "score": "-35"}
    assert rack_from_json(snapshot) == RackIn(player=3, tiles="R5 J")
    stored = {"player": 4, "tiles": None, "points": 9, "jokers": 0}
    assert rack_from_json(stored) == RackIn(player=4, points=9, jokers=0)
