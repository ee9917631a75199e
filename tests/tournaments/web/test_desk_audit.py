"""The desk's audit trail: who did what, narrowed and paginated, read plainly;
restoring a deleted game from it; its queries."""

from __future__ import annotations

import pytest

from tests.factories import match_seated
from tests.tournaments.web.support import play
from tests.tournaments.web.trust_support import (
    deletion_of,
    desk_url,
    enter,
    game_disputed,
    seated,
)
from tournaments.models import AuditEvent, Game
from tournaments.services.adjustments import adjustment_add
from tournaments.services.audit import audit_add
from tournaments.services.games import game_delete
from tournaments.web import desk_audit, desk_results

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------------------------- audit


def test_the_audit_trail_shows_who_did_what_to_which_game(owner) -> None:
    match = seated()
    game = enter(match)
    client = owner(match)
    client.post(desk_url(match, f"games/{game.pk}/confirm/"))
    response = client.get(desk_url(match, "audit/"))
    assert response.status_code == 200
    events = response.context["events"]
    assert [e.event.action for e in events] == ["game.confirmed", "game.recorded"]
    text = response.content.decode()
    assert "Game confirmed" in text and "Game recorded" in text
    assert "match link of table 1, round 1" in text
    assert f"by {match.round.tournament.owner.username}" in text
    assert "Round 1, table 1, game 1" in text
    recorded = events[1]
    names = {s.player.name for s in match.seats.select_related("player")}
    assert {c.label for c in recorded.changes} >= names  # racks by player name
    confirmed = events[0]
    assert [(c.label, c.old, c.new) for c in confirmed.changes] == [
        ("State", "entered, to confirm", "confirmed")
    ]


def test_the_audit_trail_narrows_to_one_table_and_one_kind(owner) -> None:
    match = seated("none")
    other = match_seated(players=3, tournament=match.round.tournament)
    play(match, games=1)
    play(other, games=2)
    client = owner(match)
    everything = client.get(desk_url(match, "audit/")).context["events"]
    assert len(everything) == 3
    table = client.get(desk_url(match, f"audit/?match={match.pk}"))
    assert [e.event.match_id for e in table.context["events"]] == [match.pk]
    assert "History of table 1, round 1" in table.content.decode()
    games = client.get(desk_url(match, "audit/?kind=game")).context["events"]
    assert len(games) == 3
    assert client.get(desk_url(match, "audit/?kind=settings")).context["events"] == []
    assert len(client.get(desk_url(match, "audit/?kind=nonsense")).context["events"]) == 3
    stranger = seated()
    assert client.get(desk_url(match, f"audit/?match={stranger.pk}")).status_code == 404
    assert client.get(desk_url(match, "audit/?match=x")).status_code == 404


def test_the_audit_trail_is_paginated_newest_first(owner, monkeypatch) -> None:
    monkeypatch.setattr(desk_audit, "PER_PAGE", 2)
    match = seated("none", games_per_round=3)
    play(match, games=3)
    client = owner(match)
    first = client.get(desk_url(match, "audit/"))
    assert [e.event.game_number for e in first.context["events"]] == [3, 2]
    assert "Page 1 of 2" in first.content.decode() and "?page=2" in first.content.decode()
    second = client.get(desk_url(match, "audit/?page=2&kind=game"))
    assert [e.event.game_number for e in second.context["events"]] == [1]


def test_the_match_desk_links_its_history(owner) -> None:
    match = seated("none")
    page = owner(match).get(desk_url(match, f"tables/{match.pk}/")).content.decode()
    assert f"{desk_url(match, 'audit/')}?match={match.pk}" in page


# ----------------------------------------------------------------------------- restore


