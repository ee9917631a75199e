"""A whole tournament driven through the API alone, checked against scores
computed here, independently of the rules engine (the scoring rules by hand).

Players, a club and a tournament are created; the players are entered; three
rounds are seated; every game is recorded (tile lists, points, both; some
games through a table's match token); one game is corrected; a penalty is
given; the standings must match the totals kept here.
"""

from __future__ import annotations

import random
from collections import defaultdict
from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

JOKER_PENALTY = 30
TABLE_POINTS = {2: [4, 0], 3: [4, 2, 0], 4: [4, 3, 1, 0]}
COLOURS = "KBOR"


def deck(rng: random.Random) -> list[str]:
    tiles = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] * 2 + ["J", "J"]
    rng.shuffle(tiles)
    return tiles


def face(tile: str) -> int:
    return 0 if tile == "J" else int(tile[1:])


def split_cents(total: Decimal, shares: int) -> list[Decimal]:
    """``total`` in ``shares`` near-equal amounts of whole cents; spare cents go first."""
    cents = int(total * 100)
    base, spare = divmod(cents, shares)
    return [Decimal(base + (1 if i < spare else 0)) / 100 for i in range(shares)]


def expected_scores(ending: str, values: list[int]) -> tuple[list[Decimal], list[bool]]:
    """The scoring rules by hand, seat order in and out."""
    if ending == "rummikub":
        winner = values.index(0)
        scores = [Decimal(-v) for v in values]
        scores[winner] = Decimal(sum(values))
        return scores, [i == winner for i in range(len(values))]
    lowest = min(values)
    winners = [i for i, v in enumerate(values) if v == lowest]
    scores = [Decimal(lowest - v) for v in values]
    for i, share in zip(winners, split_cents(-sum(scores), len(winners)), strict=True):
        scores[i] = share
    return scores, [i in winners for i in range(len(values))]


def expected_table_points(scores: list[Decimal]) -> list[Decimal]:
    vector = TABLE_POINTS[len(scores)]
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    points = [Decimal(0)] * len(scores)
    place = 0
    while place < len(order):
        tied = [i for i in order if scores[i] == scores[order[place]]]
        for i, share in zip(
            sorted(tied),
            split_cents(Decimal(sum(vector[place : place + len(tied)])), len(tied)),
            strict=True,
        ):
            points[i] = share
        place += len(tied)
    return points


def a_game(rng: random.Random, seats: list[int]) -> tuple[str, list[dict[str, Any]], list[int]]:
    """Random racks drawn from one tile set; each rack entered one of three ways."""
    tiles = deck(rng)
    ending = "pool_exhausted" if rng.random() < 0.3 else "rummikub"
    winner = rng.randrange(len(seats))
    racks, values = [], []
    for i, player in enumerate(seats):
        count = 0 if (ending == "rummikub" and i == winner) else rng.randint(1, 7)
        held, tiles = tiles[:count], tiles[count:]
        faces, jokers = sum(map(face, held)), held.count("J")
        values.append(faces + JOKER_PENALTY * jokers)
        form = rng.choice(["tiles", "points", "both"])
        rack: dict[str, Any] = {"player": player}
        if form in ("tiles", "both"):
            rack["tiles"] = rng.choice([" ", ", "]).join(
                t.lower() if rng.random() < 0.3 else t for t in held
            )
        if form in ("points", "both"):
            rack["points"] = faces
            if jokers or form == "both":
                rack["jokers"] = jokers
        racks.append(rack)
    rng.shuffle(racks)  # the API answers by seat whatever the order sent
    return ending, racks, values


class Ledger:
    """What the standings must say, kept here game by game."""

    def __init__(self) -> None:
        self.score: dict[int, Decimal] = defaultdict(Decimal)
        self.games: dict[int, int] = defaultdict(int)
        self.wins: dict[int, int] = defaultdict(int)
        self.rack_total: dict[int, int] = defaultdict(int)
        self.table_points: dict[int, Decimal] = defaultdict(Decimal)

    def add(self, seats: list[int], ending: str, values: list[int], sign: int = 1) -> list[Decimal]:
        scores, winners = expected_scores(ending, values)
        table = expected_table_points(scores)
        for player, value, score, won, tp in zip(
            seats, values, scores, winners, table, strict=True
        ):
            self.score[player] += sign * score
            self.games[player] += sign
            self.wins[player] += sign * won
            self.rack_total[player] += sign * value
            self.table_points[player] += sign * tp
        return scores


