"""The desk's "Enter several players at once": the organiser's own players only
(made by them, from their tournaments, members of their clubs), as checkboxes
with a filter box, never every player of the server in a multi-select."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import (
    ClubFactory,
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Entry
from tournaments.selectors.people import players_known_not_entered

pytestmark = pytest.mark.django_db


def _world():
    organiser, stranger = UserFactory(), UserFactory()
    club = ClubFactory(created_by=organiser)
    own = PlayerFactory(name="Own Made", created_by=organiser)
    member = PlayerFactory(name="Club Member", club=club, created_by=stranger)
    earlier = TournamentFactory(owner=organiser)
    veteran = PlayerFactory(name="Earlier Veteran", created_by=stranger)
    EntryFactory(tournament=earlier, player=veteran)
    # Seen by everyone (a public tournament of a stranger), but not the organiser's.
    elsewhere = TournamentFactory(owner=stranger, public=True)
    outsider = PlayerFactory(name="Public Outsider", created_by=stranger)
    EntryFactory(tournament=elsewhere, player=outsider)
    EntryFactory(tournament=elsewhere, player=member)  # a member the organiser may see
    tournament = TournamentFactory(owner=organiser)
    entered = PlayerFactory(name="Already In", created_by=organiser)
    EntryFactory(tournament=tournament, player=entered)
    return organiser, tournament, {"own": own, "member": member, "veteran": veteran,
                                   "outsider": outsider, "entered": entered}  # fmt: skip


def test_only_the_organisers_players_are_offered_to_tick() -> None:
    organiser, tournament, p = _world()
    known = players_known_not_entered(tournament=tournament, user=organiser)
    assert sorted(x.name for x in known) == ["Club Member", "Earlier Veteran", "Own Made"]

    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{tournament.slug}/organise/").content.decode()
    section = page.split('class="stack pick-many"', 1)[1].split("</form>", 1)[0]
    assert "<select" not in section and 'data-pick-filter="#pick-players"' in section
    ticks = re.findall(r'<input type="checkbox" name="players" value="(\d+)"', section)
    assert sorted(map(int, ticks)) == sorted(x.pk for x in (p["own"], p["member"], p["veteran"]))
    assert "Public Outsider" not in section


def test_ticked_players_are_entered_and_anyone_visible_still_can_be() -> None:
    organiser, tournament, p = _world()
    client = Client()
    client.force_login(organiser)
    answer = client.post(
        f"/t/{tournament.slug}/organise/entries/",
        {"players": [p["own"].pk, p["member"].pk, p["outsider"].pk]},
    )
    assert answer.status_code == 302
    entered = set(
        Entry.objects.filter(tournament=tournament).values_list("player__name", flat=True)
    )
    assert {"Own Made", "Club Member", "Public Outsider"} <= entered


def test_the_category_field_says_what_a_category_is() -> None:
    organiser, tournament, _players = _world()
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{tournament.slug}/organise/").content.decode()
    assert 'aria-describedby="category-help"' in page
    help_text = page.split('id="category-help">', 1)[1].split("</p>", 1)[0]
    assert "U14" in help_text and "ranked among themselves" in help_text
    page = client.get(f"/da/t/{tournament.slug}/organise/").content.decode()
    assert "Kategori: en valgfri gruppe" in page