def test_a_deleted_game_is_restored_from_the_trail_once(owner) -> None:
    match = seated("none", games_per_round=3)
    play(match, games=3)
    game = match.games.get(number=2)
    game_id, scores = game.pk, sorted(game.racks.values_list("score", flat=True))
    client = owner(match)
    client.post(desk_url(match, f"tables/{match.pk}/games/2/delete/"), {"version": "1"})
    audit_page = client.get(desk_url(match, "audit/"))
    restore = desk_url(match, f"audit/{deletion_of(match, 2).pk}/restore/")
    assert restore in audit_page.content.decode()
    assert audit_page.context["events"][0].restorable is True
    # The match desk's history offers it too.
    assert restore in client.get(desk_url(match, f"tables/{match.pk}/")).content.decode()

    response = client.post(restore, {"next": desk_url(match, "audit/")})
    assert response["Location"] == desk_url(match, "audit/")
    text = client.get(response["Location"]).content.decode()
    assert "Game 2 of table 1 restored." in text
    back = Game.objects.get(pk=game_id)
    assert back.number == 2 and sorted(back.racks.values_list("score", flat=True)) == scores
    assert restore not in text  # restored: no button any more
    events = AuditEvent.objects.filter(object_id=game_id, action=AuditEvent.Action.GAME_RESTORED)
    assert events.count() == 1

    again = client.post(restore, follow=True)
    assert "Game 2 of table 1 is there now" in again.content.decode()
    assert events.count() == 1


def test_an_imported_copys_deletion_without_a_game_id_is_restored(owner) -> None:
    # A tournament restored from a backup keeps its trail, but the deleted
    # games' ids are gone: the deletion events carry no object id.
    match = seated("none", games_per_round=3)
    play(match, games=2)
    game = match.games.get(number=2)
    scores = sorted(game.racks.values_list("score", flat=True))
    game_delete(game=game, user=None)
    deletion = deletion_of(match, 2)
    AuditEvent.objects.filter(pk=deletion.pk).update(object_id=None)
    client = owner(match)
    restore = desk_url(match, f"audit/{deletion.pk}/restore/")
    page = client.get(desk_url(match, "audit/"))
    assert page.context["events"][0].restorable is True and restore in page.content.decode()
    response = client.post(restore, follow=True)
    assert "Game 2 of table 1 restored." in response.content.decode()
    back = match.games.get(number=2)
    assert sorted(back.racks.values_list("score", flat=True)) == scores
    assert AuditEvent.objects.filter(object_id=back.pk, action="game.restored").count() == 1


def test_a_deleted_game_whose_number_was_recorded_again_is_not_restored(owner) -> None:
    match = seated("none", games_per_round=3)
    play(match, games=2)
    game_delete(game=match.games.get(number=2), user=None)
    deletion = deletion_of(match, 2)
    enter(match, user=None, number=2, points=7)
    client = owner(match)
    restore = desk_url(match, f"audit/{deletion.pk}/restore/")
    page = client.get(desk_url(match, "audit/"))
    assert restore not in page.content.decode()
    before = AuditEvent.objects.count()
    response = client.post(restore, follow=True)
    assert "Game 2 of table 1 is there now" in response.content.decode()
    assert AuditEvent.objects.count() == before
    assert sorted(match.games.get(number=2).racks.values_list("points", flat=True)) == [0, 7, 7]


@pytest.mark.parametrize("case", ["unknown", "other", "not-a-deletion"])
def test_restoring_what_is_not_this_tournaments_deleted_game_says_so(owner, case: str) -> None:
    match = seated("none")
    play(match, games=1)
    other = seated("none")
    play(other, games=1)
    gone = other.games.get()
    game_delete(game=gone, user=other.round.tournament.owner)
    recorded = AuditEvent.objects.get(match=match, action=AuditEvent.Action.GAME_RECORDED)
    target = {"unknown": 999999, "other": deletion_of(other, 1).pk}.get(case, recorded.pk)
    before = AuditEvent.objects.count()
    response = owner(match).post(desk_url(match, f"audit/{target}/restore/"), follow=True)
    assert "no such deleted game" in response.content.decode()
    assert AuditEvent.objects.count() == before and not Game.objects.filter(pk=gone.pk).exists()


# ----------------------------------------------------------------------------- queries


def test_the_to_confirm_page_reads_in_a_fixed_number_of_queries(
    owner, django_assert_max_num_queries
) -> None:
    match = seated("double_entry", games_per_round=4)
    tournament = match.round.tournament
    for number in (1, 2, 3):
        enter(match, number=number)
    game_disputed(match_seated(players=3, tournament=tournament))
    for _ in range(3):
        enter(match_seated(players=4, tournament=tournament))
    client = owner(match)
    # Session, user, tournament, organiser check, games, racks, seats; the one
    # disputed game's second version reads its seats again (one per disputed game).
    with django_assert_max_num_queries(8):
        response = client.get(desk_url(match, "confirm/"))
    assert len(response.context["entered"]) == 6 and len(response.context["disputed"]) == 1


