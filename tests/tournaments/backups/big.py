"""A played event of any size as a backup document, built without a database
(the large-restore test and ``bench/bench_backups.py`` use it)."""

from __future__ import annotations

import random
from typing import Any

from scoring import rules
from tournaments.backups.document import FORMAT, VERSION, checksum_of, decimal_text

WHEN = "2026-11-21T10:00:00+00:00"
SETTINGS: dict[str, Any] = {
    "name": "Nationals", "slug": "nationals", "date": "2026-11-21", "public": True,
    "status": "running", "kind": "tournament", "language": "en", "paper": "A4",
    "joker_penalty": 30, "pool_tie": "share", "ranking": "score",
    "table_points": {"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]},
    "tie_breaks": ["wins", "table_points", "rack_total"], "min_games": 0,
    "confirmation": "none", "standings_unconfirmed": "include", "rounds": 3,
    "games_per_round": 4, "seating": "random", "max_table_size": 4, "bye_score": "0.00",
    "seed": 0, "semifinal_players": 0, "final_carry_over": False, "club": None,
    "owner": "nobody", "co_organisers": [], "created": WHEN,
}  # fmt: skip


def big_document(*, players: int, rounds: int, games: int, events: bool = False) -> dict[str, Any]:
    """A played event as a backup: every player at a table of four each round;
    ``events``: with each game's ``game.recorded`` event, as an export has it."""
    rng = random.Random(7)
    ids = list(range(1, players + 1))
    document: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "exported_at": WHEN, "tournament": SETTINGS,
        "clubs": [], "players": [{"id": p, "name": f"Player {p:04d}", "club": None} for p in ids],
        "entries": [{"id": p, "player": p, "status": "active", "created": WHEN} for p in ids],
        "rounds": [], "matches": [], "seats": [], "games": [], "adjustments": [], "audit": [],
    }  # fmt: skip
    vector = rules.DEFAULT_RULES.table_points[4]
    for number in range(1, rounds + 1):
        document["rounds"].append(
            {"id": number, "number": number, "stage": "qualifying", "games_per_match": games,
             "date": None, "created": WHEN}
        )  # fmt: skip
        rng.shuffle(ids)
        for table in range(players // 4):
            match = len(document["matches"]) + 1
            seated = ids[table * 4 : table * 4 + 4]
            document["matches"].append(
                {"id": match, "round": number, "table": table + 1, "token": f"t{match}"}
            )
            document["seats"] += [
                {"match": match, "player": p, "position": i + 1} for i, p in enumerate(seated)
            ]
            for game in range(1, games + 1):
                winner = rng.randrange(4)
                entered = [
                    rules.RackIn(player=p, points=0 if i == winner else rng.randint(1, 60))
                    for i, p in enumerate(seated)
                ]
                out = rules.game_score(ending="rummikub", racks=entered)
                tps = rules.table_points_for(scores=[r.score for r in out.racks], vector=vector)
                document["games"].append(
                    {"id": len(document["games"]) + 1, "match": match, "number": game,
                     "ending": "rummikub", "version": 1, "state": "confirmed",
                     "second_entry": None, "recorded_by": None, "confirmed_by": None,
                     "created": WHEN, "updated": WHEN,
                     "racks": [
                        {"player": r.player, "position": i + 1, "tiles": "",
                         "entered_as_tiles": False, "points": r.points, "jokers": r.jokers,
                         "rack_value": r.rack_value, "score": decimal_text(r.score),
                         "winner": r.winner, "table_points": decimal_text(tp)}
                        for i, (r, tp) in enumerate(zip(out.racks, tps, strict=True))
                     ]}
                )  # fmt: skip
    if events:
        document["audit"] = [_recorded(game) for game in document["games"]]
    document["checksum"] = checksum_of(document)
    return document


def _recorded(game: dict[str, Any]) -> dict[str, Any]:
    snapshot = {
        "ending": game["ending"],
        "state": game["state"],
        "racks": [
            {"player": r["player"], "tiles": None, "points": r["points"], "jokers": r["jokers"],
             "rack_value": r["rack_value"], "score": r["score"], "winner": r["winner"]}
            for r in game["racks"]
        ],
    }  # fmt: skip
    return {
        "at": WHEN, "user": None, "username": "organiser", "by_link": False,
        "action": "game.recorded", "object_id": game["id"], "match": game["match"],
        "round_number": None, "table": None, "game_number": game["number"], "version": 1,
        "old": None, "new": snapshot,
    }  # fmt: skip
