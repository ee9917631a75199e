"""Season services: a club's season created, changed and deleted; a new evening.

Vocabulary (design §5; the counting rules are ``standings.season``'s): a
season has a ``name``, its first and last day (``starts``, ``ends``; the last
never before the first) and its counting rules. Its *evening settings* are the
tournament settings each new evening is created with (the rules and the plan,
by the tournament's field names, a ``format`` among them); empty, the
``club_night`` preset's. Only the club's organisers (``access.club_organiser``)
create, change and delete its seasons and start its evenings (403 otherwise;
``user`` None is the system). Deleting a season keeps its evenings as plain
tournaments.

*New evening* (``evening_create``) makes a tournament for today in the
season: a league night of the season's club, public when the club is, owned
by the user, with the evening settings (its ``language`` among them: the
language its tables open in), and with the players of the season's last
evening (those still checked in and those who played) checked in. Its
creation and its entries are in its own audit trail. A season that has ended
(its last day before today in the site's time zone) starts no evening (409):
its club starts a new season.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.errors import ConflictError, UserError, _
from tournaments.access import club_organiser, user_or_none
from tournaments.actors import ActingUser
from tournaments.formats import FORMATS
from tournaments.models import Club, Entry, Rack, Season, Tournament
from tournaments.selectors.seasons import season_finished
from tournaments.services.co_organisers import NotAllowedError
from tournaments.services.entries import entries_add
from tournaments.services.model_checks import model_checked
from tournaments.services.tournaments import (
    SEASON_ENDED,
    SETTINGS,
    tournament_create,
    tournament_settings_check,
)
from tournaments.standings.season import SeasonRules, season_rules_check

NAME_MAX = 120
FIELDS = ("name", "starts", "ends", "evening_points", "best_of", "min_evenings", "guests")
# What an evening's settings may name: the rules and the plan, not what the
# season decides itself (the club, the day, the visibility, the season).
EVENING_SETTINGS = frozenset(
    SETTINGS - {"name", "slug", "date", "club", "public", "status", "season", "kind", "rated"}
)
DEFAULT_FORMAT = "club_night"


def _organiser_check(*, club: Club, user: ActingUser) -> None:
    if user is not None and not club_organiser(user=user, club=club):
        raise NotAllowedError(_("Only the club's organisers may do this."))


def evening_settings_check(value: Any) -> dict[str, Any]:
    """The settings as stored: an object naming known rule and plan settings."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise UserError(
            _("Give the settings of an evening as an object of tournament settings."),
            field="evening_settings",
        )
    unknown = sorted(str(k) for k in value if k not in EVENING_SETTINGS)
    if unknown:
        raise UserError(
            _("Not a setting an evening takes from its season: %(names)s."),
            field="evening_settings",
            names=", ".join(unknown),
        )
    chosen = value.get("format", DEFAULT_FORMAT)
    if not isinstance(chosen, str) or chosen not in FORMATS:
        raise UserError(
            _("Unknown format %(name)s; choose from %(known)s."),
            field="evening_settings",
            name=str(chosen),
            known=", ".join(FORMATS),
        )
    # An evening is created with them: what a new tournament would refuse is refused now.
    try:
        tournament_settings_check(settings=value)
    except UserError as error:
        raise UserError(
            _("The evening setting %(setting)s is refused: %(problem)s"),
            field="evening_settings",
            setting=error.field or "-",
            problem=error.render(gettext),
        ) from error
    return dict(value)


def _season_checked(season: Season) -> Season:
    season.name = (season.name or "").strip()
    if not season.name:
        raise UserError(_("Give the season a name."), field="name")
    if len(season.name) > NAME_MAX:
        raise UserError(
            _("The name can be at most %(max)s characters long."), field="name", max=NAME_MAX
        )
    for name in ("starts", "ends"):
        if not isinstance(getattr(season, name), dt.date):
            raise UserError(_("Give a date, e.g. 2026-09-01."), field=name)
    if season.ends < season.starts:
        raise UserError(_("The season cannot end before it starts."), field="ends")
    season_rules_check(
        SeasonRules(
            evening_points=season.evening_points,
            best_of=season.best_of,
            min_evenings=season.min_evenings,
            guests=season.guests,
        )
    )
    season.evening_settings = evening_settings_check(season.evening_settings)
    model_checked(season)
    return season


@transaction.atomic
def season_create(
    *,
    club: Club,
    user: ActingUser,
    name: str,
    starts: dt.date,
    ends: dt.date,
    **rules: Any,
) -> Season:
    """A new season of the club; the counting rules left out take their defaults
    (rank points, every evening counts, no minimum, guests left out)."""
    _organiser_check(club=club, user=user)
    unknown = sorted(set(rules) - set(FIELDS) - {"evening_settings"})
    if unknown:
        raise TypeError(f"Not a season setting: {', '.join(unknown)}")
    season = Season(
        club=club, name=name, starts=starts, ends=ends, created_by=user_or_none(user), **rules
    )
    _season_checked(season)
    season.save()
    return season


@transaction.atomic
def season_update(*, season: Season, user: ActingUser, **changes: Any) -> Season:
    """Change some of the season's name, days and rules; the others stay."""
    season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)
    _organiser_check(club=season.club, user=user)
    unknown = sorted(set(changes) - set(FIELDS) - {"evening_settings"})
    if unknown:
        raise TypeError(f"Not a season setting: {', '.join(unknown)}")
    for name, value in changes.items():
        setattr(season, name, value)
    _season_checked(season)
    season.save()
    return season


@transaction.atomic
def season_delete(*, season: Season, user: ActingUser) -> None:
    """Delete the season; its evenings stay, as tournaments of no season."""
    _organiser_check(club=season.club, user=user)
    season.delete()


def _last_players(season: Season) -> list[int]:
    """The players of the season's latest evening: those still checked in and
    those who played there."""
    last = Tournament.objects.filter(season=season).order_by("-date", "-created", "-id").first()
    if last is None:
        return []
    here = set(
        Entry.objects.filter(tournament=last, status=Entry.Status.ACTIVE).values_list(
            "player_id", flat=True
        )
    )
    here |= set(
        Rack.objects.filter(game__match__round__tournament=last)
        .order_by()
        .values_list("player_id", flat=True)
        .distinct()
    )
    return sorted(here)


@transaction.atomic
def evening_create(*, season: Season, user: ActingUser) -> Tournament:
    """A new evening of the season for today (see the module's note); its owner
    is ``user`` (who must be logged in)."""
    club = season.club
    _organiser_check(club=club, user=user)
    owner = user_or_none(user)
    if owner is None:
        raise NotAllowedError(_("Log in to start an evening."))
    if season_finished(season):
        raise ConflictError(SEASON_ENDED, name=season.name, day=season.ends.isoformat())
    day = timezone.localdate()
    settings = dict(season.evening_settings) or {"format": DEFAULT_FORMAT}
    players = _last_players(season)
    evening = tournament_create(
        owner=owner,
        user=user,
        **settings,
        name=f"{season.name} {day.isoformat()}",
        date=day,
        club=club,
        public=club.public,
        season=season,
        kind=Tournament.Kind.LEAGUE,
    )
    if players:
        entries_add(tournament=evening, player_ids=players, user=user)
    return evening
