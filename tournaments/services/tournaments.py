"""Tournament services: creating a tournament, changing its settings, finishing
and reopening it, deleting it.

Vocabulary: a tournament's *settings* are its model fields other than its id,
its owner and its creation time: its name and address (*slug*), its plan and
its *rule settings* (joker penalty, pool tie, table points, tie-breaks). The
rule settings are judged by the rules engine and the standings, so a refusal
carries their message. ``table_points`` is ``{"2": [4, 0], "3": [...], "4":
[...]}``; sizes left out keep their current points. A setting that is not a
model field is a programming error (``TypeError``), not a user's.
``co_organisers`` (usernames, never the owner's) may be given with the settings:
they are the organisers wanted, invited or removed by ``co_organisers_set`` in
the same transaction. Who organises the tournament and its visibility
(``public``) are the owner's to change (``access.tournament_owner``), as is
deleting it; a co-organiser changing them is refused (403).

Once a game of the tournament is recorded, it has *results*: the *scoring
settings* (joker penalty, pool tie, table points) then stay as they are, since
a new value would change what is already recorded; the plan (rounds, stages,
seating, ...) and the ranking stay editable. The *plan* must make an event
that can be played: semi-finals fill two or more whole tables (so that a final
follows), and the rounds planned are never fewer than the qualifying rounds
seated.

A tournament is *finished* when its organisers say so, which needs a round
and every match of every round complete; a finished tournament is frozen
(``tournament_open.tournament_open_check``): only its *description* (name, slug,
date, club, visibility, language, paper) and who organises it change until it is
*reopened*. Its *status* follows finishing and reopening (and seating or
recording, which start it): it is never set as a setting.

An *evening* (a tournament whose ``season`` names a club's season) is its
season's club's: named an evening, a tournament of no club takes that club,
one of another club is refused; its day is never after the season's last day
when it joins the season or its date changes (409).

The audit trail keeps settings as plain values (a club by id, dates as ISO
text); an update records only what changed; invitations record their own events.
A deleted tournament's trail goes with it, but the deletion is recorded
(``TournamentDeletion``: which tournament, who, when), a record that outlives it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction

from scoring import rules
from scoring.errors import ConflictError, UserError, _
from scoring.tie_breaks import tie_breaks_check
from tournaments.access import club_organiser, tournament_owner, user_or_none
from tournaments.actors import ActingUser
from tournaments.formats import format_settings
from tournaments.models import AuditEvent, Game, Round, Tournament, TournamentDeletion
from tournaments.models.rule_fields import table_points_rules
from tournaments.selectors.seasons import evening_day
from tournaments.services.audit import audit_add, audit_changes, audit_values
from tournaments.services.co_organisers import NotAllowedError, co_organisers_set
from tournaments.services.model_checks import model_checked
from tournaments.services.plans import tables_said, unfinished_tables
from tournaments.services.ratings import (
    rating_tournament_changed,
    ratings_replay_after_deletion,
    tournament_key,
    tournament_rating_place,
)
from tournaments.services.setting_bounds import PLAN_BOUNDS
from tournaments.services.tournament_open import tournament_open_check
from tournaments.slugs import name_slug

SETTINGS = frozenset(
    f.name
    for f in Tournament._meta.concrete_fields
    if f.editable and f.name not in ("id", "owner", "created")
)
SLUG_MAX = 80
# Addresses the web pages use themselves (/t/new/).
SLUGS_RESERVED = frozenset({"new"})
# What a finished tournament still lets its organisers change.
_DESCRIPTION = frozenset({"name", "slug", "date", "club", "public", "rated", "language", "paper"})
# What a new value would change in the results already recorded.
_SCORING = {
    "joker_penalty": _("Results exist: a new joker penalty would change scores already recorded."),
    "pool_tie": _(
        "Results exist: a new tie policy for the lowest rack would change scores already recorded."
    ),
    "table_points": _(
        "Results exist: new table points would change the table points of games already played."
    ),
    "loss_cap": _("Results exist: a new loss cap would change scores already recorded."),
    "winner_bonus": _("Results exist: a new winner's bonus would change bonuses already recorded."),
    "runner_up_bonus": _(
        "Results exist: a new runner-up's bonus would change bonuses already recorded."
    ),
}


def slug_free(name: str) -> str:
    """A slug made from the name that no tournament uses yet."""
    base = name_slug(name, "tournament")
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, suffix = base, 1
    while slug in taken or slug in SLUGS_RESERVED:
        suffix += 1
        slug = f"{base}-{suffix}"
    return slug


def _slug_check(tournament: Tournament) -> None:
    slug = tournament.slug
    if len(slug) > SLUG_MAX:
        raise UserError(
            _("The slug can be at most %(max)s characters long."), field="slug", max=SLUG_MAX
        )
    try:
        validate_slug(slug)
    except ValidationError as error:
        raise UserError(
            _("The slug “%(slug)s” is not valid: use letters, numbers, hyphens and underscores."),
            field="slug",
            slug=slug,
        ) from error
    if slug in SLUGS_RESERVED or (
        Tournament.objects.filter(slug=slug).exclude(pk=tournament.pk).exists()
    ):
        # Whether a tournament (perhaps a private one) holds it is not said.
        raise UserError(_("This slug is not available; choose another."), field="slug")


def _table_points_merged(current: Any, given: Any) -> dict[str, list[int]]:
    merged = {**current, **given} if isinstance(given, Mapping) else given
    vectors = table_points_rules(merged)
    return {str(size): list(points) for size, points in sorted(vectors.items())}


def _settings_apply(
    tournament: Tournament, settings: dict[str, Any], *, unchecked: Collection[str] = ()
) -> list[str]:
    """Judge the settings and set them on the (unsaved) tournament; the fields changed.
    The model's checks leave out the fields ``unchecked`` names."""
    unknown = sorted(set(settings) - SETTINGS - {"owner"})
    if unknown:
        raise TypeError(f"Not a tournament setting: {', '.join(unknown)}")
    settings = dict(settings)
    if isinstance(settings.get("name"), str):
        settings["name"] = settings["name"].strip()
        if not settings["name"]:
            raise UserError(_("Give the tournament a name."), field="name")
    # The engine judges the rule settings together, with its own messages.
    rules.Rules(
        joker_penalty=settings.get("joker_penalty", tournament.joker_penalty),
        pool_tie=settings.get("pool_tie", tournament.pool_tie),
    )
    if "table_points" in settings:
        settings["table_points"] = _table_points_merged(
            tournament.table_points, settings["table_points"]
        )
    if "tie_breaks" in settings:
        settings["tie_breaks"] = tie_breaks_check(names=settings["tie_breaks"])
    for name, value in settings.items():
        setattr(tournament, name, value)
    if not tournament.slug:
        tournament.slug = slug_free(tournament.name)
        settings["slug"] = tournament.slug
    _slug_check(tournament)
    for name, (low, high, message) in PLAN_BOUNDS.items():
        value = getattr(tournament, name)
        if isinstance(value, int) and not low <= value <= high:
            raise UserError(message, field=name, value=value, min=low, max=high)
    model_checked(tournament, exclude=unchecked)
    return list(settings)


