"""Hostile backups, thrown at every door: the command, the API and the web
restore. None answers 500; a refused one stores nothing; one that imports
renders every page of it (tournament, standings, rounds, desk, confirm,
audit, tables, player and match pages, PDFs, the API's reads and confirm).

The documents are forged as an attacker would: the exported backup of a
real tournament, changed, its checksum taken again. Another organiser (the
*victim*) keeps a private tournament with a private player and club and a
match link they replaced.
"""

# ruff: noqa: E501  (the table of hostile documents reads one case a line)
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from scoring.rules import RackIn
from tests.factories import UserFactory, seated_ids
from tests.tournaments.api.conftest import client_as
from tests.tournaments.backups.big import big_document
from tests.tournaments.backups.conftest import rows_count
from tournaments.backups.document import checksum_of, tournament_document
from tournaments.models import Game, Match, Tournament, match_token_digest
from tournaments.services.results import game_enter

pytestmark = pytest.mark.django_db

Forge = Callable[[dict[str, Any], dict[str, Any]], Any]


def _player_renamed(doc: dict[str, Any], old: int, new: int) -> None:
    for p in doc["players"]:
        if p["id"] == old:
            p["id"] = new
    for row in doc["entries"] + doc["seats"] + doc["adjustments"]:
        if row["player"] == old:
            row["player"] = new
    for game in doc["games"]:
        for rack in game["racks"]:
            if rack["player"] == old:
                rack["player"] = new
        for rack in (game["second_entry"] or {}).get("racks", []):
            if rack["player"] == old:
                rack["player"] = new


def _victim_reused(doc: dict[str, Any], v: dict[str, Any]) -> None:
    """Finding 2: a player named by the victim's player's id and exact name."""
    first = doc["players"][0]["id"]
    _player_renamed(doc, first, v["secret"].pk)
    doc["players"][0]["name"] = "Secret Sam"


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _disputed(doc: dict[str, Any]) -> dict[str, Any]:
    return next(g for g in doc["games"] if g["state"] == "disputed")


def _entered(doc: dict[str, Any]) -> dict[str, Any]:
    """A game awaiting its second entry, with the source of its first."""
    return next(g for g in doc["games"] if g["state"] == "entered" and g["entry_sources"])


def _event(doc: dict[str, Any], action: str, **values: Any) -> dict[str, Any]:
    event = {
        "at": "2026-11-21T10:00:00+00:00", "user": None, "username": "", "by_link": False,
        "action": action, "object_id": None, "match": doc["matches"][0]["id"],
        "round_number": 1, "table": 1, "game_number": 1, "version": 1, "old": None, "new": None,
    }  # fmt: skip
    event.update(values)
    doc["audit"].append(event)
    return event


def _snapshot(doc: dict[str, Any], **rack: Any) -> dict[str, Any]:
    game = doc["games"][0]
    return {
        "ending": game["ending"],
        "state": "confirmed",
        "racks": [{"player": r["player"], "points": r["points"], **rack} for r in game["racks"]],
    }


def _rounds_reversed(doc: dict[str, Any]) -> None:
    doc["rounds"].reverse()
    doc["matches"].reverse()


