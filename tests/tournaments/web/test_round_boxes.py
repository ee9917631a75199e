"""The tables' boxes of the public pages, each cached on its own: a game
recorded at one table re-renders that table's box only, a change naming no
match (a rename, a setting) reaches every box, an organiser's boxes never
reach a visitor, and the standings rows are computed once per version."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.tournaments.web.support import play, tournament_played
from tournaments.caching import tournament_version, tournament_version_unmatched
from tournaments.models import Match, Player, Tournament
from tournaments.services.players import player_update
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db

BOX = "tournaments/_match_box.html"


def _boxes_rendered(response) -> int:
    return sum(1 for t in response.templates if t.name == BOX)


def _round_url(tournament: Tournament) -> str:
    return f"/t/{tournament.slug}/rounds/1/"


def test_a_recorded_game_re_renders_only_its_tables_box(client: Client) -> None:
    tournament = tournament_played(tables=5, games=1)
    assert _boxes_rendered(client.get(_round_url(tournament))) == 5
    match = Match.objects.get(round__tournament=tournament, table=3)
    play(match, games=2, seed=9)
    response = client.get(_round_url(tournament))
    assert _boxes_rendered(response) == 1
    planned = match.round.games_per_match
    assert f"3 of {planned} games" in response.content.decode()
    # The tournament page shows the same round: its boxes come from the cache too.
    assert _boxes_rendered(client.get(f"/t/{tournament.slug}/")) == 0


def test_a_recorded_game_costs_the_queries_of_one_box(
    client: Client, django_assert_num_queries
) -> None:
    tournament = tournament_played(tables=8, games=1)
    client.get(_round_url(tournament))
    play(Match.objects.get(round__tournament=tournament, table=2), games=2, seed=9)
    # tournament, its version, rounds, tables with their versions, the unmatched
    # version, the changed match + seats + games + racks, round list
    with django_assert_num_queries(10):
        assert client.get(_round_url(tournament)).status_code == 200


def test_a_rename_reaches_every_box(client: Client) -> None:
    tournament = tournament_played(tables=4, games=1)
    client.get(_round_url(tournament))
    player = Player.objects.filter(seats__round__tournament=tournament).first()
    assert player is not None
    player_update(player=player, name="Renamed Rita")
    response = client.get(_round_url(tournament))
    assert _boxes_rendered(response) == 4
    assert "Renamed Rita" in response.content.decode()


def test_a_setting_reaches_every_box(client: Client) -> None:
    tournament = tournament_played(tables=3, games=1)
    assert "state-confirmed" not in client.get(_round_url(tournament)).content.decode()
    tournament_update(tournament=tournament, confirmation="organiser")
    response = client.get(_round_url(tournament))
    assert _boxes_rendered(response) == 3
    assert response.content.decode().count("state-confirmed") == 3


def test_organiser_boxes_never_reach_a_visitor() -> None:
    tournament = tournament_played(tables=2, games=1)
    organiser, other = Client(), Client()
    organiser.force_login(tournament.owner)
    other.force_login(UserFactory())
    tokens = list(
        Match.objects.filter(round__tournament=tournament).values_list("token", flat=True)
    )
    assert all(t in organiser.get(_round_url(tournament)).content.decode() for t in tokens)
    for viewer in (Client(), other):
        text = viewer.get(_round_url(tournament)).content.decode()
        assert not any(t in text for t in tokens)
        assert "Enter results" not in text
    # And the other way round: a visitor's boxes first, then the organiser's own.
    play(Match.objects.get(round__tournament=tournament, table=1), games=2, seed=5)
    Client().get(_round_url(tournament))
    assert all(t in organiser.get(_round_url(tournament)).content.decode() for t in tokens)


def test_each_language_has_its_own_boxes(client: Client) -> None:
    tournament = tournament_played(tables=2, games=1)
    assert "Table 1" in client.get(_round_url(tournament)).content.decode()
    danish = client.get(f"/da{_round_url(tournament)}").content.decode()
    assert "Table 1" not in danish and "Bord 1" in danish


def test_the_standings_are_computed_once_per_version(
    client: Client, django_assert_max_num_queries
) -> None:
    tournament = tournament_played(tables=3, games=1)
    client.get(f"/t/{tournament.slug}/")
    # The rows the tournament page computed: the tournament, its version, games waiting.
    with django_assert_max_num_queries(3):
        assert client.get(f"/t/{tournament.slug}/standings/").status_code == 200
    play(Match.objects.get(round__tournament=tournament, table=1), games=2, seed=3)
    rows = client.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["results"]
    # Two more games at one table of four: the new version computes the rows again.
    assert sum(row["games"] for row in rows) == 3 * 4 + 2 * 4


def test_the_unmatched_version_moves_only_for_writes_naming_no_match() -> None:
    tournament = tournament_played(tables=2, games=1)
    before = tournament_version_unmatched(tournament=tournament)
    play(Match.objects.get(round__tournament=tournament, table=1), games=2, seed=4)
    assert tournament_version_unmatched(tournament=tournament) == before
    assert tournament_version(tournament=tournament) > before
    tournament_update(tournament=tournament, name="Renamed Open")
    assert tournament_version_unmatched(tournament=tournament) == tournament_version(
        tournament=tournament
    )