def _public_check(tournament: Tournament, before: bool, user: ActingUser) -> None:
    """Refuse a new visibility from a user without the owner's rights (403)."""
    if (
        tournament.public != before
        and user is not None
        and not tournament_owner(user=user, tournament=tournament)
    ):
        raise NotAllowedError(
            _("Only the tournament's owner may make it public or private."), field="public"
        )


# A season takes no evening after its last day (New evening, and a tournament
# named an evening of it); shared with the season services.
SEASON_ENDED = _(
    "The season “%(name)s” ended on %(day)s: start a new season for evenings after it."
)


def _season_before(tournament: Tournament) -> dict[str, Any]:
    """What ``_season_check`` compares an update with."""
    return {"season": tournament.season_id, "club": tournament.club_id, "date": tournament.date}


def _season_check(tournament: Tournament, before: Mapping[str, Any], user: ActingUser) -> list[str]:
    """Judge the tournament's season (``before``: ``_season_before`` of it before
    an update, empty for a new tournament); the fields it sets (the club taken
    from the season).

    An evening joins a season only by one of its club's organisers (403 for
    anyone else; ``None``, the system, may); it belongs to the season's club: a
    tournament of no club takes it, one of another club is refused (400, at the
    field that changed), and so is a club named instead of the season's. Its
    day (its date, or its creation day) is not after the season's last day
    (409) when it joins the season or its date changes."""
    season = tournament.season
    if season is None:
        return []
    joins = tournament.season_id != before.get("season")
    if joins and user is not None and not club_organiser(user=user, club=season.club):
        raise NotAllowedError(
            _("Only an organiser of the season's club may add an evening to it."),
            field="season",
        )
    set_here: list[str] = []
    if joins and tournament.club_id is None:
        tournament.club = season.club
        set_here.append("club")
    if tournament.club_id != season.club_id and (joins or tournament.club_id != before.get("club")):
        if joins:
            raise UserError(
                _(
                    "The season “%(season)s” belongs to the club %(club)s: only a tournament of "
                    "that club, or of no club, can be its evening."
                ),
                field="season",
                club=season.club.name,
                season=season.name,
            )
        raise UserError(
            _(
                "This tournament is an evening of the season “%(season)s” of the club %(club)s: "
                "take it out of the season before naming another club."
            ),
            field="club",
            club=season.club.name,
            season=season.name,
        )
    if (joins or tournament.date != before.get("date")) and evening_day(tournament) > season.ends:
        raise ConflictError(
            SEASON_ENDED,
            field="season" if joins else "date",
            name=season.name,
            day=season.ends.isoformat(),
        )
    return set_here


