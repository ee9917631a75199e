"""Restoring a backup document as a new tournament (``tournament_import``).

Vocabulary: a *restore* writes the rows of a checked document directly, in
bulk, rather than replaying the game services: the scores were recomputed by
the checks and are stored as the file has them. Every row gets a new id in
the target database; the *id maps* translate the file's source ids (players,
entries, rounds, matches, games, adjustments) to them, in the rows' references and in
the audit trail's (an event about something the file does not hold, such as a
deleted game, keeps no object id). A backup is data, never an identity:

* its players are made anew, the restoring owner's, unless the owner *maps*
  them (``player_map``: source id -> one of the owner's own players); no
  player is found by an id or a name of the file;
* a club is one of the owner's own or a public one of that name, else made
  for the owner (``services.players_file.clubs_for_names``);
* the file's users are *authors as text*: who recorded, confirmed or adjusted
  something, who made each audit event and each entry of a game (its entry
  sources' ``original_user``), are kept as written (``original_recorded_by``,
  ``original_author``...), never as an account;
  the file's co-organisers are not added; the restore itself is recorded as
  the restoring user's;
* every match gets a fresh token: the original's printed sheets keep leading
  to the original, and a replaced link's digest is never taken from a file.

The restore is one transaction: refused, nothing is stored.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from scoring.errors import ConflictError, UserError, _
from tournaments.actors import ActingUser
from tournaments.backups.checks import document_checked, path_text, refused
from tournaments.backups.document import RACK_FIELDS, SETTINGS, settings_completed
from tournaments.backups.ids import (
    IdMap,
    audit_value_restored,
    ids_translated,
    object_id_translated,
)
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
from tournaments.names import name_clean
from tournaments.selectors.people import players_owned
from tournaments.services.audit import audit_add
from tournaments.services.players_file import clubs_for_names
from tournaments.services.ratings import rating_tournament_restored
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


def restore_slug_checked(*, slug: str | None, document: Mapping[str, Any] | None) -> None:
    """The slug a restore would take, judged before a large file is handed on
    to the worker (as ``tournament_import`` judges it): the slug given, else
    the document's own when it was read. A file only glanced at names its own
    slug to the worker alone."""
    tournament = document.get("tournament") if document is not None else None
    own = tournament.get("slug") if isinstance(tournament, dict) else None
    if slug or isinstance(own, str):
        _slug_free(slug or str(own))


def _player_map_checked(
    document: dict[str, Any], player_map: Mapping[int, int], *, owner: Any
) -> dict[int, Player]:
    """The owner's own players the map names, by source id; a map naming a
    player the file does not hold, one not the owner's, or one twice is refused."""
    sources = {p["id"] for p in document["players"]}
    unknown = sorted(set(player_map) - sources)
    if unknown:
        raise refused(
            _("The player map names player %(id)s, whom the backup does not hold."), id=unknown[0]
        )
    targets = list(player_map.values())
    if len(set(targets)) != len(targets):
        raise refused(_("The player map names one of your players for two of the backup's."))
    own = players_owned(user=owner).in_bulk([t for t in targets if 0 < t < 2**63])
    missing = sorted(set(targets) - set(own))
    if missing:
        raise refused(
            _("The player map names player %(id)s, who is not one of your players."),
            id=missing[0],
        )
    return {source: own[target] for source, target in player_map.items()}


def player_map_by_name(*, document: dict[str, Any], owner: Any) -> dict[int, int]:
    """The backup's players mapped to the owner's own players of exactly the same
    name, where the owner has one such player only (a choice to offer, never
    taken unasked); one query."""
    rows = document.get("players")
    if not isinstance(rows, list):
        return {}
    named = [p for p in rows if isinstance(p, dict) and isinstance(p.get("name"), str)]
    names = {name_clean(p["name"]) for p in named}
    found: dict[str, list[int]] = {}
    for pk, name in players_owned(user=owner).filter(name__in=names).values_list("pk", "name"):
        found.setdefault(name, []).append(pk)
    return {
        p["id"]: found[name_clean(p["name"])][0]
        for p in named
        if len(found.get(name_clean(p["name"]), [])) == 1 and isinstance(p.get("id"), int)
    }


