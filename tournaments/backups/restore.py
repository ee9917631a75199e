"""Restoring a backup document as a new tournament (``tournament_import``).

Vocabulary: a *restore* writes the rows of a checked document directly, in
bulk, rather than replaying the game services: the scores were recomputed by
the checks and are stored as the file has them. Every row gets a new id in
the target database; the *id maps* translate the file's source ids (players,
entries, rounds, matches, games, adjustments) to them, in the rows' references and in
the audit trail's (an event about something the file does not hold, such as a
deleted game, keeps no object id). A player is reused when the target already
has one with the same id and name (a restore into the database it came from),
a club when one has its name, a user when one has the username, a match token
when it is free. The restore is one transaction: refused, nothing is stored.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from scoring.errors import ConflictError, UserError, _
from tournaments.actors import ActingUser
from tournaments.backups.checks import document_checked, path_text, refused
from tournaments.backups.document import RACK_FIELDS, SETTINGS, settings_completed
from tournaments.backups.ids import IdMap, ids_translated, object_id_translated
from tournaments.models import (
    Adjustment,
    AuditEvent,
    Club,
    Entry,
    Game,
    Match,
    Player,
    Rack,
    Round,
    Seat,
    Tournament,
    match_token_new,
)
from tournaments.services.audit import audit_add
from tournaments.services.tournaments import SLUG_MAX, SLUGS_RESERVED

M = TypeVar("M", bound=models.Model)
BATCH = 2000


def _when(value: str, path: list[Any]) -> dt.datetime:
    try:
        parsed = parse_datetime(value)
    except ValueError:
        parsed = None
    if parsed is None:
        raise refused(_("%(path)s is not a date and time."), path=path_text(path))
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, dt.UTC)


def _day(value: str | None, path: list[Any]) -> dt.date | None:
    if value is None:
        return None
    try:
        parsed = parse_date(value)
    except ValueError:
        parsed = None
    if parsed is None:
        raise refused(_("%(path)s is not a date."), path=path_text(path))
    return parsed


def _insert_as_given(model: type[M], rows: list[M]) -> None:
    """``bulk_create`` that keeps the times the rows carry: ``auto_now`` and
    ``auto_now_add`` stamp every row with the time of the insert, so the file's
    times are put back with one ``bulk_update`` (which stamps nothing)."""
    stamped = [
        f.name
        for f in model._meta.concrete_fields
        if isinstance(f, models.DateField) and (f.auto_now or f.auto_now_add)
    ]
    given = [[getattr(row, name) for name in stamped] for row in rows]
    model._default_manager.bulk_create(rows, batch_size=BATCH)
    if not stamped or not rows:
        return
    for row, values in zip(rows, given, strict=True):
        for name, value in zip(stamped, values, strict=True):
            setattr(row, name, value)
    model._default_manager.bulk_update(rows, stamped, batch_size=BATCH)


def _slug_free(slug: str) -> str:
    try:
        validate_slug(slug)
    except ValidationError:
        raise UserError(
            _("The slug “%(slug)s” is not valid: use letters, numbers, hyphens and underscores."),
            field="slug",
            slug=slug,
        ) from None
    if len(slug) > SLUG_MAX:
        raise UserError(
            _("The slug can be at most %(max)s characters long."), field="slug", max=SLUG_MAX
        )
    if slug in SLUGS_RESERVED or Tournament.objects.filter(slug=slug).exists():
        raise ConflictError(
            _(
                "A tournament with the slug “%(slug)s” exists already: give the restored "
                "tournament a new slug."
            ),
            field="slug",
            slug=slug,
        )
    return slug


def _players(document: dict[str, Any], clubs: dict[str, Club], *, owner: Any) -> IdMap:
    rows = document["players"]
    existing = dict(Player.objects.filter(pk__in=[p["id"] for p in rows]).values_list("pk", "name"))
    ids: IdMap = {p["id"]: p["id"] for p in rows if existing.get(p["id"]) == p["name"]}
    new = [p for p in rows if p["id"] not in ids]
    created = Player.objects.bulk_create(
        # New players are the importing owner's, who may then change them.
        [
            Player(name=p["name"], club=clubs[p["club"]] if p["club"] else None, created_by=owner)
            for p in new
        ],
        batch_size=BATCH,
    )
    ids.update((p["id"], c.pk) for p, c in zip(new, created, strict=True))
    return ids


def _clubs(document: dict[str, Any], *, owner: Any) -> dict[str, Club]:
    names = [c["name"] for c in document["clubs"]]
    clubs = {c.name: c for c in Club.objects.filter(name__in=names)}
    missing = [
        Club(name=c["name"], city=c["city"], created_by=owner)
        for c in document["clubs"]
        if c["name"] not in clubs
    ]
    clubs.update((c.name, c) for c in Club.objects.bulk_create(missing))
    return clubs


def _tournament(
    document: dict[str, Any],
    *,
    owner: Any,
    slug: str,
    clubs: dict[str, Club],
    users: Callable[[str | None], Any],
) -> Tournament:
    settings = settings_completed(document["tournament"])
    values = {name: settings[name] for name in SETTINGS}
    values["slug"] = slug
    values["date"] = _day(settings["date"], ["tournament", "date"])
    values["bye_score"] = Decimal(settings["bye_score"])
    tournament = Tournament.objects.create(
        owner=owner, club=clubs[settings["club"]] if settings["club"] else None, **values
    )
    tournament.created = _when(settings["created"], ["tournament", "created"])
    tournament.save(update_fields=["created"])
    co = [users(name) for name in settings["co_organisers"]]
    tournament.co_organisers.set([u for u in co if u is not None and u.pk != owner.pk])
    return tournament


def _rounds(document: dict[str, Any], tournament: Tournament) -> dict[int, Round]:
    rounds = [
        Round(
            tournament=tournament,
            number=r["number"],
            stage=r["stage"],
            games_per_match=r["games_per_match"],
            date=_day(r["date"], ["rounds", i, "date"]),
            created=_when(r["created"], ["rounds", i, "created"]),
        )
        for i, r in enumerate(document["rounds"])
    ]
    _insert_as_given(Round, rounds)
    return {r.number: r for r in rounds}


def _matches(document: dict[str, Any], rounds: dict[int, Round]) -> dict[int, Match]:
    rows = document["matches"]
    taken = set(
        Match.objects.filter(token__in=[m["token"] for m in rows]).values_list("token", flat=True)
    )
    matches = [
        Match(
            round=rounds[m["round"]],
            table=m["table"],
            token=m["token"] if m["token"] not in taken else match_token_new(),
        )
        for m in rows
    ]
    Match.objects.bulk_create(matches, batch_size=BATCH)
    return {m["id"]: match for m, match in zip(rows, matches, strict=True)}


def _games(
    document: dict[str, Any],
    matches: dict[int, Match],
    players: IdMap,
    users: Callable[[str | None], Any],
) -> IdMap:
    rows = document["games"]
    games = [
        Game(
            match=matches[g["match"]],
            number=g["number"],
            ending=g["ending"],
            version=g["version"],
            state=g["state"],
            second_entry=ids_translated(g["second_entry"], players),
            recorded_by=users(g["recorded_by"]),
            confirmed_by=users(g["confirmed_by"]),
            created=_when(g["created"], ["games", i, "created"]),
            updated=_when(g["updated"], ["games", i, "updated"]),
        )
        for i, g in enumerate(rows)
    ]
    _insert_as_given(Game, games)
    racks = []
    for g, game in zip(rows, games, strict=True):
        for r in g["racks"]:
            values = {name: r[name] for name in RACK_FIELDS if name not in ("player", "bonus")}
            values["score"] = Decimal(r["score"])
            values["bonus"] = Decimal(r.get("bonus", "0"))
            values["table_points"] = Decimal(r["table_points"])
            racks.append(Rack(game=game, player_id=players[r["player"]], **values))
    Rack.objects.bulk_create(racks, batch_size=BATCH)
    return {g["id"]: game.pk for g, game in zip(rows, games, strict=True)}


def _adjustments(
    document: dict[str, Any],
    tournament: Tournament,
    rounds: dict[int, Round],
    players: IdMap,
    users: Callable[[str | None], Any],
) -> IdMap:
    rows = document["adjustments"]
    made = [
        Adjustment(
            tournament=tournament,
            player_id=players[a["player"]],
            round=rounds[a["round"]] if a["round"] is not None else None,
            kind=a["kind"],
            points=Decimal(a["points"]),
            reason=a["reason"],
            created_by=users(a["created_by"]),
            created=_when(a["created"], ["adjustments", i, "created"]),
        )
        for i, a in enumerate(rows)
    ]
    _insert_as_given(Adjustment, made)
    return {a["id"]: adjustment.pk for a, adjustment in zip(rows, made, strict=True)}


def _rows(
    document: dict[str, Any],
    tournament: Tournament,
    clubs: dict[str, Club],
    users: Callable[[str | None], Any],
) -> None:
    players = _players(document, clubs, owner=tournament.owner)
    entries = [
        Entry(
            tournament=tournament,
            player_id=players[e["player"]],
            status=e["status"],
            category=e.get("category", ""),
            created=_when(e["created"], ["entries", i, "created"]),
        )
        for i, e in enumerate(document["entries"])
    ]
    _insert_as_given(Entry, entries)
    rounds = _rounds(document, tournament)
    matches = _matches(document, rounds)
    Seat.objects.bulk_create(
        [
            Seat(
                match=matches[s["match"]],
                round=matches[s["match"]].round,
                player_id=players[s["player"]],
                position=s["position"],
            )
            for s in document["seats"]
        ],
        batch_size=BATCH,
    )
    maps: dict[str, IdMap] = {
        "players": players,
        "entries": {
            e["id"]: entry.pk for e, entry in zip(document["entries"], entries, strict=True)
        },
        "rounds": {r["id"]: rounds[r["number"]].pk for r in document["rounds"]},
        "matches": {source: m.pk for source, m in matches.items()},
        "games": _games(document, matches, players, users),
        "adjustments": _adjustments(document, tournament, rounds, players, users),
    }
    AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                tournament=tournament,
                at=_when(e["at"], ["audit", i, "at"]),
                user=users(e["user"]),
                username=e["username"],
                by_link=e["by_link"],
                action=e["action"],
                object_id=object_id_translated(
                    action=e["action"],
                    object_id=e["object_id"],
                    maps=maps,
                    tournament=tournament.pk,
                ),
                match=matches[e["match"]] if e["match"] is not None else None,
                round_number=e["round_number"],
                table=e["table"],
                game_number=e["game_number"],
                version=e["version"],
                old=ids_translated(e["old"], players),
                new=ids_translated(e["new"], players),
            )
            for i, e in enumerate(document["audit"])
        ],
        batch_size=BATCH,
    )


@transaction.atomic
def tournament_import(
    *,
    document: dict[str, Any],
    owner: Any,
    slug: str | None = None,
    user: ActingUser = None,
    source: str = "",
) -> Tournament:
    """Restore a backup document as a new tournament owned by ``owner``, at
    ``slug`` or the file's own; ``user`` (None: the system) and the file's
    name (``source``) are recorded in its audit trail."""
    document_checked(document)
    slug = _slug_free(slug or document["tournament"]["slug"])
    names = (
        {e["user"] for e in document["audit"]}
        | {g[k] for g in document["games"] for k in ("recorded_by", "confirmed_by")}
        | {a["created_by"] for a in document["adjustments"]}
        | set(document["tournament"]["co_organisers"])
    )
    known = {
        u.get_username(): u for u in get_user_model().objects.filter(username__in=names - {None})
    }

    def users(name: str | None) -> Any:
        return known.get(name) if name is not None else None

    try:
        with transaction.atomic():
            clubs = _clubs(document, owner=owner)
            tournament = _tournament(document, owner=owner, slug=slug, clubs=clubs, users=users)
            _rows(document, tournament, clubs, users)
    except IntegrityError as error:
        # The checks should have caught it; a contradiction they missed is still the file's.
        raise refused(
            _("The backup contradicts itself and cannot be stored (%(reason)s)."),
            reason=str(error)[:200],
        ) from None
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.TOURNAMENT_IMPORTED,
        user=user,
        new={
            "file": source,
            "exported_at": document["exported_at"],
            "slug": document["tournament"]["slug"],
            "owner": owner.get_username(),
        },
    )
    return tournament
