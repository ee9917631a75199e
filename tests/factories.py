"""factory_boy factories for the models; tests build data with these.

Games are played through the services by ``tournaments.demo`` (``round_play``,
re-exported here for the tests).
"""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from tournaments.demo import round_play as round_play
from tournaments.models import (
    Adjustment,
    Club,
    Entry,
    Match,
    Player,
    Round,
    Seat,
    Tournament,
)
from tournaments.services.club_slugs import club_slug_base


class UserFactory(factory.django.DjangoModelFactory[Any]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass-123")


class ClubFactory(factory.django.DjangoModelFactory[Club]):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.LazyAttribute(lambda club: club_slug_base(club.name))
    created_by = None  # staff only, unless a test names its creator


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n:04d}")
    club = None
    created_by = None  # staff only, unless a test names its creator


class TournamentFactory(factory.django.DjangoModelFactory[Tournament]):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Tournament {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")
    owner = factory.SubFactory(UserFactory)
    rounds = 3
    games_per_round = 4
    seating = Tournament.Seating.RANDOM


class EntryFactory(factory.django.DjangoModelFactory[Entry]):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)


class RoundFactory(factory.django.DjangoModelFactory[Round]):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    games_per_match = factory.SelfAttribute("tournament.games_per_round")


class MatchFactory(factory.django.DjangoModelFactory[Match]):
    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)


class AdjustmentFactory(factory.django.DjangoModelFactory[Adjustment]):
    class Meta:
        model = Adjustment

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    points = -10
    reason = "Late arrival"


def match_seated(*, players: int = 4, tournament: Tournament | None = None, **kwargs: Any) -> Match:
    """A match in a new round with ``players`` entered players seated in order."""
    tournament = tournament or TournamentFactory(**kwargs)
    number = (tournament.round_set.count() or 0) + 1
    round_ = RoundFactory(tournament=tournament, number=number)
    match = MatchFactory(round=round_, table=1)
    for position in range(1, players + 1):
        player = PlayerFactory()
        EntryFactory(tournament=tournament, player=player)
        Seat.objects.create(match=match, round=round_, player=player, position=position)
    return match


def seated_ids(match: Match) -> list[int]:
    return list(match.seats.order_by("position").values_list("player_id", flat=True))


def tournament_entered(*, players: int = 8, **kwargs: Any) -> Tournament:
    """A tournament with ``players`` new players entered (active).

    The owner gets an unusable password: hashing a real one costs most of a test.
    """
    kwargs.setdefault("owner__password", None)
    tournament = TournamentFactory(**kwargs)
    people = PlayerFactory.create_batch(players)
    Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in people)
    return tournament
