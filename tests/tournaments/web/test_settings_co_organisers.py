"""Co-organisers on the web: the settings form invites (the same words whether or
not an account has the name), the invited user answers on the home page, and a
co-organiser's form keeps the owner's rights (visibility, organisers) out of reach;
the club list holds only clubs the user may use."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tests.tournaments.web.test_settings import form_of
from tournaments.models import CoOrganiserInvitation

pytestmark = pytest.mark.django_db


def _invited_message(client: Client, t, name: str) -> str:
    client.force_login(t.owner)
    page = client.post(f"/t/{t.slug}/edit/", form_of(t) | {"co_organisers": name}, follow=True)
    assert page.status_code == 200
    return page.content.decode().replace(name, "<name>").replace(t.name, "<t>")


def test_the_form_invites_and_says_the_same_for_any_name(client: Client) -> None:
    UserFactory(username="ann")
    known = TournamentFactory(public=False, name="Cup A")
    unknown = TournamentFactory(public=False, name="Cup B", owner=known.owner)
    said = _invited_message(client, known, "ann")
    assert "Invited to co-organise: <name>." in said
    other = _invited_message(client, unknown, "nosuchuser")
    assert "Invited to co-organise: <name>." in other and "There is no user" not in other
    assert not known.co_organisers.exists()
    edit = client.get(f"/t/{unknown.slug}/edit/").content.decode()
    assert "Invited, not answered yet: nosuchuser." in edit


def test_the_invited_user_answers_on_the_home_page(client: Client) -> None:
    t = TournamentFactory(public=False, name="Secret Cup")
    ann = UserFactory(username="ann")
    _invited_message(client, t, "ann")
    client.force_login(ann)
    home = client.get("/").content.decode()
    assert "Invitations to co-organise" in home and "Secret Cup" in home
    assert client.get(f"/t/{t.slug}/organise/").status_code == 404
    invitation = CoOrganiserInvitation.objects.get()
    assert client.get(f"/invitations/{invitation.pk}/accept/").status_code == 405
    outsider = Client()
    outsider.force_login(UserFactory())
    assert outsider.post(f"/invitations/{invitation.pk}/accept/").status_code == 404
    response = client.post(f"/invitations/{invitation.pk}/accept/")
    assert response["Location"] == f"/t/{t.slug}/organise/"
    assert client.get(f"/t/{t.slug}/organise/").status_code == 200
    assert "Invitations to co-organise" not in client.get("/").content.decode()


def test_declining_on_the_web(client: Client) -> None:
    t = TournamentFactory(public=False)
    ann = UserFactory(username="ann")
    _invited_message(client, t, "ann")
    client.force_login(ann)
    invitation = CoOrganiserInvitation.objects.get()
    assert "Accept" in client.get("/invitations/").content.decode()
    assert client.post(f"/invitations/{invitation.pk}/decline/").status_code == 302
    assert not CoOrganiserInvitation.objects.exists() and not t.co_organisers.exists()


def test_a_co_organisers_form_keeps_visibility_and_organisers(client: Client) -> None:
    t = TournamentFactory(public=False)
    co, bob = UserFactory(username="co"), UserFactory(username="bob")
    t.co_organisers.add(co, bob)
    client.force_login(co)
    page = client.get(f"/t/{t.slug}/edit/").content.decode()
    assert 'name="public"' in page and "disabled" in page
    posted = form_of(t) | {"public": "on", "co_organisers": "co, carl", "rounds": "6"}
    assert client.post(f"/t/{t.slug}/edit/", posted).status_code == 302
    t.refresh_from_db()
    assert (t.public, t.rounds) == (False, 6)
    assert sorted(u.username for u in t.co_organisers.all()) == ["bob", "co"]
    assert not CoOrganiserInvitation.objects.exists()


def test_the_club_list_holds_only_clubs_one_may_use(client: Client) -> None:
    stranger = UserFactory()
    hidden = ClubFactory(name="Hidden Club", created_by=stranger, public=False)
    TournamentFactory(owner=stranger, public=False, club=hidden)
    shown = ClubFactory(name="Open Club", created_by=stranger)
    TournamentFactory(owner=stranger, public=True, club=shown)
    me = UserFactory()
    own = ClubFactory(name="My Club", created_by=me)
    client.force_login(me)
    page = client.get("/t/new/").content.decode()
    assert "Open Club" in page and "My Club" in page and "Hidden Club" not in page
    assert own.pk
    t = TournamentFactory(owner=me)
    refused = client.post(f"/t/{t.slug}/edit/", form_of(t) | {"club": str(hidden.pk)})
    assert refused.status_code == 400
    t.refresh_from_db()
    assert t.club is None
