"""Whether a backup document can be restored, before anything is written.

Vocabulary: a document is *read* from the file's bytes (JSON), *recognised*
(its ``format`` and ``version``, then its ``checksum``, which version 1
requires: the export always writes it, so a file without one was changed),
*validated* against the JSON Schema (the shape: names, types, ranges) and
then *judged*: references resolve (seats, racks, entries and adjustments name
players of the file; racks name players seated at their match), what must be
unique is, and every game is scored again with the tournament's rules from its
racks: a stored score, rack value, winner or table points that differs means
the file was changed after it was written. Each refusal is a ``UserError``
naming the place in the file, e.g. ``games[3].racks[1].score``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings as django_settings
from jsonschema import Draft202012Validator

from scoring import rules
from scoring.errors import UserError, _
from scoring.tie_breaks import tie_breaks_check
from tournaments.backups.document import FORMAT, VERSION, checksum_of, settings_completed
from tournaments.models import Rack, Tournament
from tournaments.models.rule_fields import table_points_rules
from tournaments.racks_entered import game_racks_entered

SCHEMA_PATH = Path(__file__).parent / "schema" / "rackscore-tournament-v1.schema.json"
FIELD = "document"
_BOM = "\ufeff"
# How deep a document may nest: the export writes at most 8 levels (an audit
# event's game snapshot with its second entry's racks).
DEPTH_MAX = 12
# How deep an audit value or a second entry may nest below itself (the export: 4).
VALUE_DEPTH_MAX = 6
# The longest number literal read: ids and scores are far shorter.
NUMBER_TEXT_MAX = 24
# What an audit value may hold: the longest text, list and object.
VALUE_TEXT_MAX = 2000
VALUE_ITEMS_MAX = 10_000
VALUE_KEYS_MAX = 200
# Integers in audit values: what JSON keeps exactly everywhere.
VALUE_INT_MAX = 2**53
# Audit events a document may hold per game it may hold (a game's own events
# are a few: recorded, confirmed, corrected...).
EVENTS_PER_GAME = 2


def file_max_mb() -> int:
    """The largest backup file taken, in MB (``RACKSCORE_BACKUP_MAX_MB``): by
    the desk's upload, the API's body and the command alike."""
    return int(django_settings.RACKSCORE_BACKUP_MAX_MB)


def file_max() -> int:
    return file_max_mb() * 1024 * 1024


def games_max() -> int:
    """The most games one restore takes (``RACKSCORE_BACKUP_GAMES_MAX``), in the
    background when over ``request_restorable``'s limits."""
    return int(django_settings.RACKSCORE_BACKUP_GAMES_MAX)


class TooLargeError(UserError):
    """A file over ``file_max()``, or with more games than ``games_max()``:
    refused before it is restored (HTTP 413)."""

    status = 413


class _Unreadable(ValueError):
    """A number the reader refuses: too long a literal, or not finite."""


@cache
def _validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    """The document's validator with racks left to the second one, the racks'.

    Racks are most of a large file; their schema judges each property on its
    own, so ``document_validated`` judges each distinct value once."""
    schema = json.loads(SCHEMA_PATH.read_text())
    games = schema["properties"]["games"]["items"]["properties"]
    racks = games["racks"]["items"]
    games["racks"] = {**games["racks"], "items": {"type": "object"}}
    return Draft202012Validator(schema), Draft202012Validator(racks)


