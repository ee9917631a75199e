"""Entering a game by its number, confirmation, second entries, disputes and
restoring a deleted game, as the results services do them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from scoring.errors import ConflictError, UserError
from scoring.rules import RackIn
from tests.factories import UserFactory, match_seated, seated_ids
from tournaments.models import AuditEvent, Game, Match, Tournament
from tournaments.services.audit import REFUSALS_PER_MATCH_PER_MINUTE
from tournaments.services.games import GameTakenError, game_correct, game_delete, game_record
from tournaments.services.matches import match_token_regenerate
from tournaments.services.results import (
    EntrySource,
    SecondEntryRefusedError,
    entry_source_of,
    entry_source_page,
    game_confirm,
    game_enter,
    game_entry_conflict,
    game_entry_refused,
    game_restore,
    source_digest,
)
from tournaments.services.tournaments import tournament_finish

pytestmark = pytest.mark.django_db

A = AuditEvent.Action


def _deletion(game: Game) -> AuditEvent:
    return AuditEvent.objects.filter(action=A.GAME_DELETED, object_id=game.pk).latest("id")


LINK = AnonymousUser()


def _match(confirmation: str = Tournament.Confirmation.NONE) -> Match:
    return match_seated(players=3, confirmation=confirmation, owner__username="organiser")


def _racks(match: Match, points: int = 7) -> list[RackIn]:
    ids = seated_ids(match)
    return [RackIn(player=ids[0], tiles="")] + [
        RackIn(player=p, points=points + i) for i, p in enumerate(ids[1:])
    ]


def _enter(
    match: Match, user: Any, points: int = 7, number: int | None = 1, source: Any = None
) -> Any:
    return game_enter(
        match=match,
        ending="rummikub",
        racks=_racks(match, points),
        number=number,
        user=user,
        source=source,
    )


def _scores(game: Game) -> list[tuple[int, str]]:
    return [(r.player_id, str(r.score)) for r in game.racks.order_by("position")]


# ----------------------------------------------------------------------------- the three modes


def test_without_confirmation_every_entry_is_confirmed():
    match = _match()
    entered = _enter(match, LINK)
    assert entered.outcome == "recorded" and entered.game.state == Game.State.CONFIRMED
    event: Any = AuditEvent.objects.get()
    assert (event.action, event.via, event.match, event.table) == (
        A.GAME_RECORDED,
        "match_link",
        match,
        1,
    )


@pytest.mark.parametrize(
    ("who", "state", "via"),
    [
        ("link", Game.State.ENTERED, "match_link"),
        ("organiser", Game.State.CONFIRMED, "user"),
        ("another", Game.State.ENTERED, "user"),
    ],
)
def test_under_organiser_only_an_organisers_entry_is_confirmed(who, state, via):
    match = _match(Tournament.Confirmation.ORGANISER)
    user = {"link": LINK, "organiser": match.round.tournament.owner, "another": UserFactory()}[who]
    entered = _enter(match, user)
    assert entered.outcome == "recorded" and entered.game.state == state
    assert AuditEvent.objects.get().via == via


def test_an_organiser_confirms_a_links_entry():
    match = _match(Tournament.Confirmation.ORGANISER)
    game = _enter(match, LINK).game
    organiser = match.round.tournament.owner
    confirmed = game_confirm(game=game, user=organiser)
    assert confirmed.state == Game.State.CONFIRMED and confirmed.confirmed_by == organiser
    event: Any = AuditEvent.objects.get(action=A.GAME_CONFIRMED)
    assert event.old["state"] == "entered" and event.new["state"] == "confirmed"
    assert event.user == organiser and event.object_id == game.pk


def test_nobody_confirms_their_own_entry():
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    organiser = match.round.tournament.owner
    game = _enter(match, organiser).game
    assert game.state == Game.State.ENTERED
    with pytest.raises(ConflictError, match="yourself"):
        game_confirm(game=game, user=organiser)
    with pytest.raises(ConflictError, match="yourself"):
        _enter(match, organiser)
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED and game.confirmed_by is None
    assert AuditEvent.objects.count() == 1


@pytest.mark.parametrize(("corrector", "state"), [("own", "entered"), ("another", "confirmed")])
def test_nobody_confirms_their_own_entry_by_correcting_it(corrector, state):
    """A correction is an organiser's word, but not a way round the rule above:
    the one who entered a waiting game corrects it and it still waits."""
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    organiser = match.round.tournament.owner
    game = _enter(match, organiser).game
    other = UserFactory()
    match.round.tournament.co_organisers.add(other)
    who = organiser if corrector == "own" else other
    corrected = game_correct(game=game, ending="rummikub", racks=_racks(match, 9), user=who)
    assert corrected.state == state
    assert corrected.confirmed_by == (None if corrector == "own" else other)
    assert corrected.version == 2


# ----------------------------------------------------------------------------- double entry


def test_a_second_identical_entry_confirms():
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    first = _enter(match, LINK)
    assert first.outcome == "recorded" and first.game.state == Game.State.ENTERED
    organiser = match.round.tournament.owner
    second = _enter(match, organiser)
    assert second.outcome == "confirmed" and second.game.pk == first.game.pk
    game = Game.objects.get()
    assert game.state == Game.State.CONFIRMED and game.confirmed_by == organiser
    assert [e.action for e in AuditEvent.objects.order_by("id")] == [
        A.GAME_RECORDED,
        A.GAME_CONFIRMED,
    ]


def test_two_phones_at_one_table_confirm_each_other():
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    _enter(match, LINK, source=_phone("a"))
    assert _enter(match, AnonymousUser(), source=_phone("b")).outcome == "confirmed"
    game = Game.objects.get()
    assert game.state == Game.State.CONFIRMED
    # Where each entry came from, first entry first: digests, never the keys.
    assert [s["via"] for s in game.entry_sources] == ["page", "page"]
    assert game.entry_sources[0]["session"] == source_digest("session-a") != "session-a"


EARLY = timezone.now() - dt.timedelta(hours=1)


def _phone(session: str, *, key: str | None = None, joined: Any = EARLY) -> EntrySource:
    """A phone at the table's page: its session, its form's key, when it opened the page."""
    return entry_source_page(
        user=LINK,
        session_key=f"session-{session}" if session else "",
        key=key if key is not None else f"key-{session}",
        joined=joined,
    )


@pytest.mark.parametrize(
    ("second", "reason"),
    [
        # The same phone again, even with a new form.
        (lambda: _phone("a", key="another"), "same_phone"),
        # The same form sent again from another session.
        (lambda: _phone("b", key="key-a"), "same_key"),
        # Cookies cleared: a new session, begun after the first entry.
        (lambda: _phone("c", joined=timezone.now() + dt.timedelta(seconds=1)), "joined_late"),
        # A session never seen on the page, and no session at all.
        (lambda: _phone("d", joined=None), "joined_late"),
        (lambda: _phone(""), "joined_late"),
        # The match token over the API names no phone.
        (lambda: entry_source_of(AnonymousUser(), key="k"), "link_api"),
    ],
)
def test_one_phone_cannot_make_both_entries(second, reason):
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    _enter(match, LINK, source=_phone("a"))
    with pytest.raises(SecondEntryRefusedError) as refused:
        _enter(match, LINK, source=second())
    assert refused.value.reason == reason and refused.value.status == 409
    game = Game.objects.get()
    assert game.state == Game.State.ENTERED and len(game.entry_sources) == 1


def test_a_refused_entry_leaves_a_trace_a_few_times_a_minute():
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    game = _enter(match, LINK, source=_phone("a")).game
    kept = [
        game_entry_refused(
            match=match,
            number=1,
            ending="rummikub",
            racks=_racks(match),
            reason="same_phone",
            user=LINK,
            game=game,
        )
        for _ in range(REFUSALS_PER_MATCH_PER_MINUTE + 3)
    ]
    assert sum(event is not None for event in kept) == REFUSALS_PER_MATCH_PER_MINUTE
    event = AuditEvent.objects.filter(action=A.GAME_REFUSED).latest("id")
    assert event.by_link and event.object_id == game.pk and event.game_number == 1
    assert event.new["reason"] == "same_phone" and len(event.new["racks"]) == 3
    # A minute later there is room again.
    AuditEvent.objects.filter(action=A.GAME_REFUSED).update(at=EARLY)
    assert game_entry_refused(
        match=match, number=1, ending="rummikub", racks=[], reason="taken", user=LINK
    )


def test_a_retry_of_a_taken_game_with_its_own_racks_is_no_conflict():
    match = _match()
    game = _enter(match, LINK).game
    same = game_entry_conflict(
        taken=game, match=match, ending="rummikub", racks=_racks(match), user=LINK
    )
    other = game_entry_conflict(
        taken=game, match=match, ending="rummikub", racks=_racks(match, 9), user=LINK
    )
    assert same is None and other is not None and other.new["reason"] == "taken"


def test_a_different_second_entry_disputes_and_is_kept():
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    game = _enter(match, LINK).game
    before = _scores(game)
    second = _enter(match, UserFactory(), points=9)
    assert second.outcome == "disputed"
    game.refresh_from_db()
    assert game.state == Game.State.DISPUTED and _scores(game) == before
    ids = seated_ids(match)
    assert game.second_entry == {
        "ending": "rummikub",
        "racks": [
            {"player": ids[0], "tiles": ""},
            {"player": ids[1], "points": 9, "jokers": None},
            {"player": ids[2], "points": 10, "jokers": None},
        ],
    }
    event: Any = AuditEvent.objects.get(action=A.GAME_DISPUTED)
    assert event.new["second_entry"] == game.second_entry and event.old["state"] == "entered"
    # A third entry finds the game taken: the organiser settles it now.
    with pytest.raises(GameTakenError) as taken:
        _enter(match, LINK)
    assert taken.value.game.pk == game.pk and taken.value.status == 409
    assert Game.objects.count() == 1 and AuditEvent.objects.count() == 2


def test_a_number_taken_without_double_entry_is_refused_with_the_game():
    match = _match()
    game = _enter(match, LINK).game
    with pytest.raises(GameTakenError) as taken:
        _enter(match, LINK)
    assert taken.value.game == game and taken.value.field == "number"
    assert Game.objects.count() == 1


def test_settling_a_dispute_keeps_the_first_version():
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    game = _enter(match, LINK).game
    first = _scores(game)
    _enter(match, UserFactory(), points=9)
    kept = game_confirm(game=game, user=match.round.tournament.owner, take="first")
    assert kept.state == Game.State.CONFIRMED and kept.second_entry is None
    assert _scores(kept) == first and kept.version == game.version


def test_settling_a_dispute_with_the_second_version_takes_its_scores():
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    game = _enter(match, LINK).game
    _enter(match, UserFactory(), points=9)
    expected = _scores(_enter(_match(), LINK, points=9).game)
    taken = game_confirm(game=game, user=match.round.tournament.owner, take="second")
    assert taken.pk == game.pk and taken.state == Game.State.CONFIRMED
    assert [s for _, s in _scores(taken)] == [s for _, s in expected]
    assert taken.second_entry is None and taken.version == game.version + 1
    assert AuditEvent.objects.filter(tournament=match.round.tournament).latest("id").action == (
        A.GAME_CORRECTED
    )


def test_a_dispute_is_not_settled_without_saying_which_version_stands():
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    game = _enter(match, LINK).game
    _enter(match, UserFactory(), points=9)
    with pytest.raises(UserError) as refused:
        game_confirm(game=game, user=match.round.tournament.owner)
    assert refused.value.field == "take" and refused.value.status == 400
    game.refresh_from_db()
    assert game.state == Game.State.DISPUTED and game.second_entry is not None


def test_a_tournament_with_games_to_confirm_is_not_finished():
    match = _match(Tournament.Confirmation.ORGANISER)
    for number in range(1, match.round.games_per_match + 1):
        _enter(match, LINK, number=number)
    tournament = match.round.tournament
    with pytest.raises(ConflictError, match="wait for confirmation"):
        tournament_finish(tournament=tournament, user=tournament.owner)
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.FINISHED
    for game in match.games.all():
        game_confirm(game=game, user=tournament.owner)
    assert tournament_finish(tournament=tournament).status == Tournament.Status.FINISHED


def test_taking_a_second_version_that_is_not_there_is_refused():
    match = _match(Tournament.Confirmation.ORGANISER)
    game = _enter(match, LINK).game
    with pytest.raises(UserError) as refused:
        game_confirm(game=game, user=match.round.tournament.owner, take="second")
    assert refused.value.field == "take"
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED


# ----------------------------------------------------------------------------- restore


def _deleted(match: Match) -> tuple[Game, list[tuple[int, str]]]:
    game = game_record(match=match, ending="rummikub", racks=_racks(match))
    game_record(match=match, ending="rummikub", racks=_racks(match, 3))
    scores = _scores(game)
    game_delete(game=game, user=match.round.tournament.owner)
    return game, scores


def test_restore_brings_a_deleted_game_back_as_it_was():
    match = _match()
    game, scores = _deleted(match)
    organiser = match.round.tournament.owner
    restored = game_restore(event=_deletion(game), user=organiser)
    assert (restored.pk, restored.number, restored.ending) == (game.pk, 1, "rummikub")
    assert _scores(restored) == scores and restored.version == game.version + 1
    event: Any = AuditEvent.objects.get(action=A.GAME_RESTORED)
    assert (event.object_id, event.game_number, event.user) == (game.pk, 1, organiser)
    assert [r["score"] for r in event.new["racks"]] == [s for _, s in scores]


def test_restore_is_refused_when_the_number_was_recorded_again():
    match = _match()
    game, _ = _deleted(match)
    game_record(match=match, ending="rummikub", racks=_racks(match, 4), number=1)
    with pytest.raises(ConflictError, match="recorded again"):
        game_restore(event=_deletion(game), user=None)
    assert not AuditEvent.objects.filter(action=A.GAME_RESTORED).exists()


def test_restore_from_anything_but_the_last_deletion_is_refused():
    match = _match()
    game, _ = _deleted(match)
    first = _deletion(game)
    recorded = AuditEvent.objects.filter(action=A.GAME_RECORDED).first()
    assert recorded is not None
    with pytest.raises(UserError) as not_a_deletion:
        game_restore(event=recorded, user=None)
    assert not_a_deletion.value.status == 400
    # Restored, then deleted again: only the later deletion brings it back.
    game_delete(game=game_restore(event=first, user=None))
    with pytest.raises(ConflictError, match="deleted again later"):
        game_restore(event=first, user=None)
    assert not Game.objects.filter(number=game.number, match=match).exists()
    assert game_restore(event=_deletion(game), user=None).pk == game.pk


def test_a_deletion_without_its_game_id_restores_under_a_new_id():
    # A tournament restored from a backup keeps its deletions, not their old ids.
    match = _match()
    game, scores = _deleted(match)
    event = _deletion(game)
    AuditEvent.objects.filter(pk=event.pk).update(object_id=None)
    event.refresh_from_db()
    restored = game_restore(event=event, user=None)
    assert restored.pk != game.pk and restored.number == game.number
    assert _scores(restored) == scores


# ----------------------------------------------------------------------------- finished


def _finish(match: Match) -> None:
    # Only the status matters to the refusal; finishing properly needs every game played.
    Tournament.objects.filter(pk=match.round.tournament_id).update(
        status=Tournament.Status.FINISHED
    )


FROZEN: dict[str, Callable[[Match, Game, Game], Any]] = {
    "game_enter": lambda m, g, d: _enter(m, LINK, number=None),
    "game_enter_second": lambda m, g, d: _enter(m, LINK, number=g.number),
    "game_confirm": lambda m, g, d: game_confirm(game=g, user=m.round.tournament.owner),
    "game_restore": lambda m, g, d: game_restore(event=_deletion(d), user=None),
    "match_token_regenerate": lambda m, g, d: match_token_regenerate(match=m, user=None),
}


@pytest.mark.parametrize("write", sorted(FROZEN))
def test_a_finished_tournament_refuses_entries_confirmations_restores_and_links(write):
    match = _match(Tournament.Confirmation.DOUBLE_ENTRY)
    deleted, _ = _deleted(match)
    entered = _enter(match, LINK, number=3).game
    _finish(match)
    token, events = match.token, AuditEvent.objects.count()
    with pytest.raises(ConflictError) as refused:
        FROZEN[write](match, entered, deleted)
    assert refused.value.status == 409 and "finished" in refused.value.render()
    match.refresh_from_db()
    entered.refresh_from_db()
    assert match.token == token and entered.state == Game.State.ENTERED
    assert match.games.count() == 2 and AuditEvent.objects.count() == events
