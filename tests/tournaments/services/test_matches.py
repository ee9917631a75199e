"""Replacing a match's link: the new token works, the old one finds nothing,
and the trail keeps only the tokens' last four characters."""

from __future__ import annotations

import pytest

from scoring.errors import ConflictError
from tests.factories import match_seated
from tournaments.models import AuditEvent, Match, Tournament, match_token_digest
from tournaments.services.matches import match_token_regenerate

pytestmark = pytest.mark.django_db


def test_regenerating_changes_the_token_and_the_old_one_stops():
    match = match_seated(players=3)
    old = match.token
    organiser = match.round.tournament.owner
    changed = match_token_regenerate(match=match, user=organiser)
    assert changed.token != old and len(changed.token) == len(old)
    assert not Match.objects.filter(token=old).exists()
    assert Match.objects.get(token=changed.token) == match
    event = AuditEvent.objects.get()
    assert event.action == AuditEvent.Action.TOKEN_REGENERATED
    assert (event.user, event.match, event.object_id) == (organiser, match, match.pk)
    assert event.old == {"token": f"…{old[-4:]}", "digest": match_token_digest(old)}
    assert event.new == {"token": f"…{changed.token[-4:]}"}
    # Neither token is in the trail whole.
    stored = str(event.old) + str(event.new)
    assert old not in stored and changed.token not in stored


def test_a_command_regenerates_as_the_system():
    match = match_seated(players=3)
    match_token_regenerate(match=match, user=None)
    event = AuditEvent.objects.get()
    assert event.via == "system" and event.user is None and event.match == match


def test_a_finished_tournament_keeps_its_links():
    match = match_seated(players=3)
    Tournament.objects.filter(pk=match.round.tournament_id).update(
        status=Tournament.Status.FINISHED
    )
    with pytest.raises(ConflictError) as refused:
        match_token_regenerate(match=match, user=match.round.tournament.owner)
    assert refused.value.status == 409
    assert Match.objects.get(pk=match.pk).token == match.token
    assert not AuditEvent.objects.exists()
