"""The desk's pages and actions read in a fixed number of queries, whatever the
size of the event: each count is pinned here, at two sizes."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import ClubFactory, match_seated, tournament_entered
from tests.tournaments.ratings.support import rating_locks
from tests.tournaments.web.support import play
from tests.tournaments.web.trust_support import deletion_of, desk_url
from tournaments.models import Adjustment, Entry, Round, Tournament
from tournaments.services.audit import audit_add
from tournaments.services.games import game_delete

pytestmark = pytest.mark.django_db


def seated_event(client: Client, *, players: int) -> Tournament:
    """``players`` entered and a first round seated, its last table played a game."""
    tournament = tournament_entered(players=players, rounds=3, games_per_round=2)
    client.force_login(tournament.owner)
    assert client.post(f"/t/{tournament.slug}/organise/seat/").status_code == 302
    return tournament


def test_the_desk_reads_in_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries
) -> None:
    for players in (8, 16):
        tournament = seated_event(client, players=players)
        last = Round.objects.get(tournament=tournament).matches.order_by("table").last()
        play(last, games=1)
        Adjustment.objects.create(
            tournament=tournament, player=last.seats.first().player, points=-5, reason="Late"
        )
        with django_assert_num_queries(15):
            assert client.get(f"/t/{tournament.slug}/organise/").status_code == 200


def test_reseat_asks_in_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries
) -> None:
    for players in (8, 16):
        tournament = seated_event(client, players=players)
        with django_assert_num_queries(5):
            assert client.get(f"/t/{tournament.slug}/organise/rounds/1/reseat/").status_code == 200


def test_a_refused_swap_reads_in_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries
) -> None:
    for players in (8, 16):
        tournament = seated_event(client, players=players)
        url = f"/t/{tournament.slug}/organise/rounds/1/swap/"
        with django_assert_num_queries(19):
            assert client.post(url, {"player_a": "", "player_b": ""}).status_code == 400


def test_an_adjustment_is_added_in_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries
) -> None:
    for players in (8, 16):
        tournament = seated_event(client, players=players)
        entry = Entry.objects.filter(tournament=tournament).first()
        url = f"/t/{tournament.slug}/organise/adjustments/"
        body = {"player": entry.player_id, "kind": "bonus", "points": "3", "reason": "Fair"}
        with django_assert_num_queries(11):
            assert client.post(url, body).status_code == 302


def test_a_withdrawal_asks_and_runs_in_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries
) -> None:
    tournament = seated_event(client, players=8)
    player_id = Entry.objects.filter(tournament=tournament).first().player_id
    base = f"/t/{tournament.slug}/organise/players/{player_id}/withdraw/"
    with django_assert_num_queries(5):
        assert client.get(f"{base}confirm/").status_code == 200
    with django_assert_num_queries(10):
        assert client.post(base).status_code == 302


def test_an_adjustment_deletion_asks_in_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries
) -> None:
    tournament = seated_event(client, players=8)
    entry = Entry.objects.filter(tournament=tournament).first()
    adjustment = Adjustment.objects.create(
        tournament=tournament, player=entry.player, points=-5, reason="Late"
    )
    url = f"/t/{tournament.slug}/organise/adjustments/{adjustment.pk}/delete/"
    with django_assert_num_queries(4):
        assert client.get(url).status_code == 200


def test_the_audit_page_narrowed_to_a_table_and_a_kind_reads_in_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries
) -> None:
    for games in (2, 6):
        match = match_seated(players=3, confirmation="none", games_per_round=games)
        play(match, games=games)
        game_delete(game=match.games.get(number=1), user=None)
        client.force_login(match.round.tournament.owner)
        url = desk_url(match, f"audit/?match={match.pk}&kind=game")
        with django_assert_num_queries(7):
            response = client.get(url)
        assert len(response.context["events"]) == games + 1


def test_an_event_naming_a_club_reads_it_by_name(client: Client, django_assert_num_queries) -> None:
    match = match_seated(players=2)
    tournament = match.round.tournament
    club = ClubFactory(name="Rummy Rovers")
    audit_add(
        tournament=tournament,
        action="settings.changed",
        old={"club": None},
        new={"club": club.pk},
    )
    client.force_login(tournament.owner)
    with django_assert_num_queries(6):
        response = client.get(desk_url(match, "audit/?kind=settings"))
    assert [(c.label, c.new) for c in response.context["events"][0].changes] == [
        ("club", "Rummy Rovers")
    ]


def test_a_restore_runs_in_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries
) -> None:
    match = match_seated(players=3, confirmation="none", games_per_round=3)
    play(match, games=3)
    game_delete(game=match.games.get(number=2), user=None)
    client.force_login(match.round.tournament.owner)
    url = desk_url(match, f"audit/{deletion_of(match, 2).pk}/restore/")
    # 17, and 12 to replay the ratings from the restored game (a later one exists).
    with django_assert_num_queries(17 + 12 + rating_locks(replay=True)):
        assert client.post(url).status_code == 302
    assert match.games.filter(number=2).exists()
