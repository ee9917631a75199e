"""A tournament's backup *document*: everything about it as one JSON object.

Vocabulary: a **backup document** (``{"format": "rackscore-tournament",
"version": 1, "exported_at": ..., ...}``) holds a tournament's settings, the
clubs and players it involves, its entries, rounds, matches, seats, games with
their racks, adjustments and its audit trail. Rows refer to each other by the
*source ids* they had in the exporting database (players, entries, matches,
games, rounds, adjustments) or, for rounds, by number; users are named by username,
clubs by name. A restored tournament's authors (kept as text) are written as
the usernames they were. A game's *entry sources* say where each entry of it
came from under double entry (``services.results.EntrySource``: how it came,
``via``; the user by username; digests of the phone's session and of the
entry's key), at most ``ENTRY_SOURCES_MAX``: the first entry's and the
latest. Settings and fields added to version 1 after its first documents
(event variants, stages, the hall, a rack's ``bonus``, an entry's
``category``, a game's ``entry_sources``) are always written and may be
missing from older files, which restore with their defaults. Decimals are
strings (``"12.50"``), times ISO 8601. The ``checksum`` is the SHA-256 of the
*canonical* text of the document without it (keys sorted, no spaces, UTF-8),
so a file edited by hand is recognised.
The JSON Schema of version 1 is ``schema/rackscore-tournament-v1.schema.json``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from tournaments.models import (
    Adjustment,
    AuditEvent,
    Club,
    Entry,
    Game,
    Match,
    Player,
    Round,
    Seat,
    Tournament,
)

FORMAT = "rackscore-tournament"
VERSION = 1

# Settings added to version 1 since its first documents, with the value a
# document without them means (the model's defaults). Older documents hold
# ``final_carry_over`` (a boolean) instead of ``carry_over``.
VARIANT_DEFAULTS: dict[str, Any] = {
    "loss_cap": None, "winner_bonus": 0, "runner_up_bonus": 0, "semifinal_games": None,
    "final_games": None, "final_first_to": 0, "carry_over": "0",
    "final_from": "semifinal_winners", "turn_seconds": 60, "round_minutes": 0, "format": "",
    "rated": True, "seed_by_rating": False,
}  # fmt: skip
# Every setting of a tournament, as stored on the model (club, owner and
# co-organisers are written by name beside them).
SETTINGS = (
    "name", "slug", "date", "public", "status", "kind", "language", "paper",
    "joker_penalty", "pool_tie", "ranking", "table_points", "tie_breaks", "min_games",
    "confirmation", "standings_unconfirmed", "rounds", "games_per_round", "seating",
    "max_table_size", "bye_score", "seed", "semifinal_players", *VARIANT_DEFAULTS,
)  # fmt: skip
RACK_FIELDS = (
    "player", "position", "tiles", "entered_as_tiles", "points", "jokers", "rack_value",
    "score", "bonus", "winner", "table_points",
)  # fmt: skip
# The most entry sources a game's row holds: the first entry's and the latest
# (a second entry, the phones that entered it otherwise).
ENTRY_SOURCES_MAX = 16
AUDIT_FIELDS = (
    "at", "user", "username", "by_link", "action", "object_id", "match", "round_number",
    "table", "game_number", "version", "old", "new",
)  # fmt: skip


def settings_completed(settings: dict[str, Any]) -> dict[str, Any]:
    """A document's tournament settings with what an older document lacks: the
    defaults, and ``carry_over`` from its boolean ``final_carry_over``."""
    completed = {**VARIANT_DEFAULTS, **settings}
    old = completed.pop("final_carry_over", None)
    if "carry_over" not in settings and old is not None:
        completed["carry_over"] = "1" if old else "0"
    return completed


def decimal_text(value: Decimal) -> str:
    """A stored decimal as the document writes it: two places, like the database."""
    return f"{value:.2f}"


def time_text(value: dt.datetime | dt.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def canonical(document: dict[str, Any]) -> bytes:
    """The text the checksum is taken of: the document without its checksum."""
    rest = {k: v for k, v in document.items() if k != "checksum"}
    return json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def checksum_of(document: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(document)).hexdigest()


def _usernames() -> dict[int, str]:
    # Few users against many rows: one query, then lookups.
    return dict(get_user_model().objects.values_list("pk", "username"))


def _author(users: dict[int, str], user_id: int | None, original: str) -> str | None:
    """Who did it, by username: the account, or what a restored file said (text)."""
    if user_id is not None:
        return users.get(user_id)
    return original or None


def _entry_sources(users: dict[int, str], game: Game) -> list[dict[str, Any]]:
    """A game's entry sources as the document writes them: the user by username
    (an account's, or what a restored file said), never an id."""
    stored = [s for s in game.entry_sources or [] if isinstance(s, dict)]
    if len(stored) > ENTRY_SOURCES_MAX:
        stored = [stored[0], *stored[-(ENTRY_SOURCES_MAX - 1) :]]
    written = []
    for source in stored:
        user = source.get("user")
        row: dict[str, Any] = {
            "via": source.get("via"),
            "user": _author(
                users,
                user if isinstance(user, int) and not isinstance(user, bool) else None,
                str(source.get("original_user") or ""),
            ),
            "session": source.get("session") or "",
            "key": source.get("key") or "",
        }
        if source.get("marked"):
            row["marked"] = True
        written.append(row)
    return written


def _settings(tournament: Tournament, users: dict[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in SETTINGS:
        value = getattr(tournament, name)
        if isinstance(value, Decimal):
            value = decimal_text(value)
        elif isinstance(value, dt.date):
            value = value.isoformat()
        out[name] = value
    out["club"] = tournament.club.name if tournament.club else None
    out["owner"] = users.get(tournament.owner_id)
    out["co_organisers"] = sorted(u.username for u in tournament.co_organisers.all())
    out["created"] = time_text(tournament.created)
    return out


def _games(tournament: Tournament, users: dict[int, str]) -> list[dict[str, Any]]:
    games = (
        Game.objects.filter(match__round__tournament=tournament)
        .select_related("match__round")
        .prefetch_related("racks")
        .order_by("match__round__number", "match__table", "number")
    )
    return [
        {
            "id": g.pk,
            "match": g.match_id,
            "number": g.number,
            "ending": g.ending,
            "version": g.version,
            "state": g.state,
            "second_entry": g.second_entry,
            "recorded_by": _author(users, g.recorded_by_id, g.original_recorded_by),
            "confirmed_by": _author(users, g.confirmed_by_id, g.original_confirmed_by),
            "entry_sources": _entry_sources(users, g),
            "created": time_text(g.created),
            "updated": time_text(g.updated),
            "racks": [
                {
                    "player": r.player_id,
                    "position": r.position,
                    "tiles": r.tiles,
                    "entered_as_tiles": r.entered_as_tiles,
                    "points": r.points,
                    "jokers": r.jokers,
                    "rack_value": r.rack_value,
                    "score": decimal_text(r.score),
                    "bonus": decimal_text(r.bonus),
                    "winner": r.winner,
                    "table_points": decimal_text(r.table_points),
                }
                for r in sorted(g.racks.all(), key=lambda r: r.position)
            ],
        }
        for g in games
    ]


def _audit(tournament: Tournament, users: dict[int, str]) -> list[dict[str, Any]]:
    events = AuditEvent.objects.filter(tournament=tournament).order_by("at", "id")
    return [
        {
            "at": time_text(e.at),
            "user": users.get(e.user_id) if e.user_id else None,
            "username": e.username or e.original_author,
            "by_link": e.by_link,
            "action": e.action,
            "object_id": e.object_id,
            "match": e.match_id,
            "round_number": e.round_number,
            "table": e.table,
            "game_number": e.game_number,
            "version": e.version,
            "old": e.old,
            "new": e.new,
        }
        for e in events
    ]


def tournament_document(*, tournament: Tournament, checksum: bool = True) -> dict[str, Any]:
    """The backup document of a tournament, as it stands."""
    # As stored: an instance in memory may hold values not yet read back (a 0 for 0.00).
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    users = _usernames()
    player_rows = list(
        Player.objects.filter(
            Q(pk__in=Entry.objects.filter(tournament=tournament).values("player_id"))
            | Q(pk__in=Seat.objects.filter(round__tournament=tournament).values("player_id"))
            | Q(pk__in=Adjustment.objects.filter(tournament=tournament).values("player_id"))
        ).order_by("pk")
    )
    club_ids = {p.club_id for p in player_rows if p.club_id} | (
        {tournament.club_id} if tournament.club_id else set()
    )
    clubs = {c.pk: c for c in Club.objects.filter(pk__in=club_ids)}
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    round_numbers = {r.pk: r.number for r in rounds}
    matches = list(
        Match.objects.filter(round__tournament=tournament).order_by("round__number", "table")
    )
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": _settings(tournament, users),
        "clubs": [
            {"name": c.name, "city": c.city} for c in sorted(clubs.values(), key=lambda c: c.name)
        ],
        "players": [
            {"id": p.pk, "name": p.name, "club": clubs[p.club_id].name if p.club_id else None}
            for p in player_rows
        ],
        "entries": [
            {
                "id": e.pk,
                "player": e.player_id,
                "status": e.status,
                "category": e.category,
                "created": time_text(e.created),
            }
            for e in Entry.objects.filter(tournament=tournament).order_by("player_id")
        ],
        "rounds": [
            {
                "id": r.pk,
                "number": r.number,
                "stage": r.stage,
                "games_per_match": r.games_per_match,
                "date": time_text(r.date),
                "created": time_text(r.created),
            }
            for r in rounds
        ],
        "matches": [
            {"id": m.pk, "round": round_numbers[m.round_id], "table": m.table, "token": m.token}
            for m in matches
        ],
        "seats": [
            {"match": s.match_id, "player": s.player_id, "position": s.position}
            for s in Seat.objects.filter(round__tournament=tournament).order_by(
                "round__number", "match__table", "position"
            )
        ],
        "games": _games(tournament, users),
        "adjustments": [
            {
                "id": a.pk,
                "player": a.player_id,
                "round": round_numbers[a.round_id] if a.round_id else None,
                "kind": a.kind,
                "points": decimal_text(a.points),
                "reason": a.reason,
                "created": time_text(a.created),
                "created_by": _author(users, a.created_by_id, a.original_created_by),
            }
            for a in Adjustment.objects.filter(tournament=tournament).order_by("created", "id")
        ],
        "audit": _audit(tournament, users),
    }
    if checksum:
        document["checksum"] = checksum_of(document)
    return document


def document_text(document: dict[str, Any]) -> str:
    """The document as a file holds it: readable, keys in the order written."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
