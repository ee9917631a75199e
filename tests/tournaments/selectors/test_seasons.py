"""Seasons read: fixed query counts, the evenings' order and winners, the
club's list with champions, the check-in's lines, who may pick a season."""

from __future__ import annotations

import pytest

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.season_support import day, season_played
from tournaments.models import Season
from tournaments.selectors.seasons import (
    checkin_of,
    evenings_language_of_club,
    season_view,
    seasons_listed,
    seasons_usable,
)
from tournaments.selectors.standings import ranking_current
from tournaments.services import seasons

pytestmark = pytest.mark.django_db


def test_the_season_table_reads_in_two_queries_once_the_evenings_are_ranked(
    django_assert_num_queries,
) -> None:
    played = season_played()
    season_view(season=played.season)  # the evenings' rankings built (and cached)
    with django_assert_num_queries(2):
        view = season_view(season=played.season)
    assert len(view.evenings) == 4
    # One more evening costs no more queries.
    more = seasons.evening_create(season=played.season, user=played.organiser)
    season_view(season=played.season)
    with django_assert_num_queries(2):
        assert len(season_view(season=played.season).evenings) == 5
    assert more.pk == season_view(season=played.season).evenings[-1].id


def test_each_evening_is_read_through_the_one_ranking() -> None:
    played = season_played()
    view = season_view(season=played.season)
    for line in view.evenings:
        rows = [r for r in ranking_current(tournament=line.tournament).rows if r.games]
        assert line.winner_id == rows[0].player_id and line.players == len(rows)


def test_the_clubs_seasons_current_first_finished_with_champion(
    django_assert_num_queries,
) -> None:
    played = season_played()
    Season.objects.filter(pk=played.season.pk).update(ends=day(-1))
    later = seasons.season_create(
        club=played.club,
        user=played.organiser,
        name="Next",
        starts=day(30),
        ends=day(200),
    )
    lines = seasons_listed(club=played.club)  # the evenings' rankings built
    with django_assert_num_queries(4):
        lines = seasons_listed(club=played.club)
    assert [line.season.pk for line in lines] == [later.pk, played.season.pk]
    assert [line.finished for line in lines] == [False, True]  # Autumn ended yesterday
    assert lines[1].evenings == 4
    champion = season_view(season=played.season).table.ranked[0]
    assert lines[1].champion is not None and lines[1].champion.player_id == champion.player_id
    assert lines[0].champion is None


def test_the_check_in_lists_members_and_entries_with_the_search(
    django_assert_num_queries,
) -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    season = seasons.season_create(club=club, user=user, name="S", starts=day(-30), ends=day(30))
    evening = seasons.evening_create(season=season, user=user)
    members = [PlayerFactory(club=club, name=n) for n in ("Åse Berg", "bo", "Carl")]
    guest = PlayerFactory(name="Guest")
    evening.entries.create(player=guest)
    with django_assert_num_queries(2):
        checkin = checkin_of(tournament=evening, query="aase")
    # By name, case-insensitive ("Å" after "z", as the Nordic alphabets have it).
    assert [line.name for line in checkin.lines] == ["bo", "Carl", "Guest", "Åse Berg"]
    assert [line.shown for line in checkin.lines] == [False, False, False, True]
    assert checkin.hidden == 3 and checkin.here == 1
    assert [line.member for line in checkin.lines] == [True, True, False, True]
    assert members[0].pk == checkin.lines[-1].player_id


def test_only_the_seasons_of_clubs_one_organises_are_usable() -> None:
    mine, other = UserFactory(), UserFactory()
    own = seasons.season_create(
        club=ClubFactory(created_by=mine), user=mine, name="Mine", starts=day(), ends=day()
    )
    theirs = seasons.season_create(
        club=ClubFactory(created_by=other), user=other, name="Theirs", starts=day(), ends=day()
    )
    assert list(seasons_usable(user=mine)) == [own]
    assert set(seasons_usable(user=mine, kept=theirs.pk)) == {own, theirs}
    assert list(seasons_usable(user=None)) == []


def test_the_language_of_a_clubs_evenings_is_its_latest_seasons(
    django_assert_num_queries,
) -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    assert evenings_language_of_club(club=club) is None

    def season(name: str, starts: int, **settings: str) -> Season:
        return seasons.season_create(
            club=club,
            user=user,
            name=name,
            starts=day(starts),
            ends=day(starts + 90),
            evening_settings=settings,
        )

    old = season("Old", -400, language="sv")
    assert evenings_language_of_club(club=club) == "sv"
    latest = season("Latest", -30, language="da")
    season("Unsaid", 0)  # names no language: the latest that does is taken
    with django_assert_num_queries(1):
        assert evenings_language_of_club(club=club) == "da"
    assert evenings_language_of_club(club=club, excluding=latest) == "sv"
    assert evenings_language_of_club(club=club, excluding=old) == "da"
    # Another club's seasons are not its.
    assert evenings_language_of_club(club=ClubFactory()) is None