def test_a_whole_tournament_through_the_api():
    rng = random.Random(20261003)
    UserFactory(username="organiser", password="rack-and-roll-2026")
    api = APIClient()

    # Log in.
    token = api.post(
        "/api/v1/auth/token/",
        {"username": "organiser", "password": "rack-and-roll-2026"},
        format="json",
    )
    assert token.status_code == 200, token.content
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")

    # A club, ten players, a tournament, the entries.
    club = api.post(
        "/api/v1/clubs/", {"name": "Rummikub Club Aarhus", "city": "Aarhus"}, format="json"
    )
    assert club.status_code == 201, club.content
    players = []
    for name in ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gro", "Hans", "Ida", "Jens"]:
        made = api.post(
            "/api/v1/players/", {"name": name, "club": club.json()["id"]}, format="json"
        )
        assert made.status_code == 201, made.content
        players.append(made.json()["id"])
    created = api.post(
        "/api/v1/tournaments/",
        {
            "name": "Drive Open",
            "date": "2026-10-03",
            "club": club.json()["id"],
            "rounds": 3,
            "games_per_round": 2,
            "seating": "swiss",
            "ranking": "score",
            "joker_penalty": JOKER_PENALTY,
            "pool_tie": "share",
            "table_points": {str(k): v for k, v in TABLE_POINTS.items()},
            "tie_breaks": ["wins", "rack_total"],
            "max_table_size": 4,
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    tournament = created.json()
    assert tournament["slug"] == "drive-open" and tournament["owner"] == "organiser"
    t = tournament["id"]
    entries = api.post(f"/api/v1/tournaments/{t}/entries/", {"players": players}, format="json")
    assert entries.status_code == 201 and len(entries.json()) == 10

    ledger = Ledger()
    recorded: dict[int, tuple[list[int], str, list[int]]] = {}  # game id -> seats, ending, values
    for number in (1, 2, 3):
        seated = api.post(f"/api/v1/tournaments/{t}/rounds/", format="json")
        assert seated.status_code == 201, seated.content
        round_ = seated.json()
        assert round_["number"] == number
        assert sorted(p for m in round_["matches"] for p in m["players"]) == sorted(players)
        assert sorted(len(m["players"]) for m in round_["matches"]) == [3, 3, 4]
        for match in round_["matches"]:
            # Table 1 enters its own results with the match token from its score sheet.
            client = APIClient()
            if match["table"] == 1:
                client.credentials(HTTP_X_MATCH_TOKEN=match["token"])
            else:
                client = api
            for game_number in (1, 2):
                ending, racks, values = a_game(rng, match["players"])
                response = client.post(
                    f"/api/v1/matches/{match['id']}/games/",
                    {"ending": ending, "racks": racks},
                    format="json",
                )
                assert response.status_code == 201, (response.content, racks)
                game = response.json()
                scores = ledger.add(match["players"], ending, values)
                assert game["number"] == game_number
                assert [s["player"] for s in game["scores"]] == match["players"]
                assert [Decimal(str(s["score"])) for s in game["scores"]] == scores
                assert [s["rack_value"] for s in game["scores"]] == values
                assert sum(Decimal(str(s["score"])) for s in game["scores"]) == 0
                recorded[game["id"]] = (match["players"], ending, values)

    listed = api.get(f"/api/v1/tournaments/{t}/rounds/").json()
    assert listed["count"] == 3 and [r["number"] for r in listed["results"]] == [1, 2, 3]
    assert api.get(f"/api/v1/games/?tournament={t}").json()["count"] == 2 * 3 * 3

    # A correction: the first game recorded turns out to have been misread.
    game_id = min(recorded)
    seats, old_ending, old_values = recorded[game_id]
    read = api.get(f"/api/v1/games/{game_id}/")
    ending, racks, values = a_game(rng, seats)
    fixed = api.put(
        f"/api/v1/games/{game_id}/",
        {"ending": ending, "racks": racks},
        format="json",
        HTTP_IF_MATCH=read["ETag"],
    )
    assert fixed.status_code == 200, fixed.content
    assert fixed.json()["version"] == 2
    ledger.add(seats, old_ending, old_values, sign=-1)
    ledger.add(seats, ending, values)

    # A penalty, kept apart from the game scores.
    penalty = api.post(
        f"/api/v1/tournaments/{t}/adjustments/",
        {"player": players[0], "points": -5, "reason": "Late for round 2"},
        format="json",
    )
    assert penalty.status_code == 201, penalty.content

    standings = APIClient().get(f"/api/v1/tournaments/{t}/standings/")
    assert standings.status_code == 200
    rows = standings.json()["results"]
    assert sorted(r["player"] for r in rows) == sorted(players)
    for row in rows:
        p = row["player"]
        adjustment = Decimal(-5) if p == players[0] else Decimal(0)
        assert Decimal(str(row["game_score"])) == ledger.score[p], row
        assert Decimal(str(row["score"])) == ledger.score[p] + adjustment, row
        assert row["games"] == ledger.games[p] == 6
        assert row["wins"] == ledger.wins[p]
        assert row["rack_total"] == ledger.rack_total[p]
        assert Decimal(str(row["table_points"])) == ledger.table_points[p]
    assert sum(ledger.score.values()) == 0
    keys = [(Decimal(str(r["score"])), r["wins"], -r["rack_total"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert rows[0]["rank"] == 1
    for before, after, row in zip(keys, keys[1:], rows[1:], strict=False):
        assert (row["rank"] == rows[rows.index(row) - 1]["rank"]) == (before == after)
