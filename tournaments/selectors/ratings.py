"""Ratings as the pages, the API and the statistics read them (design §6).

Vocabulary: a player's *shown* rating is ``round(1500 + 24 × (μ − 3σ))``;
it is *provisional* while they have fewer than ``PROVISIONAL_GAMES`` rated
games. A *rating point* is one rated game of a player's history: the rating
after it. The *rating list* ranks players with at least one rated game by
their shown rating, equal ratings sharing a rank (one query; its rows carry
the rank, so a page of it needs no more).

Rows exist only for games of public tournaments (a private tournament is
never rated, and one made private is replayed out), so every row is public;
the history still reads only tournaments the viewer may see. A player's club
is named only to those who may see the club.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, F, Q, QuerySet, When, Window
from django.db.models.functions import Lower, Rank

from tournaments.access import clubs_visible_q, tournaments_visible_q
from tournaments.actors import ActingUser
from tournaments.models import Club, GameRating, PlayerRating, Tournament
from tournaments.ratings.engine import PROVISIONAL_GAMES


@dataclass(frozen=True)
class PlayerRatingShown:
    """A player's current rating: shown, provisional, from how many rated games."""

    rating: int
    provisional: bool
    games: int
    mu: float
    sigma: float


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after one rated game."""

    game: int
    tournament: int
    date: datetime.date
    mu: float
    sigma: float
    rating: int


def ratings_current(*, player_ids: Collection[int]) -> dict[int, PlayerRatingShown]:
    """The current rating of each of those players who has one (a player
    without a rated game is left out); one query."""
    if not player_ids:
        return {}
    rows = PlayerRating.objects.filter(player_id__in=list(player_ids)).values_list(
        "player_id", "rating", "games", "mu", "sigma"
    )
    return {
        pid: PlayerRatingShown(
            rating=rating, provisional=games < PROVISIONAL_GAMES, games=games, mu=mu, sigma=sigma
        )
        for pid, rating, games, mu, sigma in rows
    }


def rating_history(*, player_id: int, user: ActingUser) -> list[RatingPoint]:
    """The player's rating after each rated game the viewer may see, oldest
    first; one query."""
    rows = (
        GameRating.objects.filter(player_id=player_id)
        .filter(tournament__in=Tournament.objects.filter(tournaments_visible_q(user=user)))
        .order_by("place")
        .values_list("game_id", "tournament_id", "sort_date", "mu", "sigma", "rating")
    )
    return [
        RatingPoint(game=g, tournament=t, date=d, mu=mu, sigma=sigma, rating=r)
        for g, t, d, mu, sigma, r in rows
    ]


def rating_list(
    *, user: ActingUser, club_id: int | None = None
) -> QuerySet[PlayerRating, dict[str, Any]]:
    """Players with a rating (the members of the club, if given), best first,
    as dicts: ``rank``, ``player``, ``name``, ``club``, ``club_name``,
    ``club_slug``, ``rating``, ``mu``, ``sigma``, ``games``; equal shown ratings share a rank,
    listed by name. A club the user may not see is not named (``club`` and
    ``club_name``, ``club_slug`` None). Slicing it (a page) keeps the ranks of the whole
    list; one query."""
    rows = PlayerRating.objects.all()
    if club_id is not None:
        rows = rating_rows_of_club(rows, club_id=club_id, user=user)
    seen = Club.objects.filter(clubs_visible_q(user=user)).values("pk")
    named = Q(player__club__in=seen)
    return (
        rows.annotate(
            rank=Window(expression=Rank(), order_by=F("rating").desc()),
            name=F("player__name"),
            club=Case(When(named, then=F("player__club_id")), default=None),
            club_name=Case(When(named, then=F("player__club__name")), default=None),
            club_slug=Case(When(named, then=F("player__club__slug")), default=None),
        )
        .order_by("-rating", Lower("player__name"), "player_id")
        .values(
            "rank",
            "player",
            "name",
            "club",
            "club_name",
            "club_slug",
            "rating",
            "mu",
            "sigma",
            "games",
        )
    )


def rating_rows_of_club(
    rows: QuerySet[PlayerRating, Any], *, club_id: int, user: ActingUser
) -> QuerySet[PlayerRating, Any]:
    """The rating rows of the club's members, none when the user may not see
    the club: a club the list does not name is not listed either (its members
    would tell who belongs to it), as a club that does not exist."""
    seen = Club.objects.filter(clubs_visible_q(user=user), pk=club_id).values("pk")
    return rows.filter(player__club_id=club_id, player__club__in=seen)


def rating_clubs(*, user: ActingUser) -> list[tuple[int, str]]:
    """The clubs the user may see that have a rated member, by name: the rating
    list's choices; one query."""
    clubs = Club.objects.filter(clubs_visible_q(user=user)).filter(
        pk__in=PlayerRating.objects.filter(player__club__isnull=False).values("player__club_id")
    )
    return list(clubs.order_by(Lower("name"), "id").values_list("pk", "name"))
