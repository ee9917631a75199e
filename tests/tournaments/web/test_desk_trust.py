"""Trust on the desk: the games to confirm and the disputed ones settled, the
audit trail with restoring a deleted game, and a table's new link; who gets in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from scoring.racks import RackIn
from tests.factories import UserFactory, match_seated, seated_ids
from tests.tournaments.web.support import play
from tournaments.models import AuditEvent, Game, Match, Tournament
from tournaments.services.audit import audit_add
from tournaments.services.games import game_delete
from tournaments.services.results import game_enter
from tournaments.web import desk_audit, desk_results
from tournaments.web.desk_trust import unsettled_counts

pytestmark = pytest.mark.django_db
LINK = AnonymousUser()  # an anonymous request: the match link's


def _enter(match: Match, *, user=LINK, points: int = 10, number: int | None = None) -> Game:
    a, *others = seated_ids(match)
    racks = [RackIn(player=a, tiles=""), *(RackIn(player=p, points=points) for p in others)]
    return game_enter(match=match, ending="rummikub", racks=racks, number=number, user=user).game


def _seated(confirmation: str = "organiser", **kwargs) -> Match:
    match = match_seated(players=3, confirmation=confirmation, **kwargs)
    match.round.tournament.refresh_from_db()
    return match


def _desk(match: Match, tail: str) -> str:
    return f"/t/{match.round.tournament.slug}/organise/{tail}"


def _deletion(match: Match, number: int) -> AuditEvent:
    return AuditEvent.objects.filter(
        match=match, game_number=number, action=AuditEvent.Action.GAME_DELETED
    ).latest("id")


def _disputed(match: Match) -> Game:
    _enter(match, points=10, number=1)
    game = _enter(match, points=12, number=1)
    assert game.state == Game.State.DISPUTED
    return game


@pytest.fixture
def owner(client: Client):
    def login(match: Match) -> Client:
        client.force_login(match.round.tournament.owner)
        return client

    return login


# ----------------------------------------------------------------------------- to confirm


def test_a_game_entered_at_the_table_is_listed_and_confirmed_in_one_click(owner) -> None:
    match = _seated()
    game = _enter(match)
    assert game.state == Game.State.ENTERED
    client = owner(match)
    page = client.get(_desk(match, "confirm/")).content.decode()
    assert "To confirm" in page and "Entered at the table" in page
    assert "Game 1 · table 1, round 1" in page
    confirm_url = _desk(match, f"games/{game.pk}/confirm/")
    assert confirm_url in page
    response = client.post(confirm_url)
    assert response.status_code == 302 and response["Location"] == _desk(match, "confirm/")
    text = client.get(response["Location"]).content.decode()
    assert "Game 1 of table 1 confirmed." in text and "Nothing to confirm." in text
    game.refresh_from_db()
    assert game.state == Game.State.CONFIRMED
    assert game.confirmed_by == match.round.tournament.owner
    event = AuditEvent.objects.filter(action=AuditEvent.Action.GAME_CONFIRMED).get()
    assert event.object_id == game.pk and event.username == match.round.tournament.owner.username


def test_the_desk_says_how_many_games_wait_only_when_games_are_confirmed(owner) -> None:
    match = _seated("double_entry")
    _enter(match, number=1)
    _disputed_match = match_seated(players=3, tournament=match.round.tournament)
    _disputed(_disputed_match)
    client = owner(match)
    page = client.get(_desk(match, "")).content.decode()
    assert "1 game to confirm" in page and "1 disputed" in page
    assert _desk(match, "confirm/") in page and _desk(match, "audit/") in page
    plain = _seated("none")
    page = owner(plain).get(_desk(plain, "")).content.decode()
    assert _desk(plain, "confirm/") not in page and "to confirm" not in page


def test_games_left_waiting_show_after_confirmation_is_switched_off(
    owner, django_assert_num_queries
) -> None:
    match = _seated("double_entry")
    _enter(match, number=1)
    _disputed(match_seated(players=3, tournament=match.round.tournament))
    tournament = match.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="none")
    tournament.refresh_from_db()
    with django_assert_num_queries(1):  # one count, whatever the setting
        counts = unsettled_counts(tournament=tournament)
    assert counts == {"to_confirm": {"entered": 1, "disputed": 1}, "confirming": False}
    page = owner(match).get(_desk(match, "")).content.decode()
    assert "1 game to confirm" in page and "1 disputed" in page
    assert _desk(match, "confirm/") in page
    listed = owner(match).get(_desk(match, "confirm/")).content.decode()
    assert "were entered before that was set and still wait for a decision" in listed


def test_nobody_confirms_their_own_entry_but_a_co_organiser_does(client: Client) -> None:
    match = _seated("double_entry")
    tournament = match.round.tournament
    game = _enter(match, user=tournament.owner)
    assert game.state == Game.State.ENTERED
    client.force_login(tournament.owner)
    confirm_url = _desk(match, f"games/{game.pk}/confirm/")
    # No button for one's own entry, on either page: a sentence instead.
    for tail in ("confirm/", f"tables/{match.pk}/"):
        page = client.get(_desk(match, tail)).content.decode()
        assert confirm_url not in page, tail
        assert "Entered by you: waits for a second entry by someone else." in page
    response = client.post(_desk(match, f"games/{game.pk}/confirm/"), follow=True)
    assert "You entered game 1 yourself" in response.content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED
    assert not AuditEvent.objects.filter(action=AuditEvent.Action.GAME_CONFIRMED).exists()
    co = UserFactory()
    tournament.co_organisers.add(co)
    client.force_login(co)
    assert confirm_url in client.get(_desk(match, "confirm/")).content.decode()
    client.post(confirm_url)
    game.refresh_from_db()
    assert game.state == Game.State.CONFIRMED and game.confirmed_by == co


def test_a_disputed_game_shows_both_versions_side_by_side(owner) -> None:
    match = _seated("double_entry")
    game = _disputed(match)
    page = owner(match).get(_desk(match, "confirm/")).content.decode()
    assert "First entry (stored)" in page and "Second entry" in page
    assert "10 pts, 0 J" in page and "12 pts, 0 J" in page
    # The scores each version gives: the winner takes the losers' points.
    assert "+20" in page and "+24" in page
    assert page.count(f'action="{_desk(match, f"games/{game.pk}/confirm/")}"') == 2
    assert "Keep first" in page and "Take second" in page
    # The two losers' racks differ (10 against 12 points), the winner's does not:
    # marked in words and bold in both versions, not by colour alone.
    assert page.count('<tr class="differs">') == 4 and page.count(">differs</span>") == 4
    assert "<strong>10 pts, 0 J</strong>" in page and "<strong>12 pts, 0 J</strong>" in page
    winner = match.seats.get(position=1).player.name
    assert f'<tr><th scope="row">{winner}</th>' in page


def test_a_disputed_game_confirmed_without_saying_which_version_is_refused(owner) -> None:
    match = _seated("double_entry")
    game = _disputed(match)
    before = AuditEvent.objects.count()
    response = owner(match).post(_desk(match, f"games/{game.pk}/confirm/"), follow=True)
    assert "Game 1 is disputed: say which version stands" in response.content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.DISPUTED and AuditEvent.objects.count() == before


def test_keep_first_confirms_the_stored_version(owner) -> None:
    match = _seated("double_entry")
    game = _disputed(match)
    client = owner(match)
    response = client.post(_desk(match, f"games/{game.pk}/confirm/"), {"take": "first"})
    assert "confirmed." in client.get(response["Location"]).content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.CONFIRMED and game.second_entry is None
    assert sorted(game.racks.values_list("points", flat=True)) == [0, 10, 10]


def test_take_second_stores_the_second_version_as_a_correction(owner) -> None:
    match = _seated("double_entry")
    game = _disputed(match)
    client = owner(match)
    response = client.post(_desk(match, f"games/{game.pk}/confirm/"), {"take": "second"})
    text = client.get(response["Location"]).content.decode()
    assert "confirmed with the second version" in text
    game.refresh_from_db()
    assert game.state == Game.State.CONFIRMED and game.version == 2
    assert sorted(game.racks.values_list("points", flat=True)) == [0, 12, 12]
    assert AuditEvent.objects.filter(
        action=AuditEvent.Action.GAME_CORRECTED, object_id=game.pk
    ).exists()


@pytest.mark.parametrize("case", ["unknown", "other", "confirmed", "bad-take", "second-of-one"])
def test_a_bad_confirmation_says_why_and_changes_nothing(owner, case: str) -> None:
    match = _seated()
    game = _enter(match)
    other = _enter(_seated())
    if case == "confirmed":
        Game.objects.filter(pk=game.pk).update(state=Game.State.CONFIRMED)
    target = {"unknown": 999999, "other": other.pk}.get(case, game.pk)
    take = {"bad-take": "third", "second-of-one": "second"}.get(case, "first")
    client = owner(match)
    before = AuditEvent.objects.count()
    response = client.post(_desk(match, f"games/{target}/confirm/"), {"take": take}, follow=True)
    expected = {
        "unknown": "That game is no longer there",
        "other": "That game is no longer there",
        "confirmed": "Game 1 of table 1 is already confirmed.",
        "bad-take": "Choose the first or the second version.",
        "second-of-one": "Game 1 has no second version to take.",
    }[case]
    assert expected in response.content.decode()
    assert AuditEvent.objects.count() == before
    other.refresh_from_db()
    assert other.state == Game.State.ENTERED


def test_a_finished_tournament_confirms_nothing(owner) -> None:
    match = _seated()
    game = _enter(match)
    Tournament.objects.filter(pk=match.round.tournament_id).update(
        status=Tournament.Status.FINISHED
    )
    client = owner(match)
    page = client.get(_desk(match, "confirm/")).content.decode()
    assert "results can no longer be entered" in page and "<button" not in page.split("</h1>")[1]
    response = client.post(_desk(match, f"games/{game.pk}/confirm/"), follow=True)
    assert "finished" in response.content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED


def test_confirming_from_the_match_desk_comes_back_there_and_never_elsewhere(owner) -> None:
    match = _seated()
    game = _enter(match)
    client = owner(match)
    desk = _desk(match, f"tables/{match.pk}/")
    page = client.get(desk).content.decode()
    assert "Entered" in page and _desk(match, f"games/{game.pk}/confirm/") in page
    response = client.post(_desk(match, f"games/{game.pk}/confirm/"), {"next": desk})
    assert response["Location"] == desk
    second = _enter(match, number=2)
    for elsewhere in ("https://evil.example/", "//evil.example/t/", "/t/other/organise/"):
        response = client.post(_desk(match, f"games/{second.pk}/confirm/"), {"next": elsewhere})
        assert response["Location"] == _desk(match, "confirm/")


def test_a_disputed_game_on_the_match_desk_leads_to_both_versions(owner) -> None:
    match = _seated("double_entry")
    _disputed(match)
    page = owner(match).get(_desk(match, f"tables/{match.pk}/")).content.decode()
    assert "Disputed" in page and _desk(match, "confirm/") in page
    assert "the second entry differs" in page  # the history line of the dispute


# ----------------------------------------------------------------------------- audit


def test_the_audit_trail_shows_who_did_what_to_which_game(owner) -> None:
    match = _seated()
    game = _enter(match)
    client = owner(match)
    client.post(_desk(match, f"games/{game.pk}/confirm/"))
    response = client.get(_desk(match, "audit/"))
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
    match = _seated("none")
    other = match_seated(players=3, tournament=match.round.tournament)
    play(match, games=1)
    play(other, games=2)
    client = owner(match)
    everything = client.get(_desk(match, "audit/")).context["events"]
    assert len(everything) == 3
    table = client.get(_desk(match, f"audit/?match={match.pk}"))
    assert [e.event.match_id for e in table.context["events"]] == [match.pk]
    assert "History of table 1, round 1" in table.content.decode()
    games = client.get(_desk(match, "audit/?kind=game")).context["events"]
    assert len(games) == 3
    assert client.get(_desk(match, "audit/?kind=settings")).context["events"] == []
    assert len(client.get(_desk(match, "audit/?kind=nonsense")).context["events"]) == 3
    stranger = _seated()
    assert client.get(_desk(match, f"audit/?match={stranger.pk}")).status_code == 404
    assert client.get(_desk(match, "audit/?match=x")).status_code == 404


def test_the_audit_trail_is_paginated_newest_first(owner, monkeypatch) -> None:
    monkeypatch.setattr(desk_audit, "PER_PAGE", 2)
    match = _seated("none", games_per_round=3)
    play(match, games=3)
    client = owner(match)
    first = client.get(_desk(match, "audit/"))
    assert [e.event.game_number for e in first.context["events"]] == [3, 2]
    assert "Page 1 of 2" in first.content.decode() and "?page=2" in first.content.decode()
    second = client.get(_desk(match, "audit/?page=2&kind=game"))
    assert [e.event.game_number for e in second.context["events"]] == [1]


def test_the_match_desk_links_its_history(owner) -> None:
    match = _seated("none")
    page = owner(match).get(_desk(match, f"tables/{match.pk}/")).content.decode()
    assert f"{_desk(match, 'audit/')}?match={match.pk}" in page


# ----------------------------------------------------------------------------- restore


def test_a_deleted_game_is_restored_from_the_trail_once(owner) -> None:
    match = _seated("none", games_per_round=3)
    play(match, games=3)
    game = match.games.get(number=2)
    game_id, scores = game.pk, sorted(game.racks.values_list("score", flat=True))
    client = owner(match)
    client.post(_desk(match, f"tables/{match.pk}/games/2/delete/"), {"version": "1"})
    audit_page = client.get(_desk(match, "audit/"))
    restore = _desk(match, f"audit/{_deletion(match, 2).pk}/restore/")
    assert restore in audit_page.content.decode()
    assert audit_page.context["events"][0].restorable is True
    # The match desk's history offers it too.
    assert restore in client.get(_desk(match, f"tables/{match.pk}/")).content.decode()

    response = client.post(restore, {"next": _desk(match, "audit/")})
    assert response["Location"] == _desk(match, "audit/")
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
    match = _seated("none", games_per_round=3)
    play(match, games=2)
    game = match.games.get(number=2)
    scores = sorted(game.racks.values_list("score", flat=True))
    game_delete(game=game, user=None)
    deletion = _deletion(match, 2)
    AuditEvent.objects.filter(pk=deletion.pk).update(object_id=None)
    client = owner(match)
    restore = _desk(match, f"audit/{deletion.pk}/restore/")
    page = client.get(_desk(match, "audit/"))
    assert page.context["events"][0].restorable is True and restore in page.content.decode()
    response = client.post(restore, follow=True)
    assert "Game 2 of table 1 restored." in response.content.decode()
    back = match.games.get(number=2)
    assert sorted(back.racks.values_list("score", flat=True)) == scores
    assert AuditEvent.objects.filter(object_id=back.pk, action="game.restored").count() == 1


def test_a_deleted_game_whose_number_was_recorded_again_is_not_restored(owner) -> None:
    match = _seated("none", games_per_round=3)
    play(match, games=2)
    game_delete(game=match.games.get(number=2), user=None)
    deletion = _deletion(match, 2)
    _enter(match, user=None, number=2, points=7)
    client = owner(match)
    restore = _desk(match, f"audit/{deletion.pk}/restore/")
    page = client.get(_desk(match, "audit/"))
    assert restore not in page.content.decode()
    before = AuditEvent.objects.count()
    response = client.post(restore, follow=True)
    assert "Game 2 of table 1 is there now" in response.content.decode()
    assert AuditEvent.objects.count() == before
    assert sorted(match.games.get(number=2).racks.values_list("points", flat=True)) == [0, 7, 7]


@pytest.mark.parametrize("case", ["unknown", "other", "not-a-deletion"])
def test_restoring_what_is_not_this_tournaments_deleted_game_says_so(owner, case: str) -> None:
    match = _seated("none")
    play(match, games=1)
    other = _seated("none")
    play(other, games=1)
    gone = other.games.get()
    game_delete(game=gone, user=other.round.tournament.owner)
    recorded = AuditEvent.objects.get(match=match, action=AuditEvent.Action.GAME_RECORDED)
    target = {"unknown": 999999, "other": _deletion(other, 1).pk}.get(case, recorded.pk)
    before = AuditEvent.objects.count()
    response = owner(match).post(_desk(match, f"audit/{target}/restore/"), follow=True)
    assert "no such deleted game" in response.content.decode()
    assert AuditEvent.objects.count() == before and not Game.objects.filter(pk=gone.pk).exists()


# ----------------------------------------------------------------------------- new link


def test_a_new_link_needs_a_confirmation_and_says_to_reprint(owner) -> None:
    match = _seated("none")
    old = match.token
    client = owner(match)
    url = _desk(match, f"tables/{match.pk}/link/")
    assert url in client.get(_desk(match, f"tables/{match.pk}/")).content.decode()
    ask = client.get(url)
    assert ask.status_code == 200 and "stop working at once" in ask.content.decode()
    match.refresh_from_db()
    assert match.token == old
    response = client.post(url)
    assert response["Location"] == _desk(match, f"tables/{match.pk}/")
    text = client.get(response["Location"]).content.decode()
    assert "the old one stopped working" in text and "Reprint table 1" in text
    slug = match.round.tournament.slug
    assert f'<a href="/t/{slug}/rounds/1/scoresheets.pdf">' in text
    match.refresh_from_db()
    assert match.token != old
    assert client.get(f"/m/{old}/").status_code == 410  # says the link was replaced
    event = AuditEvent.objects.get(action=AuditEvent.Action.TOKEN_REGENERATED)
    assert event.match == match and event.old is not None
    assert event.old["token"] == f"…{old[-4:]}"


def test_a_finished_tournament_keeps_its_links(owner) -> None:
    match = _seated("none")
    Tournament.objects.filter(pk=match.round.tournament_id).update(
        status=Tournament.Status.FINISHED
    )
    old = match.token
    response = owner(match).post(_desk(match, f"tables/{match.pk}/link/"), follow=True)
    assert "finished" in response.content.decode()
    match.refresh_from_db()
    assert match.token == old


# ----------------------------------------------------------------------------- who gets in


def _as(client: Client, who: str, tournament: Tournament) -> None:
    if who == "anonymous":
        return
    user = {"owner": tournament.owner, "stranger": UserFactory(), "co": UserFactory()}.get(who)
    if who == "co":
        tournament.co_organisers.add(user)
    if who == "staff":
        user = UserFactory(is_staff=True)
    client.force_login(user)


@pytest.mark.parametrize(
    ("who", "allowed"),
    [("anonymous", False), ("stranger", False), ("owner", True), ("co", True), ("staff", True)],
)
def test_only_organisers_see_the_trust_pages(client: Client, who: str, allowed: bool) -> None:
    match = _seated()
    _enter(match)
    _as(client, who, match.round.tournament)
    for tail in ("confirm/", "audit/", f"audit/?match={match.pk}", f"tables/{match.pk}/link/"):
        response = client.get(_desk(match, tail))
        if who == "anonymous":
            assert response.status_code == 302
            assert response["Location"].startswith("/accounts/login/?next=")
        else:
            assert response.status_code == (200 if allowed else 403), tail


@pytest.mark.parametrize(
    ("who", "allowed"),
    [("anonymous", False), ("stranger", False), ("owner", True), ("co", True), ("staff", True)],
)
def test_only_organisers_confirm_restore_and_renew_links(
    client: Client, who: str, allowed: bool
) -> None:
    match = _seated(games_per_round=3)
    entered = _enter(match, number=1)
    gone = _enter(match, user=None, number=2)
    game_delete(game=gone, user=None)
    deletion = _deletion(match, 2)
    token = match.token
    tournament = match.round.tournament
    _as(client, who, tournament)
    data: dict[str, str]
    for tail, data in (
        (f"games/{entered.pk}/confirm/", {}),
        (f"audit/{deletion.pk}/restore/", {}),
        (f"tables/{match.pk}/link/", {}),
    ):
        response = client.post(_desk(match, tail), data)
        if who == "anonymous":
            assert response["Location"].startswith("/accounts/login/?next=")
        else:
            assert response.status_code == (302 if allowed else 403), tail
    entered.refresh_from_db()
    match.refresh_from_db()
    assert (entered.state == Game.State.CONFIRMED) == allowed
    assert Game.objects.filter(pk=gone.pk).exists() == allowed
    assert (match.token != token) == allowed


def test_a_visit_to_a_post_only_address_leads_back_to_the_desk(owner) -> None:
    match = _seated()
    game = _enter(match)
    client = owner(match)
    recorded = AuditEvent.objects.get(action=AuditEvent.Action.GAME_RECORDED)
    for tail in (f"games/{game.pk}/confirm/", f"audit/{recorded.pk}/restore/"):
        response = client.get(_desk(match, tail))
        assert response.status_code == 405 and _desk(match, "") in response.content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED


def test_a_match_link_holder_reaches_none_of_it(client: Client) -> None:
    match = _seated()
    game = _enter(match)
    assert client.get(f"/m/{match.token}/").status_code == 200
    for tail in ("confirm/", "audit/", f"tables/{match.pk}/link/"):
        assert "/accounts/login/" in client.get(_desk(match, tail))["Location"]
    client.post(_desk(match, f"games/{game.pk}/confirm/"))
    client.post(_desk(match, f"tables/{match.pk}/link/"))
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED
    assert Match.objects.get(pk=match.pk).token == match.token


# ----------------------------------------------------------------------------- queries


def test_the_to_confirm_page_reads_in_a_fixed_number_of_queries(
    owner, django_assert_max_num_queries
) -> None:
    match = _seated("double_entry", games_per_round=4)
    tournament = match.round.tournament
    for number in (1, 2, 3):
        _enter(match, number=number)
    _disputed(match_seated(players=3, tournament=tournament))
    for _ in range(3):
        _enter(match_seated(players=4, tournament=tournament))
    client = owner(match)
    # Session, user, tournament, organiser check, games, racks, seats; the one
    # disputed game's second version reads its seats again (one per disputed game).
    with django_assert_max_num_queries(8):
        response = client.get(_desk(match, "confirm/"))
    assert len(response.context["entered"]) == 6 and len(response.context["disputed"]) == 1


def test_the_audit_page_reads_in_a_fixed_number_of_queries(
    owner, django_assert_max_num_queries
) -> None:
    match = _seated("none", games_per_round=6)
    play(match, games=6)
    for number in (1, 2):
        game_delete(game=match.games.get(number=number), user=None)
    client = owner(match)
    # Session, user, tournament, the match filter, count, page, player names.
    with django_assert_max_num_queries(7):
        response = client.get(_desk(match, f"audit/?match={match.pk}"))
    assert len(response.context["events"]) == 8


def test_the_audit_trail_shows_changed_keys_and_players_by_name(owner) -> None:
    match = _seated("none")
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
    response = client.get(_desk(match, "audit/"))
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
        ("tie-breaks", "wins, table points", "table points"),
    ]
    assert settings.object == "Settings" and settings.event.who() == "the system"
    assert ("player", "—", player.name) in [(c.label, c.old, c.new) for c in entry.changes]
    text = response.content.decode()
    assert "by the system" in text and "Settings changed" in text
    only = client.get(_desk(match, "audit/?kind=settings")).context["events"]
    assert [e.event.action for e in only] == ["settings.changed"]


def test_the_audit_trail_reads_racks_plainly_and_names_the_second_entry_taken(owner) -> None:
    match = _seated("double_entry")
    game = _disputed(match)
    client = owner(match)
    client.post(_desk(match, f"games/{game.pk}/confirm/"), {"take": "second"})
    response = client.get(_desk(match, "audit/"))
    corrected, disputed, recorded = response.context["events"]
    assert corrected.event.action == "game.corrected"
    assert corrected.note == "the second entry taken" and disputed.note == recorded.note == ""
    loser = match.seats.get(position=2).player.name
    rows = {c.label: (c.old, c.new) for c in corrected.changes}
    assert rows[loser] == ("10 pts, 0 J (score -10)", "12 pts, 0 J (score -12)")
    text = response.content.decode()
    assert "the second entry taken" in text and "→" not in text.split("<main")[-1]
    history = client.get(_desk(match, f"tables/{match.pk}/")).content.decode()
    assert "The second entry taken" in history  # the table's history says it too
    # One point is singular.
    assert (
        desk_audit._rack_text({"points": 1, "jokers": 0, "score": "-1"}) == "1 pt, 0 J (score -1)"
    )


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
