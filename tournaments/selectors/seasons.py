"""Seasons read: a club's seasons, a season with its evenings, the season
table, and the players an evening's check-in lists.

Vocabulary (the counting rules are in ``standings.season``):

* an *evening* is a tournament whose ``season`` names the season; its *day*
  is its date, or its creation day in the site's time zone when it has none.
  Evenings are listed by day, then id: "earlier" in the counting rules;
* each evening's order is its *current ranking*
  (``selectors.standings.ranking_current``), the one every page shows: the
  season never ranks an evening itself. The players who played (one game or
  more) are its places; the first of them is the *winner of the night*;
* a season is *current* until its last day has passed, then *finished*; a
  finished season's *champion* is the first of its table;
* a season is *visible* to whoever sees its club (``access.season_visible``).

Each read runs a fixed number of queries whatever the number of evenings
once the evenings' rankings are built (they are cached per tournament
version, as every view of them is); tests pin the counts.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from tournaments.access import seasons_organised_q
from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Club, Entry, Player, Season, Tournament
from tournaments.search_names import name_matches
from tournaments.selectors.standings import ranking_current
from tournaments.standings.season import (
    Evening,
    Place,
    SeasonRow,
    SeasonRules,
    SeasonTable,
    season_table,
)


@dataclass
class EveningLine:
    """One evening as the season shows it."""

    tournament: Tournament
    day: dt.date
    # Players who played, and the winner of the night ("" before any game).
    players: int = 0
    winner: str = ""
    winner_id: int | None = None

    @property
    def id(self) -> int:
        return self.tournament.pk

    @property
    def counts(self) -> bool:
        """Whether the evening has a recorded game (and so counts)."""
        return self.players > 0


@dataclass
class SeasonView:
    """A season, its evenings (earliest first) and its table."""

    season: Season
    evenings: list[EveningLine]
    table: SeasonTable

    @property
    def finished(self) -> bool:
        return season_finished(self.season)

    @property
    def champion(self) -> SeasonRow | None:
        return self.table.champion if self.finished else None


@dataclass
class SeasonLine:
    """A season as its club's page lists it."""

    season: Season
    evenings: int
    finished: bool
    champion: SeasonRow | None = None


@dataclass
class CheckinLine:
    """A player the evening's check-in lists: a member or one entered."""

    player_id: int
    name: str
    member: bool
    # The entry's status ("" when not entered).
    status: str = ""
    # Whether the search finds them (the others are listed hidden, ticks kept).
    shown: bool = True

    @property
    def here(self) -> bool:
        return self.status == Entry.Status.ACTIVE


@dataclass
class Checkin:
    lines: list[CheckinLine] = field(default_factory=list)
    # How many lines the search left out.
    hidden: int = 0

    @property
    def here(self) -> int:
        return sum(1 for line in self.lines if line.here)


def today() -> dt.date:
    return timezone.localdate()


def season_finished(season: Season) -> bool:
    return season.ends < today()


def season_rules(season: Season) -> SeasonRules:
    return SeasonRules(
        evening_points=season.evening_points,
        best_of=season.best_of,
        min_evenings=season.min_evenings,
        guests=season.guests,
    )


def season_get(*, pk: int, club: Club | None = None) -> Season | None:
    """The season with this id (of ``club`` when given), its club and the club's
    co-organisers read with it; None when there is none. Two queries."""
    found = Season.objects.select_related("club").prefetch_related("club__co_organisers")
    if club is not None:
        found = found.filter(club=club)
    return found.filter(pk=pk).first()


def club_get(*, pk: int) -> Club | None:
    """The club with this id and its co-organisers; None when there is none."""
    return Club.objects.prefetch_related("co_organisers").filter(pk=pk).first()


def seasons_of_club(*, club: Club) -> QuerySet[Season]:
    """The club's seasons, latest start first."""
    return Season.objects.filter(club=club).select_related("club").order_by("-starts", "-id")


def evenings_language_of_club(*, club: Club, excluding: Season | None = None) -> str | None:
    """The language the club's latest season (other than ``excluding``) that names
    one gives its evenings; None when none does. One query."""
    found = seasons_of_club(club=club).filter(evening_settings__has_key="language")
    if excluding is not None:
        found = found.exclude(pk=excluding.pk)
    for settings in found.values_list("evening_settings", flat=True)[:1]:
        language = settings.get("language")
        return language if isinstance(language, str) else None
    return None


def seasons_usable(*, user: ActingUser, kept: int | None = None) -> QuerySet[Season]:
    """The seasons a tournament of this user may join: those of the clubs they
    organise, and the one it names already (``kept``)."""
    usable = seasons_organised_q(user=user)
    if kept is not None:
        usable |= Q(pk=kept)
    return Season.objects.filter(usable).select_related("club").order_by("club__name", "-starts")


def _evenings_read(seasons: list[Season]) -> dict[int, list[Tournament]]:
    """Each season's evenings with their versions (``live_version``); one query."""
    latest = (
        AuditEvent.objects.filter(tournament_id=OuterRef("pk")).order_by("-id").values("id")[:1]
    )
    by_season: dict[int, list[Tournament]] = {s.pk: [] for s in seasons}
    found = (
        Tournament.objects.filter(season__in=seasons)
        .annotate(live_version=Coalesce(Subquery(latest), Value(0)))
        .order_by("id")
    )
    for tournament in found:
        assert tournament.season_id is not None
        by_season[tournament.season_id].append(tournament)
    for evenings in by_season.values():
        evenings.sort(key=lambda t: (evening_day(t), t.pk))
    return by_season


