"""The event the load plays: one tournament, one seated round, its games.

Vocabulary: a *table* is one match of the round with its private token and
the bodies of its four games (game 1 to 4, as its phone posts them: the first
seat goes out with a Rummikub, the others count their racks' points); the
*standings path* is what the phones poll, the *screen path* what the
projectors poll. Built in the bench's own process, in one transaction, as
bench_recording builds its tournaments (no audit event: the tournament's
version starts with the first game posted). Afterwards *counted* reads back
how many games the database holds, and how many distinct (match, number).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

SLUG = "cluster"


@dataclass(frozen=True)
class Table:
    match: int
    token: str
    games: list[dict[str, Any]]


@dataclass(frozen=True)
class Event:
    tournament: int
    slug: str
    tables: list[Table]

    @property
    def standings_path(self) -> str:
        return f"/t/{self.slug}/standings/"

    @property
    def screen_path(self) -> str:
        return f"/t/{self.slug}/screen/state/"

    @property
    def games(self) -> int:
        return sum(len(t.games) for t in self.tables)


def event_build(*, players: int, games_per_match: int, seed: int) -> Event:
    """A public tournament of ``players`` at tables of 4, one round seated."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tournaments.models import Club, Entry, Match, Player, Round, Seat, Tournament

    rng = random.Random(seed)
    with transaction.atomic():
        owner = get_user_model().objects.create(username="cluster")
        club = Club.objects.create(name="Cluster club", slug="cluster-club")
        people = Player.objects.bulk_create(
            Player(name=f"Player {i:04d}", club=club) for i in range(players)
        )
        tournament = Tournament.objects.create(
            name="Cluster open",
            slug=SLUG,
            owner=owner,
            rounds=1,
            games_per_round=games_per_match,
        )
        Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in people)
        round_ = Round.objects.create(
            tournament=tournament, number=1, games_per_match=games_per_match
        )
        matches = Match.objects.bulk_create(
            Match(round=round_, table=i + 1) for i in range(players // 4)
        )
        Seat.objects.bulk_create(
            Seat(match=matches[i // 4], round=round_, player=p, position=i % 4 + 1)
            for i, p in enumerate(people)
        )
    tables = []
    for i, match in enumerate(matches):
        seated = [p.pk for p in people[i * 4 : i * 4 + 4]]
        games = [
            {
                "number": number,
                "ending": "rummikub",
                "racks": [
                    {"player": pid, "tiles": ""}
                    if seat == (number - 1) % 4
                    else {"player": pid, "points": rng.randint(1, 60), "jokers": 0}
                    for seat, pid in enumerate(seated)
                ],
            }
            for number in range(1, games_per_match + 1)
        ]
        tables.append(Table(match=match.pk, token=match.token, games=games))
    return Event(tournament=tournament.pk, slug=SLUG, tables=tables)


def counted(event: Event) -> tuple[int, int]:
    """Games stored in the event's tournament, and distinct (match, number) among them."""
    from tournaments.models import Game

    games = Game.objects.filter(match__round__tournament_id=event.tournament)
    return games.count(), games.values("match_id", "number").distinct().count()
