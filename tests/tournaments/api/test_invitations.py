"""Withdrawing an invitation and removing a co-organiser: one view, given the
service, documented as two operations."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory, UserFactory
from tests.tournaments.api.conftest import client_as
from tournaments.api.invitations import (
    TournamentByUsernameView,
    TournamentCoOrganiserView,
    TournamentInvitationView,
)
from tournaments.models import CoOrganiserInvitation

pytestmark = pytest.mark.django_db


def test_both_deletions_are_one_view():
    # The documentation copies the method onto each; the code is the one view's.
    for view in (TournamentInvitationView, TournamentCoOrganiserView):
        assert issubclass(view, TournamentByUsernameView)
        assert view.delete.__qualname__ == "TournamentByUsernameView.delete"


@pytest.mark.parametrize(
    ("kind", "gone"),
    [("invitations", "an invitation"), ("co-organisers", "a co-organiser")],
)
def test_each_deletion_takes_its_own_away_and_refuses_alike(kind, gone):
    tournament = TournamentFactory()
    co, waiting, other = UserFactory(username="co"), "later", UserFactory(username="other")
    tournament.co_organisers.add(co, other)
    CoOrganiserInvitation.objects.create(tournament=tournament, username=waiting)
    url = f"/api/v1/tournaments/{tournament.pk}/{kind}/"
    name = waiting if kind == "invitations" else "co"
    owner = client_as(tournament.owner)
    assert client_as(other).delete(url + f"{name}/").status_code == 403, gone
    assert owner.delete(url + f"{name}/").status_code == 204, gone
    assert owner.delete(url + f"{name}/").status_code == 404, gone
    assert (
        not CoOrganiserInvitation.objects.filter(username=waiting).exists() or kind != "invitations"
    )
    assert list(tournament.co_organisers.all()) == (
        [co, other] if kind == "invitations" else [other]
    )


def test_the_schema_keeps_two_operations():
    schema = client_as().get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    invitation = paths["/api/v1/tournaments/{tournament_id}/invitations/{username}/"]["delete"]
    co_organiser = paths["/api/v1/tournaments/{tournament_id}/co-organisers/{username}/"]["delete"]
    assert invitation["operationId"] == "tournaments_invitations_withdraw"
    assert co_organiser["operationId"] == "tournaments_co_organisers_remove"
    assert invitation["summary"] == "Withdraw an invitation"
