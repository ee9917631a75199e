"""A realistic demo, and the games that tests and benches play.

The demo is a club, sixteen players and a tournament of three rounds, two of
them played; ``make run`` loads it (``manage.py load_demo``), and so do tests.

Vocabulary: *dealing* a game makes up how it ended at a table: an ending and
each player's rack. ``racks_dealt`` deals tile lists from a shuffled tile set
(the demo: tile lists show on its pages and exercise the whole engine);
``racks_scored`` picks a winner and gives the others 1 to ``most`` points
(quick: tests and benches). Dealing takes a seeded ``random.Random``, so the
demo and every test are the same on every machine. ``match_play`` and
``round_play`` record dealt games through the game services.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable, Sequence

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring import rules
from tournaments.models import Club, Match, Player, Round, Tournament
from tournaments.services import entries, players, rounds, tournaments
from tournaments.services.games import game_record

DEMO_SLUG = "autumn-open"
DEMO_PLAYERS = [
    "Anna Jensen", "Ben Larsen", "Cleo Nielsen", "Dan Hansen", "Eva Berg", "Frederik Holm",
    "Greta Lind", "Hans Meyer", "Ida Kristensen", "Jonas Dahl", "Karin Vos", "Lars Eriksen",
    "Mette Bakker", "Nils Olsen", "Olga Schmidt", "Per Andersen",
]  # fmt: skip
TILE_SET = [f"{c}{n}" for c in "KBOR" for n in range(1, 14) for _ in range(2)] + ["J", "J"]

Deal = Callable[[random.Random, Sequence[int]], tuple[str, list[rules.RackIn]]]


def racks_dealt(rng: random.Random, player_ids: Sequence[int]) -> tuple[str, list[rules.RackIn]]:
    """A game dealt from the tile set: mostly a rack emptied, sometimes the pool exhausted."""
    tiles = TILE_SET.copy()
    rng.shuffle(tiles)
    pool_exhausted = rng.random() < 0.15
    winner = rng.randrange(len(player_ids))
    racks = []
    for i, player in enumerate(player_ids):
        count = 0 if (i == winner and not pool_exhausted) else rng.randint(1, 9)
        rack, tiles = tiles[:count], tiles[count:]
        racks.append(rules.RackIn(player=player, tiles=" ".join(rack)))
    return ("pool_exhausted" if pool_exhausted else "rummikub"), racks


def racks_scored(
    rng: random.Random, player_ids: Sequence[int], *, most: int = 60
) -> tuple[str, list[rules.RackIn]]:
    """A game won by a random player; the others hold 1 to ``most`` points, no joker."""
    winner = rng.randrange(len(player_ids))
    return "rummikub", [
        rules.RackIn(player=p, points=0 if i == winner else rng.randint(1, most), jokers=0)
        for i, p in enumerate(player_ids)
    ]


def match_play(
    *, match: Match, rng: random.Random, games_played: int | None = None, deal: Deal = racks_scored
) -> None:
    """Record the match's games (all of them unless ``games_played``), dealt by ``deal``."""
    seated = [s.player_id for s in sorted(match.seats.all(), key=lambda s: s.position)]
    for _game in range(match.round.games_per_match if games_played is None else games_played):
        ending, racks = deal(rng, seated)
        game_record(match=match, ending=ending, racks=racks)


def round_play(
    round_: Round, *, seed: int = 0, games: int | None = None, deal: Deal = racks_scored
) -> None:
    """Record every game of every match of a round (``games`` per match if given)."""
    rng = random.Random(f"{seed}:{round_.pk}")
    for match in round_.matches.order_by("table").prefetch_related("seats"):
        match_play(match=match, rng=rng, games_played=games, deal=deal)


@transaction.atomic
def demo_load(*, reset: bool = False) -> Tournament:
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing and not reset:
        return existing
    if existing:
        tournaments.tournament_delete(tournament=existing)
    user_model = get_user_model()
    admin = user_model.objects.filter(username="admin").first()
    if admin is None:
        admin = user_model.objects.create_superuser("admin", "admin@example.org", "admin")
    organiser = user_model.objects.filter(username="organiser").first()
    if organiser is None:
        organiser = user_model.objects.create_user("organiser", "", "rackscore")
    club_name = "Nørrebro Rummikub Club"
    # The demo's organiser made its club and players, so may change them.
    club = Club.objects.filter(name=club_name).first() or players.club_create(
        name=club_name, city="Copenhagen", created_by=organiser
    )
    people = [
        Player.objects.filter(name=n, club=club).first()
        or players.player_create(name=n, club=club, created_by=organiser)
        for n in DEMO_PLAYERS
    ]
    tournament = tournaments.tournament_create(
        owner=organiser,
        name="Autumn Open 2026",
        slug=DEMO_SLUG,
        date=datetime.date(2026, 11, 21),
        club=club,
        rounds=3,
        games_per_round=4,
        seating=Tournament.Seating.SWISS,
    )
    entries.entries_add(tournament=tournament, player_ids=[p.pk for p in people])
    rng = random.Random(2026)
    for number in (1, 2, 3):
        round_ = rounds.round_seat_next(tournament=tournament)
        if number < 3:
            for match in round_.matches.order_by("table"):
                match_play(match=match, rng=rng, deal=racks_dealt)
    return tournament
