"""An oracle for the rating tests: openskill's own ``rate`` loop over the
rated games as the database holds them, in the rating order."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone
from openskill.models import PlackettLuce

from tests.factories import round_play, tournament_entered
from tournaments.models import GameRating, PlayerRating, Rack, Tournament
from tournaments.services.rounds import round_seat_next

MODEL = PlackettLuce()
TOLERANCE = 1e-9


def sort_date(t: Tournament) -> dt.date:
    if t.date is not None:
        return t.date
    zone = timezone.get_default_timezone() if settings.USE_TZ else None
    return timezone.localtime(t.created, zone).date()


def oracle() -> tuple[dict[tuple[int, int], Any], dict[int, Any]]:
    """(game, player) -> openskill rating after the game; player -> final rating and games."""
    racks = (
        Rack.objects.filter(
            game__state="confirmed",
            game__match__round__tournament__rated=True,
            game__match__round__tournament__public=True,
        )
        .select_related("game__match__round__tournament")
        .order_by("position")
    )
    games: dict[int, list[Rack]] = {}
    for r in racks:
        games.setdefault(r.game_id, []).append(r)

    def key(rs: list[Rack]) -> tuple[Any, ...]:
        g = rs[0].game
        t = g.match.round.tournament
        return (sort_date(t), t.pk, g.match.round.number, g.match.table, g.number)

    ratings: dict[int, Any] = {}
    counts: dict[int, int] = {}
    after: dict[tuple[int, int], Any] = {}
    for rs in sorted(games.values(), key=key):
        players = [r.player_id for r in rs]
        teams = [[ratings.get(p) or MODEL.rating()] for p in players]
        out = MODEL.rate(teams, scores=[float(r.score) for r in rs])
        for p, team in zip(players, out, strict=True):
            ratings[p] = team[0]
            counts[p] = counts.get(p, 0) + 1
            after[(rs[0].game_id, p)] = team[0]
    return after, {p: (ratings[p], counts[p]) for p in ratings}


def assert_ratings_are_openskills() -> int:
    """Every stored rating row and current rating equals the oracle's; the
    number of rows."""
    after, final = oracle()
    rows = {(r.game_id, r.player_id): r for r in GameRating.objects.all()}
    assert rows.keys() == after.keys()
    for k, r in rows.items():
        want = after[k]
        assert abs(r.mu - want.mu) <= TOLERANCE
        assert abs(r.sigma - want.sigma) <= TOLERANCE
        assert r.rating == round(1500 + 24 * want.ordinal())
    current = {r.player_id: r for r in PlayerRating.objects.all()}
    assert current.keys() == final.keys()
    for p, r in current.items():
        want, games = final[p]
        assert abs(r.mu - want.mu) <= TOLERANCE
        assert abs(r.sigma - want.sigma) <= TOLERANCE
        assert r.games == games
        assert r.rating == round(1500 + 24 * want.ordinal())
    return len(rows)


def tournament_played(
    *, players: int = 8, rounds: int = 2, seed: int = 0, games: int | None = 2, **kwargs: Any
) -> Tournament:
    """A tournament of new players with ``rounds`` rounds seated and played."""
    kwargs.setdefault("max_table_size", 4)
    kwargs.setdefault("games_per_round", games or 4)
    t = tournament_entered(players=players, rounds=max(rounds, 1), **kwargs)
    for _ in range(rounds):
        round_play(round_seat_next(tournament=t), seed=seed, games=games)
    return t


def rating_locks(*, replay: bool = False) -> int:
    """The statements PostgreSQL runs beyond SQLite's when a game's ratings
    move (SQLite writes one at a time and locks nothing): its players are
    locked in the statement that reads the rating state (none); when the game
    must replay, the try to take the rating state to itself (one); when its
    players move on rather than replay, one statement less: there the new
    rating rows go in with the players' ratings."""
    if connection.vendor != "postgresql":
        return 0
    return 1 if replay else -1