def test_the_audit_page_reads_in_a_fixed_number_of_queries(
    owner, django_assert_max_num_queries
) -> None:
    match = seated("none", games_per_round=6)
    play(match, games=6)
    for number in (1, 2):
        game_delete(game=match.games.get(number=number), user=None)
    client = owner(match)
    # Session, user, tournament, the match filter, count, page, player names.
    with django_assert_max_num_queries(7):
        response = client.get(desk_url(match, f"audit/?match={match.pk}"))
    assert len(response.context["events"]) == 8


def test_the_audit_trail_shows_changed_keys_and_players_by_name(owner) -> None:
    match = seated("none")
    tournament = match.round.tournament
    player = match.seats.select_related("player").first().player
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.SETTINGS_CHANGED,
        old={
            "confirmation": "none",
            "name": "Open",
            "public": True,
            "table_points": {"2": [2, 0], "3": [3, 1, 0]},
            "tie_breaks": ["wins", "table_points"],
        },
        new={
            "confirmation": "organiser",
            "name": "Open",
            "public": False,
            "table_points": {"2": [4, 0], "3": [3, 1, 0]},
            "tie_breaks": ["table_points"],
        },
    )
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.ENTRY_ADDED,
        user=tournament.owner,
        new={"player": player.pk, "status": "active"},
    )
    client = owner(match)
    response = client.get(desk_url(match, "audit/"))
    entry, settings = response.context["events"]
    # Settings by their labels, choices in words, lists plainly.
    assert [(c.label, c.old, c.new) for c in settings.changes] == [
        (
            "confirmation of results",
            "none: every game counts as entered",
            "an organiser confirms games entered through a match link",
        ),
        ("public", "yes", "no"),
        ("table points", "2: 2, 0; 3: 3, 1, 0", "2: 4, 0; 3: 3, 1, 0"),
        # A tie-break list by what each name means: a meaning may hold a comma.
        ("tie-breaks", "games won; table points", "table points"),
    ]
    assert settings.object == "Settings" and settings.event.who() == "the system"
    assert ("player", "—", player.name) in [(c.label, c.old, c.new) for c in entry.changes]
    text = response.content.decode()
    assert "by the system" in text and "Settings changed" in text
    only = client.get(desk_url(match, "audit/?kind=settings")).context["events"]
    assert [e.event.action for e in only] == ["settings.changed"]


def test_the_audit_trail_reads_racks_plainly_and_names_the_second_entry_taken(owner) -> None:
    match = seated("double_entry")
    game = game_disputed(match)
    client = owner(match)
    client.post(desk_url(match, f"games/{game.pk}/confirm/"), {"take": "second"})
    response = client.get(desk_url(match, "audit/"))
    corrected, disputed, recorded = response.context["events"]
    assert corrected.event.action == "game.corrected"
    assert corrected.note == "the second entry taken" and disputed.note == recorded.note == ""
    loser = match.seats.get(position=2).player.name
    rows = {c.label: (c.old, c.new) for c in corrected.changes}
    assert rows[loser] == ("10 pts, 0 J (score -10)", "12 pts, 0 J (score -12)")
    text = response.content.decode()
    assert "the second entry taken" in text and "→" not in text.split("<main")[-1]
    history = client.get(desk_url(match, f"tables/{match.pk}/")).content.decode()
    assert "The second entry taken" in history  # the table's history says it too
    # One point is singular.
    rack = {"player": 7, "points": 1, "jokers": 0, "score": "-1"}
    one_point = AuditEvent(
        action="game.recorded", new={"ending": "pool_exhausted", "racks": [rack]}
    )
    shown = {c.label: c.new for c in desk_audit.event_changes(one_point, {7: loser})}
    assert shown[loser] == "1 pt, 0 J (score -1)"


