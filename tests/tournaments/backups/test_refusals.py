"""A corrupt, foreign, tampered or contradictory backup is refused with its
reason, and nothing is stored."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from scoring.errors import ConflictError, UserError
from tests.tournaments.backups.conftest import rows_count
from tournaments.backups.checks import TooLargeError, document_read, file_max
from tournaments.backups.document import checksum_of, tournament_document
from tournaments.backups.restore import tournament_import

pytestmark = pytest.mark.django_db


def refusal(document: Any, owner: Any, slug: str | None = "restored") -> UserError:
    before = rows_count()
    with pytest.raises(UserError) as caught:
        tournament_import(document=document, owner=owner, slug=slug)
    assert rows_count() == before
    return caught.value


def changed(played: Any, change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """The backup changed, its checksum taken again: what a forger would do."""
    document = tournament_document(tournament=played, checksum=False)
    change(document)
    document["checksum"] = checksum_of(document)
    return document


def set_(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change at ``games.3.racks.1.points``."""

    def change(document: dict[str, Any]) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = document
        for part in parents:
            target = target[part]
        target[last] = value

    return change


def test_a_tampered_score_is_refused_naming_it(played, owner):
    document = changed(played, set_("games.0.racks.2.score", "-11.00"))
    error = refusal(document, owner)
    assert error.field == "document"
    assert "games[0].racks[2].score is -11.00 but the racks give -12" in error.render()


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        ("games.0.racks.2.points", 13, "games[0].racks[2].rack_value is 12 but the racks give 13"),
        (
            "games.0.racks.1.rack_value",
            41,
            "games[0].racks[1].rack_value is 41 but the racks give 40",
        ),
        ("games.0.racks.0.winner", False, "games[0].racks[0].winner"),
        ("games.0.racks.0.table_points", "5.00", "games[0].racks[0].table_points"),
        (
            "games.0.racks.1.tiles",
            "R7 R9 J",
            "games[0].racks[1].points is 15 but the racks give 16",
        ),
        ("games.0.racks.3.jokers", 1, "games[0].racks[3].rack_value is 3 but the racks give 28"),
    ],
)
def test_every_stored_value_is_checked(played, owner, path, value, named):
    assert named in refusal(changed(played, set_(path, value)), owner).render()


def test_a_changed_file_with_its_checksum_is_refused(played, owner):
    document = tournament_document(tournament=played)
    document["tournament"]["name"] = "Forged"
    assert "checksum does not match" in refusal(document, owner).render()


def test_a_recomputed_checksum_does_not_hide_a_tampered_score(played, owner):
    document = changed(played, set_("games.1.racks.3.score", "99.00"))
    assert "games[1].racks[3].score" in refusal(document, owner).render()


def test_a_file_without_its_checksum_is_refused(played, owner):
    """Deleting the checksum does not let an edit the checks allow through."""
    document = tournament_document(tournament=played, checksum=False)
    document["audit"][0]["action"] = "game.deleted"
    assert refusal(document, owner).render() == (
        "The file has no checksum: it was not written by Rackscore's export or was changed."
    )


def test_an_invented_audit_action_is_refused(played, owner):
    document = changed(played, set_("audit.0.action", "<script>"))
    assert "at audit[0].action: '<script>' is not one of" in refusal(document, owner).render()


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b'{"format": "rackscore-tournament", ', "not valid JSON (line 1, column 36"),
        (b'"\xc3\x28"', "not UTF-8"),
        (b"[1, 2]", "holds no JSON object"),
        (b"", "The file is empty."),
        (b" \n", "The file is empty."),
        ("\ufeff", "The file is empty."),
    ],
)
def test_a_corrupt_file_is_refused(data, reason):
    with pytest.raises(UserError) as caught:
        document_read(data)
    assert reason in caught.value.render()


def test_a_file_over_the_limit_is_refused_unread():
    with pytest.raises(TooLargeError) as caught:
        document_read(b" " * (file_max() + 1))
    assert (caught.value.status, caught.value.field) == (413, "document")
    assert caught.value.render() == "The file is too large: a backup can be at most 10 MB."