def evening_day(tournament: Tournament) -> dt.date:
    """The evening's date, or its creation day in the site's time zone."""
    if tournament.date is not None:
        return tournament.date
    return timezone.localdate(tournament.created) if tournament.created else today()


def _evening(tournament: Tournament) -> tuple[Evening, EveningLine]:
    ranking = ranking_current(tournament=tournament, version=tournament.live_version)  # type: ignore[attr-defined]
    places = tuple(
        Place(
            player_id=row.player_id,
            name=row.name,
            rank=row.rank,
            score=row.score,
            table_points=row.table_points,
        )
        for row in ranking.rows
        if row.games > 0
    )
    line = EveningLine(tournament=tournament, day=evening_day(tournament), players=len(places))
    if places:
        line.winner, line.winner_id = places[0].name, places[0].player_id
    return Evening(id=tournament.pk, places=places), line


def _members(club_ids: set[int], player_ids: set[int]) -> dict[int, set[int]]:
    """Club id -> those of ``player_ids`` who are its members; one query."""
    members: dict[int, set[int]] = {c: set() for c in club_ids}
    if player_ids:
        for pid, club_id in Player.objects.filter(
            pk__in=player_ids, club_id__in=club_ids
        ).values_list("pk", "club_id"):
            members[club_id].add(pid)
    return members


def _views(seasons: list[Season]) -> list[SeasonView]:
    evenings = _evenings_read(seasons)
    read = {s.pk: [_evening(t) for t in evenings[s.pk]] for s in seasons}
    players = {p.player_id for pairs in read.values() for e, _ in pairs for p in e.places}
    members = _members({s.club_id for s in seasons}, players)
    return [
        SeasonView(
            season=s,
            evenings=[line for _, line in read[s.pk]],
            table=season_table(
                evenings=[e for e, _ in read[s.pk]],
                rules=season_rules(s),
                members=members[s.club_id],
            ),
        )
        for s in seasons
    ]


def season_view(*, season: Season) -> SeasonView:
    """The season's evenings and table: two queries once the evenings' rankings
    are built (each unbuilt one adds its ranking's reads)."""
    return _views([season])[0]


def seasons_listed(*, club: Club) -> list[SeasonLine]:
    """The club's seasons for its page, current ones first, each finished one with
    its champion: three queries once the evenings' rankings are built."""
    seasons = list(seasons_of_club(club=club))
    finished = [s for s in seasons if season_finished(s)]
    champions = {v.season.pk: v.table.champion for v in _views(finished)} if finished else {}
    counts = _evening_counts(seasons)
    lines = [
        SeasonLine(
            season=s,
            evenings=counts.get(s.pk, 0),
            finished=season_finished(s),
            champion=champions.get(s.pk),
        )
        for s in seasons
    ]
    return sorted(lines, key=lambda line: line.finished)


def _evening_counts(seasons: list[Season]) -> dict[int, int]:
    if not seasons:
        return {}
    return dict(
        Tournament.objects.filter(season__in=seasons)
        .order_by()
        .values("season_id")
        .annotate(n=Count("id"))
        .values_list("season_id", "n")
    )


def last_evening(*, season: Season, before: Tournament | None = None) -> Tournament | None:
    """The season's latest evening (other than ``before``); one query."""
    found = Tournament.objects.filter(season=season).order_by("-date", "-created", "-id")
    if before is not None:
        found = found.exclude(pk=before.pk)
    return found.first()


def checkin_of(*, tournament: Tournament, query: str = "") -> Checkin:
    """The evening's check-in: every member of its club and every player
    entered, by name; those ``query`` does not find (accent-insensitive) are
    marked not shown. Two queries."""
    entries: dict[int, tuple[str, str]] = {
        pid: (name, status)
        for pid, name, status in Entry.objects.filter(tournament=tournament).values_list(
            "player_id", "player__name", "status"
        )
    }
    lines: dict[int, CheckinLine] = {}
    if tournament.club_id is not None:
        for pid, name in Player.objects.filter(club_id=tournament.club_id).values_list(
            "pk", "name"
        ):
            lines[pid] = CheckinLine(player_id=pid, name=name, member=True)
    for pid, (name, status) in entries.items():
        line = lines.setdefault(pid, CheckinLine(player_id=pid, name=name, member=False))
        line.status = status
    ordered = sorted(lines.values(), key=lambda line: (line.name.casefold(), line.player_id))
    for line in ordered:
        line.shown = name_matches(query, line.name)
    return Checkin(lines=ordered, hidden=sum(1 for line in ordered if not line.shown))


def checkin_player_ids(*, tournament: Tournament) -> set[int]:
    """The players the check-in may tick: the club's members and those entered."""
    ids = set(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    if tournament.club_id is not None:
        ids |= set(Player.objects.filter(club_id=tournament.club_id).values_list("pk", flat=True))
    return ids


def season_rows(view: SeasonView) -> list[dict[str, Any]]:
    """The season table as plain rows (ranked, then unranked), for the exports
    and the API: rank, player, name, points, evenings, counted, best and each
    evening's points."""
    return [
        {
            "rank": row.rank,
            "player": row.player_id,
            "name": row.name,
            "points": row.points,
            "evenings": row.evenings,
            "counted": list(row.counted),
            "best": row.best,
            "by_evening": row.by_evening,
        }
        for row in [*view.table.ranked, *view.table.unranked]
    ]
