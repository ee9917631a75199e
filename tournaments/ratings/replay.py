"""Many games in the rating order: the state of every player as they go.

Vocabulary: the *book* holds each player's current μ, σ and rated games
(a player not in it stands at the start: μ 25, σ 25/3, no games). *Playing*
a game through it rates the game with ``engine.rate`` and moves its players
on; the result is one *step* per seated player: their μ, σ and shown rating
after the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from tournaments.ratings.engine import MU, SIGMA, rate


@dataclass(frozen=True, slots=True)
class GameToRate:
    """One rated game: its id, its seated players and their zero-sum scores."""

    game: int
    players: tuple[int, ...]
    scores: tuple[float, ...]


class Step(NamedTuple):
    """A player's rating after one game."""

    game: int
    player: int
    mu: float
    sigma: float
    rating: int


_step = tuple.__new__


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating now, and how many rated games made it."""

    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> int:
        return round(1500 + 24 * (self.mu - 3 * self.sigma))


@dataclass
class Book:
    """Every player's current rating, moved on game by game."""

    mu: dict[int, float] = field(default_factory=dict)
    sigma: dict[int, float] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, standings: dict[int, Standing]) -> Book:
        book = cls()
        for player, s in standings.items():
            book.mu[player] = s.mu
            book.sigma[player] = s.sigma
            book.games[player] = s.games
        return book

    def play(self, game: GameToRate) -> list[Step]:
        players = game.players
        mus_now, sigmas_now, games = self.mu, self.sigma, self.games
        mus, sigmas = rate(
            [mus_now.get(p, MU) for p in players],
            [sigmas_now.get(p, SIGMA) for p in players],
            game.scores,
        )
        steps: list[Step] = []
        number = game.game
        for p, mu, sigma in zip(players, mus, sigmas, strict=True):
            mus_now[p] = mu
            sigmas_now[p] = sigma
            games[p] = games.get(p, 0) + 1
            # The shown rating (engine.shown), written out, and the step made
            # as the tuple it is (a named tuple's own constructor is a Python
            # call more): this runs 400,000 times a full recomputation.
            steps.append(_step(Step, (number, p, mu, sigma, round(1500 + 24 * (mu - 3 * sigma)))))
        return steps

    def play_all(self, games: Iterable[GameToRate]) -> list[Step]:
        steps: list[Step] = []
        for game in games:
            steps.extend(self.play(game))
        return steps

    def standing(self, player: int) -> Standing | None:
        if player not in self.games:
            return None
        return Standing(self.mu[player], self.sigma[player], self.games[player])

    def standings(self, players: Sequence[int] | None = None) -> dict[int, Standing]:
        chosen = self.games if players is None else [p for p in players if p in self.games]
        return {p: Standing(self.mu[p], self.sigma[p], self.games[p]) for p in chosen}