def _status_kept(tournament: Tournament, settings: dict[str, Any]) -> None:
    """Refuse a status given as a setting unless it is the current one."""
    if "status" in settings and settings.pop("status") != tournament.status:
        raise UserError(
            _(
                "The status follows the tournament: seating a round starts it, and its "
                "organisers finish and reopen it."
            ),
            field="status",
        )


def _plan_check(tournament: Tournament, before: dict[str, Any] | None = None) -> None:
    """Refuse a plan that cannot be played; ``before`` (an update) limits the
    checks to the settings that changed, so that an old plan stays editable."""

    def changed(*names: str) -> bool:
        return before is None or any(getattr(tournament, n) != before[n] for n in names)

    size, semis = tournament.max_table_size, tournament.semifinal_players
    if (
        changed("semifinal_players", "max_table_size")
        and semis
        and (semis % size or semis < 2 * size)
    ):
        raise UserError(
            _(
                "The semi-finals fill whole tables of %(size)s players, two tables or more so "
                "that a final follows: give 0 (no semi-finals) or %(least)s, %(next)s, … players."
            ),
            field="semifinal_players",
            size=size,
            least=2 * size,
            next=3 * size,
        )
    if before is not None and changed("rounds"):
        seated = tournament.round_set.filter(stage=Round.Stage.QUALIFYING).count()
        if tournament.rounds < seated:
            raise UserError(
                _(
                    "Qualifying rounds seated already: %(seated)s; the tournament cannot plan "
                    "fewer."
                ),
                field="rounds",
                seated=seated,
            )


def has_results(tournament: Tournament) -> bool:
    """Whether any game of the tournament is recorded."""
    return Game.objects.filter(match__round__tournament=tournament).exists()


def _scoring_kept(tournament: Tournament, before: dict[str, Any]) -> None:
    """Refuse a changed scoring setting once results exist."""
    changed = [n for n, value in before.items() if getattr(tournament, n) != value]
    if changed and has_results(tournament):
        name = changed[0]
        params: dict[str, Any] = {}
        if name == "table_points":
            # The first table size whose points changed, for a form with an input per size.
            old = before[name]
            params["size"] = next(s for s, v in tournament.table_points.items() if old.get(s) != v)
        raise ConflictError(_SCORING[name], field=name, **params)


def _audited(tournament: Tournament) -> dict[str, Any]:
    """The settings as the trail keeps them."""
    values = audit_values(tournament, sorted(SETTINGS))
    values["owner"] = tournament.owner.get_username() if tournament.owner_id else None
    return values


def tournament_settings_check(*, settings: Mapping[str, Any]) -> None:
    """Refuse settings a new tournament would be refused with (a ``format`` and
    the rules and plan judged as ``tournament_create`` judges them), storing
    nothing: a ``UserError`` naming the first. What a tournament takes from
    elsewhere (its owner, its name) is not judged here."""
    tournament = Tournament()
    given = format_settings(settings=settings)
    given.setdefault("name", "-")
    _settings_apply(tournament, given, unchecked=("owner",))
    _plan_check(tournament)


