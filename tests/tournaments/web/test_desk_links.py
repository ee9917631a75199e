"""A table's new link from the desk, and who reaches the desk's trust pages."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.tournaments.web.trust_support import (
    deletion_of,
    desk_url,
    enter,
    seated,
)
from tournaments.models import AuditEvent, Game, Match, Tournament
from tournaments.services.games import game_delete

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------------------------- new link


def test_a_new_link_needs_a_confirmation_and_says_to_reprint(owner) -> None:
    match = seated("none")
    old = match.token
    client = owner(match)
    url = desk_url(match, f"tables/{match.pk}/link/")
    assert url in client.get(desk_url(match, f"tables/{match.pk}/")).content.decode()
    ask = client.get(url)
    assert ask.status_code == 200 and "stop working at once" in ask.content.decode()
    match.refresh_from_db()
    assert match.token == old
    response = client.post(url)
    assert response["Location"] == desk_url(match, f"tables/{match.pk}/")
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
    match = seated("none")
    Tournament.objects.filter(pk=match.round.tournament_id).update(
        status=Tournament.Status.FINISHED
    )
    old = match.token
    response = owner(match).post(desk_url(match, f"tables/{match.pk}/link/"), follow=True)
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
    match = seated()
    enter(match)
    _as(client, who, match.round.tournament)
    for tail in ("confirm/", "audit/", f"audit/?match={match.pk}", f"tables/{match.pk}/link/"):
        response = client.get(desk_url(match, tail))
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
    match = seated(games_per_round=3)
    entered = enter(match, number=1)
    gone = enter(match, user=None, number=2)
    game_delete(game=gone, user=None)
    deletion = deletion_of(match, 2)
    token = match.token
    tournament = match.round.tournament
    _as(client, who, tournament)
    data: dict[str, str]
    for tail, data in (
        (f"games/{entered.pk}/confirm/", {}),
        (f"audit/{deletion.pk}/restore/", {}),
        (f"tables/{match.pk}/link/", {}),
    ):
        response = client.post(desk_url(match, tail), data)
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
    match = seated()
    game = enter(match)
    client = owner(match)
    recorded = AuditEvent.objects.get(action=AuditEvent.Action.GAME_RECORDED)
    for tail in (f"games/{game.pk}/confirm/", f"audit/{recorded.pk}/restore/"):
        response = client.get(desk_url(match, tail))
        assert response.status_code == 405 and desk_url(match, "") in response.content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED


def test_a_match_link_holder_reaches_none_of_it(client: Client) -> None:
    match = seated()
    game = enter(match)
    assert client.get(f"/m/{match.token}/").status_code == 200
    for tail in ("confirm/", "audit/", f"tables/{match.pk}/link/"):
        assert "/accounts/login/" in client.get(desk_url(match, tail))["Location"]
    client.post(desk_url(match, f"games/{game.pk}/confirm/"))
    client.post(desk_url(match, f"tables/{match.pk}/link/"))
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED
    assert Match.objects.get(pk=match.pk).token == match.token
