"""A realistic demo: a club, sixteen players and a tournament of three rounds,
two of them played. Used by ``make run`` (``manage.py load_demo``) and tests.

Racks are dealt from a shuffled tile set with a fixed seed, so the demo is the
same on every machine.
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from .models import Club, Match, Player, Tournament
from .services import games as services
from .services import rounds

DEMO_SLUG = "autumn-open"
DEMO_PLAYERS = [
    "Anna Jensen", "Ben Larsen", "Cleo Nielsen", "Dan Hansen", "Eva Berg", "Frederik Holm",
    "Greta Lind", "Hans Meyer", "Ida Kristensen", "Jonas Dahl", "Karin Vos", "Lars Eriksen",
    "Mette Bakker", "Nils Olsen", "Olga Schmidt", "Per Andersen",
]  # fmt: skip
TILE_SET = [f"{c}{n}" for c in "KBOR" for n in range(1, 14) for _ in range(2)] + ["J", "J"]


def _racks_deal(rng: random.Random, players: list[int]) -> tuple[str, list[services.RackEntry]]:
    tiles = TILE_SET.copy()
    rng.shuffle(tiles)
    pool_exhausted = rng.random() < 0.15
    winner = rng.randrange(len(players))
    entries = []
    for i, player in enumerate(players):
        count = 0 if (i == winner and not pool_exhausted) else rng.randint(1, 9)
        rack, tiles = tiles[:count], tiles[count:]
        entries.append(services.RackEntry(player=player, tiles=" ".join(rack)))
    return ("pool_exhausted" if pool_exhausted else "rummikub"), entries


def match_play(*, match: Match, rng: random.Random) -> None:
    """Record every game of a match with dealt racks."""
    players = [s.player_id for s in match.seats.order_by("position")]
    for _game in range(match.round.games_per_match):
        ending, entries = _racks_deal(rng, players)
        services.game_record(match=match, ending=ending, racks=entries)


@transaction.atomic
def demo_load(*, reset: bool = False) -> Tournament:
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing and not reset:
        return existing
    if existing:
        existing.delete()
    user_model = get_user_model()
    admin = user_model.objects.filter(username="admin").first()
    if admin is None:
        admin = user_model.objects.create_superuser("admin", "admin@example.org", "admin")
    organiser = user_model.objects.filter(username="organiser").first()
    if organiser is None:
        organiser = user_model.objects.create_user("organiser", "", "rackscore")
    club, _created = Club.objects.get_or_create(name="Nørrebro Rummikub Club", city="Copenhagen")
    players = [Player.objects.get_or_create(name=n, club=club)[0] for n in DEMO_PLAYERS]
    tournament = Tournament.objects.create(
        name="Autumn Open 2026",
        slug=DEMO_SLUG,
        date=datetime.date(2026, 11, 21),
        club=club,
        owner=organiser,
        rounds=3,
        games_per_round=4,
        seating=Tournament.Seating.SWISS,
    )
    rounds.entries_add(tournament=tournament, player_ids=[p.pk for p in players])
    rng = random.Random(2026)
    for number in (1, 2, 3):
        round_ = rounds.round_seat_next(tournament=tournament)
        if number < 3:
            for match in round_.matches.order_by("table"):
                match_play(match=match, rng=rng)
    return tournament