def test_a_correction_of_a_disputed_game_by_hand_settles_the_dispute() -> None:
    # Not the second entry: the organiser typed a third version.
    second = {"ending": "rummikub", "racks": [{"player": 1, "points": 12}]}
    corrected = AuditEvent(
        action=AuditEvent.Action.GAME_CORRECTED,
        game_number=1,
        old={"ending": "rummikub", "state": "disputed", "racks": []},
        new={"ending": "rummikub", "racks": [{"player": 1, "tiles": None, "points": 9}]},
    )
    assert desk_results.game_event_note(corrected, {(None, 1): second}) == "settles the dispute"
    taken = {"ending": "rummikub", "racks": [{"player": 1, "points": 9}]}
    assert desk_results.game_event_note(corrected, {(None, 1): taken}) == "the second entry taken"


def test_seating_entries_links_and_imports_read_in_words(owner) -> None:
    match = seated("none")
    tournament = match.round.tournament
    A = AuditEvent.Action
    anna, ben = ({"player": 1, "name": "Anna"}, {"player": 2, "name": "Ben"})
    audit_add(tournament=tournament, action=A.ROUND_SEATED, new={"tables": [[anna, ben]]})
    audit_add(
        tournament=tournament,
        action=A.ENTRY_CHANGED,
        old={"players": [{**anna, "status": "active"}]},
        new={"players": [{**anna, "status": "withdrawn"}]},
    )
    audit_add(
        tournament=tournament,
        action=A.TOKEN_REGENERATED,
        match=match,
        old={"token": "…abcd", "digest": "f" * 64},
        new={"token": "…wxyz"},
    )
    audit_add(
        tournament=tournament,
        action=A.TOURNAMENT_IMPORTED,
        new={"file": "cup.json", "exported_at": "2026-11-21T10:00:00+00:00"},
    )
    text = owner(match).get(desk_url(match, "audit/")).content.decode()
    assert "1: Anna, Ben" in text and "Anna: withdrawn" in text
    assert "…wxyz" in text and "f" * 64 not in text and "digest" not in text
    assert "2026-11-21T10" not in text and "cup.json" in text
    assert '"name"' not in text and "&quot;name&quot;" not in text


def test_an_adjustments_round_reads_as_its_number_as_the_trail_keeps_it(owner) -> None:
    """The trail keeps an adjustment's round by number, never by id: another
    tournament's round whose id is that number is not named."""
    match_seated(players=2)  # another tournament's round takes an id first
    match = seated("none")
    tournament = match.round.tournament
    assert match.round.pk != match.round.number == 1
    player = match.seats.first().player_id
    adjustment_add(
        tournament=tournament, player_id=player, points=-5, reason="Late", round=match.round
    )
    events = owner(match).get(desk_url(match, "audit/?kind=adjustment")).context["events"]
    changes = {c.label: (c.old, c.new) for c in events[0].changes}
    assert changes["round"] == ("—", "1")


def test_the_danish_audit_trail_reads_stages_and_tie_breaks_in_danish(owner) -> None:
    match = seated("none")
    tournament = match.round.tournament
    A = AuditEvent.Action
    audit_add(
        tournament=tournament,
        action=A.ROUND_SEATED,
        round_number=2,
        new={"round": 2, "stage": "semifinal", "tables": []},
    )
    audit_add(
        tournament=tournament,
        action=A.SETTINGS_CHANGED,
        old={"tie_breaks": ["wins", "table_points", "rack_total"]},
        new={"tie_breaks": ["score"]},
    )
    response = owner(match).get(f"/da/t/{tournament.slug}/organise/audit/")
    settings, seated_event = response.context["events"]
    assert [(c.label, c.new) for c in seated_event.changes if c.label == "fase"] == [
        ("fase", "semifinale")
    ]
    assert [(c.label, c.old, c.new) for c in settings.changes] == [
        (
            "afgørelse ved lighed",
            "vundne spil; bordpoint; point tilbage på brikholderne, færrest først",
            "samlede point",
        )
    ]
    text = response.content.decode()
    assert "Fase" in text and "Afgørelse ved lighed" in text
    for english in ("Stage", "Tiebreaks", "Tie-breaks", "table points", "rack total"):
        assert english not in text.split("<main")[-1], english