# (name, forge): a forge changes the document (its checksum is taken again
# after) or returns the bytes to send instead.
CASES: list[tuple[str, Forge]] = [
    # sizes, depth, numbers
    ("number-5000-digits", lambda d, v: json.dumps(d).replace('"points": 12', '"points": ' + "9" * 5000, 1).encode()),
    ("player-id-10e30", lambda d, v: _player_renamed(d, d["players"][0]["id"], 10**30)),
    ("player-id-10e20", lambda d, v: _player_renamed(d, d["players"][0]["id"], 10**20)),
    ("nesting-900", lambda d, v: d["audit"][0].update(new=_deep(900))),
    ("nesting-100000", lambda d, v: ("[" * 100_000 + "]" * 100_000).encode()),
    ("nan", lambda d, v: json.dumps(d).replace('"version": 1', '"version": NaN', 1).encode()),
    ("float-1e400", lambda d, v: json.dumps(d).replace('"version": 1', '"version": 1e400', 1).encode()),
    ("games-over-the-cap", lambda d, v: json.dumps(big_document(players=268, rounds=4, games=4)).encode()),
    ("audit-over-the-cap", lambda d, v: d.update(audit=d["audit"] * (1700 // len(d["audit"]) + 1))),
    ("empty", lambda d, v: b""),
    ("not-json", lambda d, v: b"{not json"),
    ("an-array", lambda d, v: b"[1, 2]"),
    ("utf-16", lambda d, v: json.dumps(d).encode("utf-16")),
    # references
    ("seat-unknown-player", lambda d, v: d["seats"][0].update(player=999_999)),
    ("seat-names-unseated-player", lambda d, v: d["seats"][0].update(player=d["seats"][-1]["player"])),
    ("rack-unseated-player", lambda d, v: d["games"][0]["racks"][0].update(player=d["seats"][-1]["player"])),
    ("entry-unknown-player", lambda d, v: d["entries"][0].update(player=999_999)),
    ("game-unknown-match", lambda d, v: d["games"][0].update(match=999_999)),
    ("audit-unknown-match", lambda d, v: d["audit"][0].update(match=999_999)),
    ("audit-object-id-huge", lambda d, v: d["audit"][0].update(object_id=10**20)),
    ("adjustment-unknown-round", lambda d, v: d["adjustments"][0].update(round=77)),
    ("duplicate-player-ids", lambda d, v: d["players"].append(dict(d["players"][0]))),
    ("duplicate-match-ids", lambda d, v: d["matches"].append(dict(d["matches"][0], table=9))),
    ("rounds-out-of-order", lambda d, v: _rounds_reversed(d)),
    # identities
    ("co-organisers", lambda d, v: d["tournament"].update(co_organisers=["dave", "root"])),
    ("audit-as-root", lambda d, v: _event(d, "game.deleted", user="root", username="root")),
    ("recorded-by-dave", lambda d, v: d["games"][0].update(recorded_by="dave", confirmed_by="root")),
    ("entry-source-as-dave", lambda d, v: _entered(d).update(entry_sources=[{"via": "user", "user": "dave", "session": "", "key": ""}])),
    ("entry-source-user-id", lambda d, v: _entered(d).update(entry_sources=[{"via": "user", "user": v["dave"].pk, "session": "", "key": ""}])),
    ("entry-source-via-unknown", lambda d, v: _entered(d).update(entry_sources=[{"via": "root", "user": None, "session": "", "key": ""}])),
    ("entry-source-extra-key", lambda d, v: _entered(d)["entry_sources"][0].update(account=v["dave"].pk)),
    ("entry-source-session-not-a-digest", lambda d, v: _entered(d)["entry_sources"][0].update(session="x" * 5000)),
    ("entry-sources-over-the-cap", lambda d, v: _entered(d).update(entry_sources=_entered(d)["entry_sources"] * 40)),
    ("entry-sources-an-object", lambda d, v: _entered(d).update(entry_sources={"via": "page"})),
    ("entry-source-marked-false", lambda d, v: _entered(d)["entry_sources"][0].update(marked="no")),
    ("owner-root", lambda d, v: d["tournament"].update(owner="root")),
    ("victim-player-reused", _victim_reused),
    ("victim-club-named", lambda d, v: (d["clubs"].append({"name": "dave hidden club", "city": ""}), d["players"][0].update(club="dave hidden club"))),
    ("victim-club-exact", lambda d, v: (d["clubs"].append({"name": "Dave Hidden Club", "city": ""}), d["tournament"].update(club="Dave Hidden Club"))),
    # tokens
    ("token-weak", lambda d, v: d["matches"][0].update(token="a")),
    ("token-victims-old", lambda d, v: d["matches"][0].update(token=v["old_token"])),
    ("token-victims-current", lambda d, v: d["matches"][0].update(token=v["match"].token)),
    ("token-digest-claimed", lambda d, v: _event(d, "match.token_regenerated", at="2099-01-01T00:00:00+00:00", old={"token": "…x", "digest": match_token_digest(v["old_token"])})),
    # poisoned snapshots
    ("second-entry-foo", lambda d, v: _disputed(d).update(second_entry={"foo": 1})),
    ("second-entry-unseated", lambda d, v: _disputed(d)["second_entry"]["racks"][0].update(player=999_999)),
    ("second-entry-two-winners", lambda d, v: [r.update(points=0) for r in _disputed(d)["second_entry"]["racks"]]),
    ("second-entry-player-list", lambda d, v: _disputed(d)["second_entry"]["racks"][0].update(player=[1])),
    ("audit-racks-not-objects", lambda d, v: _event(d, "game.recorded", new={"ending": "rummikub", "racks": [1, 2]})),
    ("audit-score-text", lambda d, v: _event(d, "game.deleted", old=_snapshot(d, score="abc"))),
    ("audit-300-deep", lambda d, v: _event(d, "settings.changed", new={"name": _deep(300)})),
    ("audit-player-list", lambda d, v: _event(d, "entry.added", new={"player": [1, 2]})),
    ("audit-long-text", lambda d, v: _event(d, "settings.changed", new={"name": "x" * 100_000})),
    ("audit-club-id", lambda d, v: _event(d, "settings.changed", old={"club": None}, new={"club": v["club"].pk, "owner": v["dave"].pk})),
    ("audit-victim-player", lambda d, v: _event(d, "entry.added", new={"players": [{"player": v["secret"].pk, "name": "x", "status": "active"}]})),
    ("audit-snapshot-restorable", lambda d, v: _event(d, "game.deleted", game_number=9, old=_snapshot(d))),
    # racks
    ("rack-tiles-r14", lambda d, v: d["games"][0]["racks"][1].update(tiles="R14")),
    ("rack-points-9999", lambda d, v: d["games"][0]["racks"][1].update(points=9999)),
    ("rack-score-tampered", lambda d, v: d["games"][0]["racks"][0].update(score="99.00")),
    # unknown keys, wrong types
    ("unknown-top-level-key", lambda d, v: d.update(surprise=1)),
    ("unknown-game-key", lambda d, v: d["games"][0].update(surprise=1)),
    ("rounds-as-text", lambda d, v: d["tournament"].update(rounds="3")),
    ("games-an-object", lambda d, v: d.update(games={"0": d["games"][0]})),
    ("players-as-text", lambda d, v: d.update(players=["Anna", "Ben"])),
    ("date-impossible", lambda d, v: d["rounds"][0].update(created="2026-02-30T00:00:00")),
]  # fmt: skip


def forged(played: Tournament, victim: dict[str, Any], forge: Forge) -> bytes:
    document = tournament_document(tournament=played, checksum=False)
    out = forge(document, victim)
    if isinstance(out, bytes):
        return out
    document["checksum"] = checksum_of(document)
    return json.dumps(document).encode()


def _no_500(client: Any, url: str, **extra: Any) -> Any:
    response = client.get(url, **extra)
    assert response.status_code < 500, (url, response.status_code)
    return response


def every_page_renders(tournament: Tournament, owner: Any) -> None:
    """Every page of a restored tournament, as its owner and as a visitor."""
    web, visitor, api = Client(), Client(), client_as(owner)
    web.force_login(owner)
    s = tournament.slug
    matches = list(Match.objects.filter(round__tournament=tournament).select_related("round"))
    players = list(tournament.entries.values_list("player_id", flat=True))
    urls = [
        f"/t/{s}/", f"/t/{s}/standings/", f"/t/{s}/standings/?stage=qualifying",
        f"/t/{s}/organise/", f"/t/{s}/organise/confirm/", f"/t/{s}/organise/audit/",
        f"/t/{s}/organise/audit/?kind=game", f"/t/{s}/tables/", f"/t/{s}/screen/",
        f"/t/{s}/standings.pdf",
        *(f"/t/{s}/rounds/{n}/" for n in {m.round.number for m in matches}),
        *(f"/t/{s}/rounds/{n}/scoresheets.pdf" for n in {m.round.number for m in matches}),
        *(f"/t/{s}/organise/tables/{m.pk}/" for m in matches),
        *(f"/t/{s}/organise/audit/?match={m.pk}" for m in matches),
        *(f"/m/{m.token}/" for m in matches),
        *(f"/p/{p}/" for p in players),
    ]  # fmt: skip
    for url in urls:
        assert _no_500(web, url).status_code in (200, 302), url
        _no_500(visitor, url)
    for url in (
        f"/api/v1/tournaments/{tournament.pk}/", f"/api/v1/tournaments/{tournament.pk}/standings/",
        f"/api/v1/tournaments/{tournament.pk}/audit/", f"/api/v1/tournaments/{tournament.pk}/export/",
        *(f"/api/v1/matches/{m.pk}/games/" for m in matches),
        *(f"/api/v1/players/{p}/" for p in players),
    ):  # fmt: skip
        assert _no_500(api, url).status_code == 200, url
    for game in Game.objects.filter(match__in=matches, state="disputed"):
        for take in ("second", "first"):
            answer = api.post(f"/api/v1/games/{game.pk}/confirm/", {"take": take}, format="json")
            assert answer.status_code < 500, (take, answer.content[:300])


def _through_command(data: bytes, slug: str, tmp_path: Path) -> Tournament | None:
    path = tmp_path / f"{slug}.json"
    path.write_bytes(data)
    try:
        call_command("import_tournament", str(path), "--slug", slug, "--owner", "mallory")
    except CommandError:
        return None
    return Tournament.objects.get(slug=slug)


def _through_api(data: bytes, slug: str, attacker: Any) -> Tournament | None:
    answer = client_as(attacker).post(
        f"/api/v1/tournaments/import/?slug={slug}", data, content_type="application/json"
    )
    assert answer.status_code in (201, 400, 409, 413), (answer.status_code, answer.content[:300])
    assert answer["Content-Type"] == "application/json"
    return Tournament.objects.get(slug=slug) if answer.status_code == 201 else None


def _through_web(data: bytes, slug: str, attacker: Any) -> Tournament | None:
    client = Client()
    client.force_login(attacker)
    upload = SimpleUploadedFile("backup.json", data, "application/json")
    answer = client.post("/t/new/restore/", {"file": upload, "slug": slug})
    assert answer.status_code in (302, 400, 413), answer.status_code
    if answer.status_code != 302:
        assert "errors" in answer.content.decode()
    return Tournament.objects.get(slug=slug) if answer.status_code == 302 else None


def test_at_least_forty_hostile_documents():
    assert len(CASES) >= 40
    assert len({name for name, _forge in CASES}) == len(CASES)


@pytest.mark.parametrize("forge", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_a_hostile_document_never_answers_500(played, victim, forge, tmp_path):
    attacker = UserFactory(username="mallory")
    data = forged(played, victim, forge)
    restored = []
    for door, slug in (("command", "via-command"), ("api", "via-api"), ("web", "via-web")):
        before = rows_count()
        if door == "command":
            tournament = _through_command(data, slug, tmp_path)
        elif door == "api":
            tournament = _through_api(data, slug, attacker)
        else:
            tournament = _through_web(data, slug, attacker)
        if tournament is None:
            assert rows_count() == before, door
        else:
            restored.append(tournament)
    # All three doors agree: the same file is taken everywhere or nowhere.
    assert len(restored) in (0, 3)
    for tournament in restored[1:2]:
        every_page_renders(tournament, attacker)
    # Whatever came in, nothing of the victim's changed hands.
    victim["secret"].refresh_from_db()
    assert victim["secret"].created_by == victim["dave"]
    assert not victim["secret"].racks.exclude(game__match=victim["match"]).exists()
    assert set(victim["club"].players.all()) <= {victim["secret"]}
    assert Match.objects.get(pk=victim["match"].pk).token == victim["match"].token
    for tournament in restored:
        assert tournament.owner == attacker
        assert not tournament.co_organisers.exists()
        assert not Match.objects.filter(
            round__tournament=tournament, token__in=[victim["old_token"], victim["match"].token]
        ).exists()


def test_the_disputed_game_of_the_fixture_is_forged_upon(played):
    """The snapshot cases above need a disputed game with a second entry."""
    document = tournament_document(tournament=played)
    assert _disputed(document)["second_entry"]["racks"]


def test_a_game_entered_at_the_victims_table_still_works(victim):
    """The victim's current link is theirs: recording through it still lands there."""
    match = victim["match"]
    seated = seated_ids(match)
    racks = [RackIn(player=seated[0], points=0), RackIn(player=seated[1], points=7)]
    assert game_enter(match=match, ending="rummikub", racks=racks).game.match == match


def test_the_digest_of_a_replaced_link_is_the_only_thing_kept_of_it(victim):
    old = victim["old_token"]
    assert hashlib.sha256(old.encode()).hexdigest() == match_token_digest(old)