def path_text(parts: Iterable[Any]) -> str:
    """``["games", 3, "racks", 1, "points"]`` as ``games[3].racks[1].points``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(the document)"


def refused(template: str, /, **params: Any) -> UserError:
    return UserError(template, field=FIELD, code="backup_refused", **params)


def too_large() -> TooLargeError:
    return TooLargeError(
        _("The file is too large: a backup can be at most %(limit)s MB."),
        field=FIELD,
        code="backup_too_large",
        limit=file_max_mb(),
    )


def _int_read(text: str) -> int:
    if len(text) > NUMBER_TEXT_MAX:
        raise _Unreadable(text)
    return int(text)


def _float_read(text: str) -> float:
    value = float(text) if len(text) <= NUMBER_TEXT_MAX else math.inf
    if not math.isfinite(value):
        raise _Unreadable(text)
    return value


def _constant_refused(text: str) -> Any:
    raise _Unreadable(text)


def _counts_checked(document: dict[str, Any]) -> None:
    """More games (or audit events) than one restore takes: refused before anything else."""
    games, events, most = document.get("games"), document.get("audit"), games_max()
    too_many = (isinstance(games, list) and len(games) > most) or (
        isinstance(events, list) and len(events) > most * EVENTS_PER_GAME
    )
    if too_many:
        raise TooLargeError(
            _(
                "The backup is too large to restore at once: it holds %(games)s games and "
                "%(events)s audit events; at most %(max)s games (and %(events_max)s events) "
                "are restored in one go."
            ),
            field=FIELD,
            code="backup_too_large",
            games=len(games) if isinstance(games, list) else 0,
            events=len(events) if isinstance(events, list) else 0,
            max=most,
            events_max=most * EVENTS_PER_GAME,
        )


def _depth_checked(document: dict[str, Any]) -> None:
    """No deeper than ``DEPTH_MAX``: looked at without recursion."""
    level: list[Any] = [document]
    depth = 1
    while level:
        if depth > DEPTH_MAX:
            raise refused(
                _("The file nests deeper than a backup does (more than %(max)s levels)."),
                max=DEPTH_MAX,
            )
        below: list[Any] = []
        for value in level:
            items = value.values() if isinstance(value, dict) else value
            below.extend(v for v in items if isinstance(v, dict | list))
        level, depth = below, depth + 1


def document_read(data: bytes | str) -> dict[str, Any]:
    """The document in a file's bytes (UTF-8, with or without the byte order
    mark some editors write), or a refusal saying why it is none: unreadable,
    too large, too deep, or with a number no backup writes."""
    if len(data) > file_max():
        raise too_large()
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise refused(_("The file is not a backup: it is not UTF-8 text.")) from None
    text = text.removeprefix(_BOM)
    if not text.strip():
        raise refused(_("The file is empty."))
    try:
        document = json.loads(
            text,
            parse_int=_int_read,
            parse_float=_float_read,
            parse_constant=_constant_refused,
        )
    except json.JSONDecodeError as error:
        raise refused(
            _("The file is not valid JSON (line %(line)s, column %(column)s: %(reason)s)."),
            line=error.lineno,
            column=error.colno,
            reason=error.msg,
        ) from None
    except _Unreadable as error:
        raise refused(
            _("The file holds a number no backup writes: %(number)s."),
            number=str(error)[:40] + ("…" if len(str(error)) > 40 else ""),
        ) from None
    except RecursionError:
        raise refused(
            _("The file nests deeper than a backup does (more than %(max)s levels)."),
            max=DEPTH_MAX,
        ) from None
    if not isinstance(document, dict):
        raise refused(_("The file is not a backup: it holds no JSON object."))
    _counts_checked(document)
    return document


def request_restorable(*, size: int, document: dict[str, Any]) -> bool:
    """Whether a read document is small enough to restore within a request (at
    most ``RACKSCORE_BACKUP_REQUEST_MB`` and ``RACKSCORE_BACKUP_REQUEST_GAMES``
    games): a larger one is restored by the task worker."""
    games = document.get("games")
    count = len(games) if isinstance(games, list) else 0
    most_bytes = int(django_settings.RACKSCORE_BACKUP_REQUEST_MB) * 1024 * 1024
    most_games = int(django_settings.RACKSCORE_BACKUP_REQUEST_GAMES)
    return size <= most_bytes and count <= most_games


def read_max() -> int:
    """The largest file a request reads whole (``RACKSCORE_BACKUP_READ_MB``): a
    larger one is only glanced at there (``document_glanced``), and read by the
    task worker that restores it."""
    return int(django_settings.RACKSCORE_BACKUP_READ_MB) * 1024 * 1024


# A document as the export writes it opens with its format and version.
_HEAD = re.compile(
    rb'\s*\{\s*"format"\s*:\s*"([^"\\]{0,80})"\s*,\s*"version"\s*:\s*(-?\d{1,9})\s*[,}]'
)

# A backup's format, wherever its keys stand; and any "format" a file names.
_FORMAT_OURS = re.compile(rb'"format"\s*:\s*"' + re.escape(FORMAT.encode()) + rb'"')
_FORMAT_ANY = re.compile(rb'"format"\s*:\s*"([^"\\]{0,80})"')


def document_glanced(data: bytes) -> None:
    """What a request judges of a file too large to read whole within it: its
    size, UTF-8 text holding one JSON object, and the format and version its
    head names (when it opens with them, as an export does; else a file that
    names the backup's format nowhere is refused as not one). The rest is
    judged by ``document_read`` and the checks, in the task worker."""
    if len(data) > file_max():
        raise too_large()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise refused(_("The file is not a backup: it is not UTF-8 text.")) from None
    body = text.removeprefix(_BOM).strip()
    if not body:
        raise refused(_("The file is empty."))
    if not (body.startswith("{") and body.endswith("}")):
        raise refused(_("The file is not a backup: it holds no JSON object."))
    head = _HEAD.match(data.removeprefix(_BOM.encode()))
    if head is not None:
        document_kind_recognised({"format": head.group(1).decode(), "version": int(head.group(2))})
    elif _FORMAT_OURS.search(data) is None:
        # Its keys in another order: a backup names its format somewhere, else it is none.
        named = _FORMAT_ANY.search(data)
        document_kind_recognised({"format": named.group(1).decode()} if named else {})


def document_taken(data: bytes) -> dict[str, Any] | None:
    """A file as a request takes it: read whole when it is small enough
    (``read_max``), else only glanced at (``document_glanced``): None."""
    if len(data) <= read_max():
        return document_read(data)
    document_glanced(data)
    return None


def document_kind_recognised(document: dict[str, Any]) -> None:
    """A Rackscore backup of a version this one reads: the quick part of
    ``document_recognised``, judged before a large file is handed on."""
    if document.get("format") != FORMAT:
        raise refused(
            _("The file is not a Rackscore tournament backup (its format is “%(format)s”)."),
            format=str(document.get("format", ""))[:80],
        )
    if document.get("version") != VERSION:
        raise refused(
            _(
                "The backup is of version %(version)s, which this Rackscore does not know "
                "(it reads version %(known)s)."
            ),
            version=str(document.get("version", ""))[:20],
            known=VERSION,
        )


def document_recognised(document: dict[str, Any]) -> None:
    document_kind_recognised(document)
    if "checksum" not in document:
        raise refused(
            _("The file has no checksum: it was not written by Rackscore's export or was changed.")
        )
    if document["checksum"] != checksum_of(document):
        raise refused(
            _("The backup's checksum does not match its contents: the file was changed or damaged.")
        )


def _schema_refused(error: Any, prefix: Sequence[Any] = ()) -> UserError:
    # Of "not valid under any of the given schemas", the alternative that came
    # closest says what is wrong: the deepest, and not a mere "not of type".
    if error.context:
        error = max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
    return refused(
        _("The backup does not match its format at %(path)s: %(reason)s."),
        path=path_text([*prefix, *error.absolute_path]),
        reason=error.message[:300],
    )


def _racks_validated(document: dict[str, Any], racks: Draft202012Validator) -> None:
    properties = racks.schema["properties"]
    names, required = set(properties), set(racks.schema["required"])
    values = {name: racks.evolve(schema=sub) for name, sub in properties.items()}
    judged: dict[tuple[str, type, Any], bool] = {}
    for g, game in enumerate(document["games"]):
        for r, rack in enumerate(game["racks"]):
            ok = required <= set(rack) <= names
            for name, value in rack.items() if ok else ():
                if isinstance(value, dict | list):
                    ok = False
                    break
                key = (name, type(value), value)
                if key not in judged:
                    judged[key] = values[name].is_valid(value)
                if not judged[key]:
                    ok = False
                    break
            if not ok:
                error = next(iter(racks.iter_errors(rack)), None)
                if error is not None:
                    raise _schema_refused(error, ["games", g, "racks", r])


def document_validated(document: dict[str, Any]) -> None:
    """The shape, against the JSON Schema; the first error found is named."""
    whole, racks = _validators()
    error = next(iter(whole.iter_errors(document)), None)
    if error is not None:
        raise _schema_refused(error)
    _racks_validated(document, racks)


@dataclass
class Judged:
    """What the judging learnt that the writing needs: the seats by match."""

    seats: dict[int, dict[int, int]] = field(default_factory=dict)  # match -> player -> position


def _unique(rows: Sequence[dict[str, Any]], name: str, key: Any, what: str) -> None:
    seen: set[Any] = set()
    for i, row in enumerate(rows):
        value = key(row)
        if value in seen:
            raise refused(_("%(path)s repeats %(what)s."), path=path_text([name, i]), what=what)
        seen.add(value)


def _resolves(value: Any, known: Iterable[Any], path: list[Any], what: str) -> None:
    if value is not None and value not in known:
        raise refused(
            _("%(path)s names %(what)s %(value)s, which the backup does not hold."),
            path=path_text(path),
            what=what,
            value=value,
        )


def _rules(settings: dict[str, Any]) -> rules.Rules:
    settings = settings_completed(settings)
    try:
        table_points_rules(settings["table_points"])
        tie_breaks_check(names=settings["tie_breaks"])
        # The tournament's own rule set, as recording scores its games.
        return Tournament(
            **{name: settings[name] for name in ("joker_penalty", "pool_tie", "table_points")},
            **{name: settings[name] for name in ("loss_cap", "winner_bonus", "runner_up_bonus")},
        ).rules()
    except UserError as error:
        raise refused(
            _("tournament.%(setting)s: %(reason)s"), setting=error.field, reason=error.render()
        ) from None


def _game_scored_again(game: dict[str, Any], index: int, rule_set: rules.Rules) -> None:
    racks = game["racks"]
    # Scored in seat order, as recording scored it; the file's own order names a rack.
    seat_order = sorted(range(len(racks)), key=lambda r: racks[r]["position"])
    racks = [racks[r] for r in seat_order]
    entered = game_racks_entered(
        racks=[
            Rack(
                player_id=r["player"],
                position=r["position"],
                tiles=r["tiles"],
                entered_as_tiles=r["entered_as_tiles"],
                points=r["points"],
                jokers=r["jokers"],
            )
            for r in racks
        ]
    )
    try:
        result = rules.game_score(ending=game["ending"], racks=entered, rules=rule_set)
    except UserError as error:
        raise refused(
            _("%(path)s cannot be scored: %(reason)s"),
            path=path_text(["games", index]),
            reason=error.render(),
        ) from None
    vector = rule_set.table_points[len(result.racks)]
    points = rules.table_points_for(scores=[r.score for r in result.racks], vector=vector)
    computed = [
        {
            "tiles": rules.tiles_format(out.tiles) if out.tiles is not None else "",
            "points": out.points,
            "jokers": out.jokers,
            "rack_value": out.rack_value,
            "score": out.score,
            "bonus": out.bonus,
            "winner": out.winner,
            "table_points": tp,
        }
        for out, tp in zip(result.racks, points, strict=True)
    ]
    # What each rack holds first, then what the game gave: a changed rack is
    # named as itself rather than as the winner's score that it changes too.
    for names in (
        ("tiles", "points", "jokers", "rack_value"),
        ("score", "bonus", "winner", "table_points"),
    ):
        for r, stored, values in zip(seat_order, racks, computed, strict=True):
            for name in names:
                # A document written before bonuses existed holds none.
                given, value = stored.get(name, "0.00"), values[name]
                same = Decimal(given) == value if isinstance(value, Decimal) else given == value
                if not same:
                    raise refused(
                        _(
                            "%(path)s is %(given)s but the racks give %(computed)s: the backup "
                            "was changed after it was written."
                        ),
                        path=path_text(["games", index, "racks", r, name]),
                        given=given,
                        computed=value,
                    )


def _value_checked(value: Any, path: list[Any]) -> None:
    """An audit value as the pages can show it: shallow, of bounded size, with
    whole numbers JSON keeps exactly, and a ``player`` always an id (or none)."""
    level: list[tuple[Any, list[Any]]] = [(value, path)]
    for _depth in range(VALUE_DEPTH_MAX + 1):
        below: list[tuple[Any, list[Any]]] = []
        for item, where in level:
            problem = ""
            if isinstance(item, str) and len(item) > VALUE_TEXT_MAX:
                problem = _("%(path)s is longer than a backup writes.")
            elif isinstance(item, int) and not isinstance(item, bool):
                if abs(item) > VALUE_INT_MAX:
                    problem = _("%(path)s is a larger number than a backup writes.")
            elif isinstance(item, list):
                if len(item) > VALUE_ITEMS_MAX:
                    problem = _("%(path)s holds more items than a backup writes.")
                below.extend((v, [*where, n]) for n, v in enumerate(item))
            elif isinstance(item, dict):
                if len(item) > VALUE_KEYS_MAX or any(len(k) > 100 for k in item):
                    problem = _("%(path)s holds more keys than a backup writes.")
                player = item.get("player")
                if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
                    problem = _("%(path)s names a player by something other than an id.")
                players = item.get("players")
                if players is not None and not isinstance(players, list):
                    problem = _("%(path)s names a player by something other than an id.")
                below.extend((v, [*where, k]) for k, v in item.items())
            if problem:
                raise refused(problem, path=path_text(where))
        level = below
        if not level:
            return
    raise refused(
        _("%(path)s nests deeper than a backup writes (more than %(max)s levels)."),
        path=path_text(path),
        max=VALUE_DEPTH_MAX,
    )


def _second_entry_checked(
    game: dict[str, Any], index: int, seated: dict[int, int], rule_set: rules.Rules
) -> None:
    """A disputed game's other version names the seated players, once each, and scores."""
    second = game["second_entry"]
    path = ["games", index, "second_entry"]
    _value_checked(second, path)
    players = [r["player"] for r in second["racks"]]
    if sorted(players) != sorted(seated):
        raise refused(
            _("%(path)s: the racks are not one for each player seated at the match."),
            path=path_text([*path, "racks"]),
        )
    try:
        rules.game_score(
            ending=second["ending"],
            racks=[rules.rack_from_json(r) for r in second["racks"]],
            rules=rule_set,
        )
    except UserError as error:
        raise refused(
            _("%(path)s cannot be scored: %(reason)s"), path=path_text(path), reason=error.render()
        ) from None


def document_judged(document: dict[str, Any]) -> Judged:
    """References, uniqueness and the scores, after the schema."""
    settings = document["tournament"]
    rule_set = _rules(settings)
    clubs = {c["name"] for c in document["clubs"]}
    _unique(document["clubs"], "clubs", lambda c: c["name"], "a club")
    _resolves(settings["club"], clubs, ["tournament", "club"], "the club")
    _unique(document["players"], "players", lambda p: p["id"], "a player id")
    for i, p in enumerate(document["players"]):
        _resolves(p["club"], clubs, ["players", i, "club"], "the club")
    players = {p["id"] for p in document["players"]}
    _unique(document["entries"], "entries", lambda e: e["player"], "an entered player")
    _unique(document["entries"], "entries", lambda e: e["id"], "an entry id")
    for i, e in enumerate(document["entries"]):
        _resolves(e["player"], players, ["entries", i, "player"], "player")
    _unique(document["rounds"], "rounds", lambda r: r["number"], "a round number")
    _unique(document["rounds"], "rounds", lambda r: r["id"], "a round id")
    numbers = {r["number"] for r in document["rounds"]}
    matches = document["matches"]
    _unique(matches, "matches", lambda m: m["id"], "a match id")
    _unique(matches, "matches", lambda m: (m["round"], m["table"]), "a table of its round")
    _unique(matches, "matches", lambda m: m["token"], "a match token")
    round_of = {}
    for i, m in enumerate(matches):
        _resolves(m["round"], numbers, ["matches", i, "round"], "round")
        round_of[m["id"]] = m["round"]
    judged = Judged(seats={m["id"]: {} for m in matches})
    seats = document["seats"]
    _unique(seats, "seats", lambda s: (s["match"], s["position"]), "a seat of its table")
    _unique(seats, "seats", lambda s: (round_of.get(s["match"]), s["player"]), "a player's round")
    for i, s in enumerate(seats):
        _resolves(s["match"], round_of, ["seats", i, "match"], "match")
        _resolves(s["player"], players, ["seats", i, "player"], "player")
        judged.seats[s["match"]][s["player"]] = s["position"]
    games = document["games"]
    _unique(games, "games", lambda g: g["id"], "a game id")
    _unique(games, "games", lambda g: (g["match"], g["number"]), "a game number of its table")
    for i, g in enumerate(games):
        _resolves(g["match"], round_of, ["games", i, "match"], "match")
        if (g["state"] == "disputed") != (g["second_entry"] is not None):
            raise refused(
                _("%(path)s: only a disputed game has a second entry, and it always has one."),
                path=path_text(["games", i, "second_entry"]),
            )
        seated = judged.seats[g["match"]]
        if {r["player"] for r in g["racks"]} != set(seated) or len(g["racks"]) != len(seated):
            raise refused(
                _("%(path)s: the racks are not one for each player seated at the match."),
                path=path_text(["games", i, "racks"]),
            )
        for r, rack in enumerate(g["racks"]):
            if seated[rack["player"]] != rack["position"]:
                raise refused(
                    _("%(path)s is not the seat of the rack's player."),
                    path=path_text(["games", i, "racks", r, "position"]),
                )
        _game_scored_again(g, i, rule_set)
        if g["second_entry"] is not None:
            _second_entry_checked(g, i, seated, rule_set)
    _unique(document["adjustments"], "adjustments", lambda a: a["id"], "an adjustment id")
    for i, a in enumerate(document["adjustments"]):
        _resolves(a["player"], players, ["adjustments", i, "player"], "player")
        _resolves(a["round"], numbers, ["adjustments", i, "round"], "round")
    for i, e in enumerate(document["audit"]):
        _resolves(e["match"], round_of, ["audit", i, "match"], "match")
        for name in ("old", "new"):
            _value_checked(e[name], ["audit", i, name])
    return judged


def document_checked(document: dict[str, Any]) -> Judged:
    """Every check, in order; a refusal names the first problem found."""
    _counts_checked(document)
    _depth_checked(document)
    document_recognised(document)
    document_validated(document)
    return document_judged(document)
