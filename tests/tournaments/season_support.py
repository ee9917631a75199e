"""A club season played through the services, and its table computed plainly.

Twelve members and a guest over four evenings, with absentees: rank points,
the best 3 of 4 evenings count, 2 evenings to be ranked, guests left out.
``plain_table`` computes the table from each evening's standings with none
of the season code, so the two can be compared. Seasons are dated from today
(``day``): a season whose last day has passed starts no evening, and the tests
run on any day.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.demo import round_play
from tournaments.models import Club, Player, Season, Tournament
from tournaments.selectors.standings import standings_for
from tournaments.services import entries, players, rounds, seasons, tournaments

EVENING_SETTINGS = {"rounds": 1, "games_per_round": 2, "seating": "random", "ranking": "score"}
# Who is here each evening (members by number 0-11); the guest comes on evening 2.
PRESENT = [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [0, 1, 2, 3, 8, 9, 10, 11],
    [0, 2, 4, 6, 8, 10, 11],
    [1, 3, 5, 7, 9, 11, 0, 2],
]
GUEST_EVENING = 1
# The season's first evening is this many weeks before today; the last is today.
WEEKS = len(PRESENT) - 1


def day(offset: int = 0) -> dt.date:
    """The day ``offset`` days from today in the site's time zone."""
    return timezone.localdate() + dt.timedelta(days=offset)


@dataclass
class PlayedSeason:
    club: Club
    organiser: AbstractBaseUser
    season: Season
    members: list[Player]
    guest: Player
    evenings: list[Tournament]


def season_played(*, guest_evening: int = GUEST_EVENING) -> PlayedSeason:
    organiser = UserFactory()
    club = ClubFactory(created_by=organiser)
    members = [
        PlayerFactory(club=club, name=f"Member {n:02d}", created_by=organiser) for n in range(12)
    ]
    start = day(-7 * WEEKS)
    season = seasons.season_create(
        club=club,
        user=organiser,
        name="Autumn",
        starts=start,
        ends=day(60),
        evening_points="rank_points",
        best_of=3,
        min_evenings=2,
        guests="exclude",
        evening_settings=EVENING_SETTINGS,
    )
    guest: Player | None = None
    played: list[Tournament] = []
    for number, here in enumerate(PRESENT):
        evening = seasons.evening_create(season=season, user=organiser)
        # Each evening on its own week (created today, dated as it was played).
        evening = tournaments.tournament_update(
            tournament=evening, user=organiser, date=start + dt.timedelta(weeks=number)
        )
        ids = [members[i].pk for i in here]
        if number == guest_evening:
            guest = players.player_enter(tournament=evening, name="Guest", user=organiser).player
            ids.append(guest.pk)
        entries.attendance_set(tournament=evening, player_ids=ids, user=organiser)
        round_play(rounds.round_seat_next(tournament=evening, user=organiser), seed=number)
        played.append(evening)
    assert guest is not None
    return PlayedSeason(club, organiser, season, members, guest, played)


def _rank_points(n: int, first: int, last: int) -> Decimal:
    if n == 1:
        return Decimal(1000)
    exact = Fraction(1000) * (n - Fraction(first + last, 2)) / (n - 1)
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )


Line = tuple[int | None, int, Decimal, int, tuple[int, ...], Decimal]


def plain_table(played: PlayedSeason) -> tuple[list[Line], list[Line]]:
    """(rank, player id, points, evenings, counted ids, best) rows: ranked, unranked."""
    earned: dict[int, dict[int, Decimal]] = {}
    for evening in played.evenings:
        rows = [r for r in standings_for(tournament=evening) if r.games]
        n = len(rows)
        for row in rows:
            # The evening's own places among those who played: its standings'
            # order, tie-breaks applied; players still equal share the mean of
            # the places they cover.
            first = 1 + sum(1 for r in rows if r.rank < row.rank)
            last = first + sum(1 for r in rows if r.rank == row.rank) - 1
            earned.setdefault(row.player_id, {})[evening.pk] = _rank_points(n, first, last)
    member_ids = {m.pk for m in played.members}
    order = [e.pk for e in played.evenings]
    lines = []
    for pid, points in earned.items():
        if pid not in member_ids:
            continue
        best3 = sorted(points, key=lambda e: (-points[e], order.index(e)))[:3]
        counted = tuple(e for e in order if e in best3)
        lines.append(
            (pid, sum(points[e] for e in counted), len(points), counted, max(points.values()))
        )
    names = {m.pk: m.name.casefold() for m in played.members}
    ranked = sorted(
        (line for line in lines if line[2] >= 2),
        key=lambda line: (-line[1], -line[2], -line[4], names[line[0]]),
    )
    out: list[Line] = []
    for i, line in enumerate(ranked):
        same = out and (out[-1][2], out[-1][3], out[-1][5]) == (line[1], line[2], line[4])
        out.append((out[-1][0] if same else i + 1, *line))
    unranked = sorted(
        (line for line in lines if line[2] < 2),
        key=lambda line: (-line[2], -line[1], names[line[0]]),
    )
    return out, [(None, *line) for line in unranked]