@transaction.atomic
def tournament_create(
    *,
    owner: Any,
    co_organisers: Iterable[str] = (),
    user: ActingUser = None,
    **settings: Any,
) -> Tournament:
    """A new tournament owned by ``owner``; settings left out take their defaults,
    and the slug is made from the name when none is given; a ``format`` fills
    the settings not given (``formats.format_settings``). ``user`` is who
    creates it (None: the system, e.g. a command); ``co_organisers`` are
    usernames invited to co-organise it."""
    tournament = Tournament(owner=owner)
    settings = format_settings(settings=settings)
    _status_kept(tournament, settings)
    _settings_apply(tournament, settings)
    _season_check(tournament, {}, user)
    _plan_check(tournament)
    tournament.save()
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.TOURNAMENT_CREATED,
        user=user,
        object_id=tournament.pk,
        new=_audited(tournament),
    )
    co_organisers_set(tournament=tournament, by=user, usernames=co_organisers)
    return tournament


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    user: ActingUser = None,
    co_organisers: Iterable[str] | None = None,
    **changes: Any,
) -> Tournament:
    """Change some settings of a tournament; the others stay as they are
    (``co_organisers``: ``None`` keeps the organisers, a list of usernames is
    the organisers wanted: ``co_organisers.co_organisers_set``).

    ``user`` is who makes the change (the caller has checked that they organise
    it; the owner's rights are checked here).
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = {name: getattr(tournament, name) for name in SETTINGS}
    before_rated = {name: getattr(tournament, name) for name in ("rated", "public", "date")}
    before_season = _season_before(tournament)
    before_key = tournament_key(tournament)
    audited = _audited(tournament)
    _status_kept(tournament, changes)
    changed = _settings_apply(tournament, changes)
    _public_check(tournament, before["public"], user)
    changed += [n for n in _season_check(tournament, before_season, user) if n not in changed]
    if any(getattr(tournament, n) != before[n] for n in set(changed) - _DESCRIPTION):
        tournament_open_check(tournament)
    _plan_check(tournament, before)
    _scoring_kept(tournament, {name: before[name] for name in _SCORING})
    if changed:
        tournament.save(update_fields=changed)
    if any(getattr(tournament, n) != before_rated[n] for n in before_rated):
        rating_tournament_changed(tournament=tournament, before=before_key)
    old, new = audit_changes(audited, _audited(tournament))
    if new:
        audit_add(
            tournament=tournament,
            action=AuditEvent.Action.SETTINGS_CHANGED,
            user=user,
            object_id=tournament.pk,
            old=old,
            new=new,
        )
    if co_organisers is not None:
        co_organisers_set(tournament=tournament, by=user, usernames=co_organisers)
    return tournament


def _status_audit(*, tournament: Tournament, action: str, old: str, user: ActingUser) -> None:
    audit_add(
        tournament=tournament,
        action=action,
        user=user,
        object_id=tournament.pk,
        old={"status": old},
        new={"status": tournament.status},
    )


def _settled_check(tournament: Tournament) -> None:
    # The final placings must not rest on results nobody has vouched for.
    waiting = (
        Game.objects.filter(match__round__tournament=tournament)
        .exclude(state=Game.State.CONFIRMED)
        .count()
    )
    if waiting:
        raise ConflictError(
            _(
                "Games still wait for confirmation or a decision between two entries "
                "(%(count)s): settle them on the desk's “To confirm” page before finishing."
            ),
            count=waiting,
        )


@transaction.atomic
def tournament_finish(*, tournament: Tournament, user: ActingUser = None) -> Tournament:
    """Declare the tournament finished: its standings are its final placings.

    Refused before a round is seated, while a table of any round has games
    left to play (a game deleted in an early round counts too) and while games
    wait for confirmation.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.is_finished:
        raise ConflictError(_("The tournament is finished already."))
    rounds = list(Round.objects.filter(tournament=tournament))
    if not rounds:
        raise ConflictError(_("Seat and play a round before finishing the tournament."))
    short = unfinished_tables(rounds)
    if short:
        number = min(short)
        template, tables = tables_said(
            short[number],
            one=_(
                "Round %(number)s is not finished: table %(tables)s still has games to play. "
                "Enter their results first."
            ),
            several=_(
                "Round %(number)s is not finished: tables %(tables)s still have games to "
                "play. Enter their results first."
            ),
        )
        raise ConflictError(template, number=number, tables=tables)
    _settled_check(tournament)
    old = tournament.status
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    _status_audit(
        tournament=tournament, action=AuditEvent.Action.TOURNAMENT_FINISHED, old=old, user=user
    )
    return tournament


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, user: ActingUser = None) -> Tournament:
    """Reopen a finished tournament, to play on or to correct a result."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not tournament.is_finished:
        raise ConflictError(_("The tournament is not finished; there is nothing to reopen."))
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    _status_audit(
        tournament=tournament,
        action=AuditEvent.Action.TOURNAMENT_REOPENED,
        old=Tournament.Status.FINISHED,
        user=user,
    )
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament, user: ActingUser = None) -> TournamentDeletion:
    """Delete a tournament with everything in it: entries, rounds, games,
    adjustments, its trail (the owner's right; ``user`` None: the system).

    Its players and its club stay, and the deletion is recorded: which
    tournament, who deleted it and when (``TournamentDeletion``).
    """
    if user is not None and not tournament_owner(user=user, tournament=tournament):
        raise NotAllowedError(_("Only the tournament's owner may delete it."))
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("owner")
        .get(pk=tournament.pk)
    )
    u = user_or_none(user)
    record = TournamentDeletion.objects.create(
        tournament_pk=tournament.pk,
        slug=tournament.slug,
        name=tournament.name,
        owner=tournament.owner.get_username(),
        user=u,
        username=u.get_username() if u is not None else "",
        events=AuditEvent.objects.filter(tournament=tournament).count(),
    )
    place = tournament_rating_place(tournament)
    tournament.delete()
    ratings_replay_after_deletion(place=place)
    return record
