"""A tournament's season: an evening belongs to its season's club, and joins it
no later than its last day."""

from __future__ import annotations

import pytest

from scoring.errors import ConflictError, UserError
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.season_support import day
from tournaments.models import AuditEvent, Season, Tournament
from tournaments.services import seasons
from tournaments.services.tournaments import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def _season(*, ends_in: int = 60) -> Season:
    user = UserFactory()
    return seasons.season_create(
        club=ClubFactory(created_by=user),
        user=user,
        name="Autumn",
        starts=day(-30),
        ends=day(ends_in),
    )


def test_a_tournament_of_no_club_takes_its_seasons_club() -> None:
    season = _season()
    organiser = season.created_by
    made = tournament_create(owner=organiser, user=organiser, name="Night", season=season)
    assert made.club == season.club
    later = tournament_create(owner=organiser, user=organiser, name="Later")
    later = tournament_update(tournament=later, user=organiser, season=season)
    later.refresh_from_db()
    assert later.club == season.club
    changed = AuditEvent.objects.filter(
        tournament=later, action=AuditEvent.Action.SETTINGS_CHANGED
    ).get()
    assert changed.new == {"season": season.pk, "club": season.club_id}
    # The system too (a command).
    assert tournament_create(owner=organiser, name="By the system", season=season).club == (
        season.club
    )


def test_a_tournament_of_another_club_is_refused_at_the_season() -> None:
    season = _season()
    organiser = season.created_by
    other = ClubFactory(created_by=organiser)
    with pytest.raises(UserError) as refused:
        tournament_create(
            owner=organiser, user=organiser, name="Elsewhere", club=other, season=season
        )
    assert refused.value.status == 400 and refused.value.field == "season"
    assert season.club.name in refused.value.render()
    assert not Tournament.objects.filter(name="Elsewhere").exists()
    theirs = tournament_create(owner=organiser, user=organiser, name="Theirs", club=other)
    with pytest.raises(UserError) as refused:
        tournament_update(tournament=theirs, user=organiser, season=season)
    assert refused.value.field == "season"
    # Both at once: the season's club with the season is taken.
    both = tournament_update(tournament=theirs, user=organiser, season=season, club=season.club)
    assert (both.season, both.club) == (season, season.club)


def test_an_evening_keeps_its_seasons_club() -> None:
    season = _season()
    organiser = season.created_by
    evening = seasons.evening_create(season=season, user=organiser)
    for club in (ClubFactory(created_by=organiser), None):
        with pytest.raises(UserError) as refused:
            tournament_update(tournament=evening, user=organiser, club=club)
        assert refused.value.status == 400 and refused.value.field == "club"
        evening.refresh_from_db()
        assert evening.club == season.club
    # Out of the season, it may name any club.
    other = ClubFactory(created_by=organiser)
    left = tournament_update(tournament=evening, user=organiser, season=None, club=other)
    assert (left.season, left.club) == (None, other)


def test_a_season_takes_no_tournament_after_its_last_day() -> None:
    season = _season(ends_in=-1)
    organiser = season.created_by
    with pytest.raises(ConflictError) as refused:
        tournament_create(owner=organiser, user=organiser, name="Late", season=season)
    assert refused.value.status == 409 and refused.value.field == "season"
    assert not Tournament.objects.filter(name="Late").exists()
    # An evening played within the season may still be added to it afterwards.
    played = tournament_create(
        owner=organiser, user=organiser, name="Played", date=day(-2), season=season
    )
    assert played.season == season
    # Its date then stays within the season.
    with pytest.raises(ConflictError) as refused:
        tournament_update(tournament=played, user=organiser, date=day())
    assert refused.value.field == "date"
    played.refresh_from_db()
    assert played.date == day(-2)
    assert tournament_update(tournament=played, user=organiser, name="Renamed").name == "Renamed"
