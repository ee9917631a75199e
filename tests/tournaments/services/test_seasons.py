"""Seasons: created, changed, deleted by the club's organisers; new evenings."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import translation

from scoring.errors import ConflictError, UserError
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.season_support import day, plain_table, season_played
from tournaments.models import AuditEvent, Entry, Season, Tournament
from tournaments.selectors.seasons import season_view
from tournaments.services import seasons
from tournaments.services.co_organisers import NotAllowedError
from tournaments.services.tournaments import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def _season(**rules: Any) -> Season:
    """A current season: it started 30 days ago and ends in 60."""
    user = UserFactory()
    return seasons.season_create(
        club=ClubFactory(created_by=user),
        user=user,
        name="Autumn",
        starts=day(-30),
        ends=day(60),
        **rules,
    )


def test_a_twelve_member_season_matches_a_plain_computation() -> None:
    played = season_played()
    view = season_view(season=played.season)
    ranked, unranked = plain_table(played)
    got = [
        (r.rank, r.player_id, r.points, r.evenings, r.counted, r.best) for r in view.table.ranked
    ]
    assert got == ranked
    assert [
        (r.rank, r.player_id, r.points, r.evenings, r.counted, r.best) for r in view.table.unranked
    ] == unranked
    # The guest played and is left out; members 0..11 are all there, ranked or not.
    listed = {r.player_id for r in view.table.ranked + view.table.unranked}
    assert played.guest.pk not in listed
    assert listed == {m.pk for m in played.members}
    # Member 0 played all four evenings: only three count.
    zero = next(r for r in view.table.ranked if r.player_id == played.members[0].pk)
    assert zero.evenings == 4 and len(zero.counted) == 3
    start = played.season.starts
    assert [e.day for e in view.evenings] == [start + dt.timedelta(weeks=n) for n in range(4)]
    assert all(e.winner for e in view.evenings)


def test_a_new_evening_checks_in_the_last_evenings_players() -> None:
    played = season_played()
    last = played.evenings[-1]
    here = set(
        Entry.objects.filter(tournament=last, status="active").values_list("player_id", flat=True)
    )
    evening = seasons.evening_create(season=played.season, user=played.organiser)
    assert evening.season == played.season and evening.club == played.club
    assert evening.kind == Tournament.Kind.LEAGUE and evening.public == played.club.public
    assert evening.owner == played.organiser
    assert (evening.rounds, evening.games_per_round) == (1, 2)
    now = set(
        Entry.objects.filter(tournament=evening, status="active").values_list(
            "player_id", flat=True
        )
    )
    assert now == here


def test_a_new_evening_without_settings_is_a_club_night() -> None:
    season = _season()
    evening = seasons.evening_create(season=season, user=season.created_by)
    assert evening.format == "club_night"
    assert (evening.rounds, evening.games_per_round, evening.seating) == (3, 4, "swiss")
    assert not evening.entries.exists()


def test_a_private_club_makes_private_evenings() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user, public=False)
    season = seasons.season_create(club=club, user=user, name="S", starts=day(), ends=day())
    assert not seasons.evening_create(season=season, user=user).public


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "  "}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"ends": day(-31)}, "ends"),
        ({"evening_points": "wins"}, "evening_points"),
        ({"guests": "maybe"}, "guests"),
        ({"best_of": 367}, "best_of"),
        ({"min_evenings": 400}, "min_evenings"),
        ({"evening_settings": {"owner": 1}}, "evening_settings"),
        ({"evening_settings": {"format": "nope"}}, "evening_settings"),
        ({"evening_settings": [1]}, "evening_settings"),
        ({"evening_settings": {"format": ["club_night"]}}, "evening_settings"),
        ({"evening_settings": {"rounds": "many"}}, "evening_settings"),
        ({"evening_settings": {"games_per_round": 0}}, "evening_settings"),
        ({"evening_settings": {"seating": "alphabetical"}}, "evening_settings"),
    ],
)
def test_bad_seasons_are_refused(changes: dict[str, Any], field: str) -> None:
    season = _season()
    with pytest.raises(UserError) as caught:
        seasons.season_update(season=season, user=season.created_by, **changes)
    assert caught.value.field == field
    season.refresh_from_db()
    assert season.name == "Autumn" and season.ends > season.starts


def test_a_season_is_changed_and_deleted_its_evenings_kept() -> None:
    season = _season()
    evening = seasons.evening_create(season=season, user=season.created_by)
    seasons.season_update(season=season, user=season.created_by, name="Winter", best_of=5)
    season.refresh_from_db()
    assert (season.name, season.best_of) == ("Winter", 5)
    seasons.season_delete(season=season, user=season.created_by)
    evening.refresh_from_db()
    assert evening.season is None


def test_only_the_clubs_organisers_run_its_seasons() -> None:
    season = _season()
    stranger = UserFactory()
    with pytest.raises(NotAllowedError):
        seasons.season_create(club=season.club, user=stranger, name="X", starts=day(), ends=day())
    with pytest.raises(NotAllowedError):
        seasons.season_update(season=season, user=stranger, name="Mine")
    with pytest.raises(NotAllowedError):
        seasons.season_delete(season=season, user=stranger)
    with pytest.raises(NotAllowedError):
        seasons.evening_create(season=season, user=stranger)
    co = UserFactory()
    season.club.co_organisers.add(co)
    assert seasons.evening_create(season=season, user=co).owner == co


def test_a_new_evening_is_in_its_own_trail() -> None:
    played = season_played()
    evening = seasons.evening_create(season=played.season, user=played.organiser)
    events = list(AuditEvent.objects.filter(tournament=evening).order_by("id"))
    assert [e.action for e in events] == [
        AuditEvent.Action.TOURNAMENT_CREATED,
        AuditEvent.Action.ENTRY_ADDED,
    ]
    assert all(e.user == played.organiser for e in events)


@pytest.mark.parametrize("how", ["create", "update"])
def test_only_the_seasons_club_organisers_attach_an_evening(how: str) -> None:
    season = _season()
    stranger = UserFactory()
    with pytest.raises(NotAllowedError) as refused:
        if how == "create":
            tournament_create(owner=stranger, user=stranger, name="Mine", season=season)
        else:
            mine = tournament_create(owner=stranger, user=stranger, name="Mine")
            tournament_update(tournament=mine, user=stranger, season=season)
    assert refused.value.field == "season"
    assert not Tournament.objects.filter(season=season, owner=stranger).exists()
    # The club's organiser may; so may the system (a command, a restore).
    assert season.club.created_by is not None
    own = tournament_create(
        owner=season.club.created_by, user=season.club.created_by, name="Ours", season=season
    )
    assert own.season == season
    assert tournament_create(owner=stranger, user=None, name="By the system", season=season)


def test_good_evening_settings_are_kept_and_an_evening_starts_with_them() -> None:
    season = _season()
    given = {"format": "german_city", "rounds": 2, "language": "da"}
    seasons.season_update(season=season, user=season.created_by, evening_settings=given)
    season.refresh_from_db()
    assert season.evening_settings == given
    evening = seasons.evening_create(season=season, user=season.created_by)
    assert (evening.rounds, evening.language, evening.ranking) == (2, "da", "table_points")


def test_a_refused_evening_setting_names_the_setting() -> None:
    season = _season()
    with pytest.raises(UserError) as caught:
        seasons.season_update(
            season=season, user=season.created_by, evening_settings={"rounds": 1000}
        )
    assert "rounds" in caught.value.render()


def test_an_ended_season_starts_no_evening() -> None:
    season = _season()
    Season.objects.filter(pk=season.pk).update(ends=day(-1))
    season.refresh_from_db()
    made = Tournament.objects.count()
    with pytest.raises(ConflictError) as refused:
        seasons.evening_create(season=season, user=season.created_by)
    assert refused.value.status == 409
    assert "start a new season" in refused.value.render()
    assert season.ends.isoformat() in refused.value.render()
    with translation.override("da"):
        assert "start en ny sæson" in refused.value.render(translation.gettext)
    assert Tournament.objects.count() == made
    assert not AuditEvent.objects.filter(action=AuditEvent.Action.TOURNAMENT_CREATED).exists()


def test_a_season_takes_evenings_until_its_last_day() -> None:
    season = _season()
    Season.objects.filter(pk=season.pk).update(ends=day())
    season.refresh_from_db()
    evening = seasons.evening_create(season=season, user=season.created_by)
    assert evening.season == season and evening.date == day()