def test_a_byte_order_mark_is_read_past(played, owner):
    text = json.dumps(tournament_document(tournament=played))
    for data in (b"\xef\xbb\xbf" + text.encode(), "\ufeff" + text):
        assert document_read(data)["format"] == "rackscore-tournament"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            set_("format", "tabbycat"),
            "not a Rackscore tournament backup (its format is “tabbycat”)",
        ),
        (set_("version", 2), "version 2, which this Rackscore does not know"),
        (lambda d: d.pop("format"), "its format is “”"),
        (set_("games.0.racks.1.points", -3), "at games[0].racks[1].points: -3 is less than"),
        (set_("games.0.racks.1.points", "3"), "at games[0].racks[1].points: '3' is not of type"),
        (set_("tournament.pool_tie", "coin"), "at tournament.pool_tie: 'coin' is not one of"),
        (set_("tournament.language", "xx"), "at tournament.language: 'xx' is not one of"),
        (set_("entries.0.status", "gone"), "at entries[0].status: 'gone' is not one of"),
        (set_("rounds.0.stage", "quarter"), "at rounds[0].stage: 'quarter' is not one of"),
        (set_("games.0.state", "lost"), "at games[0].state: 'lost' is not one of"),
        (lambda d: d.pop("audit"), "at (the document): 'audit' is a required property"),
        (set_("players.0.surprise", 1), "at players[0]: Additional properties"),
        (set_("tournament.tie_breaks", ["luck"]), "tournament.tie_breaks: "),
        (set_("tournament.table_points", {"4": [1, 3, 0, 0]}), "tournament.table_points: "),
        (set_("entries.0.created", "2026-13-45T99:00:00"), "entries[0].created is not a date"),
    ],
)
def test_a_foreign_or_malformed_document_is_refused(played, owner, change, reason):
    assert reason in refusal(changed(played, change), owner).render()


def _first_seat_elsewhere(document: dict[str, Any]) -> None:
    document["seats"][0]["player"] = document["seats"][1]["player"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (set_("seats.0.player", 999_999), "seats[0].player names player 999999, which the backup"),
        (set_("entries.0.player", 999_999), "entries[0].player names player 999999"),
        (set_("games.0.match", 999_999), "games[0].match names match 999999"),
        (set_("adjustments.0.round", 9), "adjustments[0].round names round 9"),
        (set_("audit.0.match", 999_999), "audit[0].match names match 999999"),
        (set_("tournament.club", "Nowhere"), "tournament.club names the club Nowhere"),
        (set_("games.0.racks.0.player", 999_999), "games[0].racks: the racks are not one for"),
        (set_("games.0.racks.0.position", 4), "games[0].racks[0].position is not the seat"),
        (lambda d: d["entries"].append(dict(d["entries"][0])), "repeats an entered player"),
        (lambda d: d["games"].append(dict(d["games"][0], id=999_999)), "repeats a game number"),
        (
            set_("games.0.second_entry", {"ending": "rummikub", "racks": [{"player": 1}] * 2}),
            "only a disputed game",
        ),
        (_first_seat_elsewhere, "seats[1] repeats a player's round"),
    ],
)
def test_a_dangling_or_repeated_reference_is_refused(played, owner, change, reason):
    assert reason in refusal(changed(played, change), owner).render()


def test_an_existing_slug_is_refused_unless_a_new_one_is_given(played, owner):
    document = tournament_document(tournament=played)
    error = refusal(document, owner, slug=None)
    assert isinstance(error, ConflictError) and error.status == 409
    assert error.field == "slug"
    assert f"slug “{played.slug}” exists already" in error.render()
    assert "“new” exists already" in refusal(document, owner, slug="new").render()  # reserved
    assert "is not valid" in refusal(document, owner, slug="no way").render()
    assert tournament_import(document=document, owner=owner, slug="fresh").slug == "fresh"


def test_the_file_as_written_is_accepted(played, owner):
    text = json.dumps(tournament_document(tournament=played))
    assert tournament_import(document=document_read(text.encode()), owner=owner, slug="ok")