def _players(
    document: dict[str, Any], clubs: dict[str, Club], mapped: dict[int, Player], *, owner: Any
) -> IdMap:
    ids: IdMap = {source: player.pk for source, player in mapped.items()}
    new = [p for p in document["players"] if p["id"] not in ids]
    created = Player.objects.bulk_create(
        # New players are the restoring owner's, who may then change them.
        [
            Player(
                name=name_clean(p["name"]),
                club=clubs[p["club"]] if p["club"] else None,
                created_by=owner,
            )
            for p in new
        ],
        batch_size=BATCH,
    )
    ids.update((p["id"], c.pk) for p, c in zip(new, created, strict=True))
    return ids


def _clubs(document: dict[str, Any], *, owner: Any) -> dict[str, Club]:
    return clubs_for_names(names={c["name"]: c["city"] for c in document["clubs"]}, user=owner)


def _tournament(
    document: dict[str, Any], *, owner: Any, slug: str, clubs: dict[str, Club]
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
    # The file's co-organisers are names, not a grant: the owner invites whom they choose.
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
    # Fresh links: a file's token is never taken, free or not (it may be one
    # an organiser replaced, or the original's, whose sheets must keep leading there).
    matches = [
        Match(round=rounds[m["round"]], table=m["table"], token=match_token_new()) for m in rows
    ]
    Match.objects.bulk_create(matches, batch_size=BATCH)
    return {m["id"]: match for m, match in zip(rows, matches, strict=True)}


def _entry_sources(game: dict[str, Any]) -> list[dict[str, Any]]:
    """A game's entry sources as stored: the user as text (``original_user``),
    never an account; an older document has none."""
    return [
        {
            "via": s["via"],
            "user": None,
            "original_user": s["user"] or "",
            "session": s["session"],
            "key": s["key"],
            **({"marked": True} if s.get("marked") else {}),
        }
        for s in game.get("entry_sources", [])
    ]


def _games(document: dict[str, Any], matches: dict[int, Match], players: IdMap) -> IdMap:
    rows = document["games"]
    games = [
        Game(
            match=matches[g["match"]],
            number=g["number"],
            ending=g["ending"],
            version=g["version"],
            state=g["state"],
            second_entry=ids_translated(g["second_entry"], players),
            original_recorded_by=g["recorded_by"] or "",
            original_confirmed_by=g["confirmed_by"] or "",
            entry_sources=_entry_sources(g),
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
    document: dict[str, Any], tournament: Tournament, rounds: dict[int, Round], players: IdMap
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
            original_created_by=a["created_by"] or "",
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
    mapped: dict[int, Player],
) -> None:
    players = _players(document, clubs, mapped, owner=tournament.owner)
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
        "games": _games(document, matches, players),
        "adjustments": _adjustments(document, tournament, rounds, players),
    }
    numbers = set(rounds)
    AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                tournament=tournament,
                at=_when(e["at"], ["audit", i, "at"]),
                original_author=e["username"] or e["user"] or "",
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
                old=audit_value_restored(
                    e["old"], action=e["action"], players=players, rounds=numbers
                ),
                new=audit_value_restored(
                    e["new"], action=e["action"], players=players, rounds=numbers
                ),
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
    player_map: Mapping[int, int] | None = None,
) -> Tournament:
    """Restore a backup document as a new tournament owned by ``owner``, at
    ``slug`` or the file's own; ``user`` (None: the system) and the file's
    name (``source``) are recorded in its audit trail as the restore's.
    ``player_map`` (source id -> the owner's own player) reuses players the
    owner chose; every other player of the file is made anew."""
    document_checked(document)
    slug = _slug_free(slug or document["tournament"]["slug"])
    mapped = _player_map_checked(document, player_map or {}, owner=owner)
    try:
        with transaction.atomic():
            clubs = _clubs(document, owner=owner)
            tournament = _tournament(document, owner=owner, slug=slug, clubs=clubs)
            _rows(document, tournament, clubs, mapped)
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
            "players_mapped": len(mapped),
        },
    )
    rating_tournament_restored(tournament=tournament)
    return tournament
