"""The organiser desk: who gets in, and each action posted from it."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.web.support import tournament_played
from tournaments.models import Adjustment, Entry, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("who", "public", "status"),
    [
        ("stranger", True, 403),
        ("stranger", False, 404),
        ("owner", False, 200),
        ("staff", True, 200),
    ],
)
def test_organise_page_permissions(client: Client, who: str, public: bool, status: int) -> None:
    tournament = TournamentFactory(public=public)
    user = {
        "stranger": UserFactory(),
        "owner": tournament.owner,
        "staff": UserFactory(is_staff=True),
    }[who]
    client.force_login(user)
    assert client.get(f"/t/{tournament.slug}/organise/").status_code == status
    posted = client.post(f"/t/{tournament.slug}/organise/seat/")
    assert posted.status_code == (302 if status == 200 else status)


def test_organise_page_sends_anonymous_visitors_to_log_in(client: Client) -> None:
    tournament = TournamentFactory()
    response = client.get(f"/t/{tournament.slug}/organise/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert client.post(f"/t/{tournament.slug}/organise/seat/").status_code == 302
    assert not Round.objects.exists()


@pytest.fixture
def organiser(client: Client) -> tuple[Client, Tournament]:
    tournament = TournamentFactory(slug="club-night", rounds=2, games_per_round=1)
    client.force_login(tournament.owner)
    return client, tournament


def test_organiser_enters_players_and_seats_a_round(organiser) -> None:
    client, tournament = organiser
    players = PlayerFactory.create_batch(5, created_by=tournament.owner)  # players they may see
    response = client.post("/t/club-night/organise/entries/", {"players": [p.pk for p in players]})
    assert response.status_code == 302
    assert Entry.objects.filter(tournament=tournament).count() == 5
    response = client.post("/t/club-night/organise/seat/", follow=True)
    assert "Round 1 seated." in response.content.decode()
    round_ = Round.objects.get(tournament=tournament)
    assert sum(m.seats.count() for m in round_.matches.all()) == 5
    page = client.get("/t/club-night/organise/").content.decode()
    for match in round_.matches.all():
        assert f"/m/{match.token}/" in page


def test_organiser_refused_seating_is_a_message(organiser) -> None:
    client, _tournament = organiser
    response = client.post("/t/club-night/organise/seat/", follow=True)
    assert "at least 2 active players" in response.content.decode()
    assert not Round.objects.exists()


def test_organiser_withdraws_checks_out_and_checks_in(organiser) -> None:
    client, tournament = organiser
    player = PlayerFactory()
    Entry.objects.create(tournament=tournament, player=player)
    base = f"/t/club-night/organise/players/{player.pk}"
    assert client.post(f"{base}/withdraw/").status_code == 302
    assert Entry.objects.get(player=player).status == Entry.Status.WITHDRAWN
    assert client.post(f"{base}/check-in/").status_code == 302
    assert Entry.objects.get(player=player).status == Entry.Status.ACTIVE
    assert client.post(f"{base}/check-out/").status_code == 302
    assert Entry.objects.get(player=player).status == Entry.Status.ABSENT
    assert client.get(f"{base}/withdraw/").status_code == 405
    assert client.post("/t/club-night/organise/players/999999/withdraw/").status_code == 404


def test_organiser_reseats_an_unplayed_round(organiser) -> None:
    client, tournament = organiser
    players = PlayerFactory.create_batch(4)
    Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    client.post("/t/club-night/organise/seat/")
    response = client.post("/t/club-night/organise/rounds/1/reseat/", follow=True)
    assert "Round 1 re-seated." in response.content.decode()
    assert client.post("/t/club-night/organise/rounds/7/reseat/").status_code == 404


def test_organiser_adds_an_adjustment_and_a_refused_one_shows_why(organiser) -> None:
    client, tournament = organiser
    player = PlayerFactory()
    Entry.objects.create(tournament=tournament, player=player)
    url = "/t/club-night/organise/adjustments/"
    ok = client.post(
        url, {"player": player.pk, "kind": "penalty", "points": "10", "reason": "Late"}
    )
    assert ok.status_code == 302
    assert Adjustment.objects.get().points == -10
    bad = client.post(url, {"player": player.pk, "kind": "penalty", "points": "-5", "reason": "x"})
    assert bad.status_code == 400
    assert "Type a number above 0" in bad.context["adjustment_form"].errors["points"][0]
    assert Adjustment.objects.count() == 1


def test_organiser_actions_with_an_impossible_player_id_are_404(client: Client) -> None:
    tournament = tournament_played(tables=1, rounds=1)
    client.force_login(tournament.owner)
    for action in ("withdraw", "check-in", "check-out"):
        url = f"/t/{tournament.slug}/organise/players/99999999999999999999/{action}/"
        assert client.post(url).status_code == 404


def test_organiser_page_reports_repeat_meetings_against_the_bound(client: Client) -> None:
    tournament = tournament_played(tables=2, rounds=2)
    client.force_login(tournament.owner)
    page = client.get(f"/t/{tournament.slug}/organise/").content.decode()
    # Eight players at two tables twice: each new table draws on two old ones,
    # so at least 2 pairs meet again at each: 4 is the bound.
    assert "Repeat meetings so far:" in page and "no seating can have fewer than 4" in page


@pytest.mark.parametrize(
    "path",
    [
        "organise/seat/",
        "organise/rounds/1/swap/",
        "organise/adjustments/",
        "organise/players/new/",
        "organise/entries/",
        "organise/players/1/check-in/",
        "organise/players/import/confirm/",
        "reopen/",
    ],
)
@pytest.mark.parametrize("who", ["owner", "anonymous"])
def test_a_visit_to_a_desk_button_address_leads_back_to_the_desk(
    client: Client, path: str, who: str
) -> None:
    tournament = TournamentFactory(slug="club-night")
    if who == "owner":
        client.force_login(tournament.owner)
    response = client.get(f"/t/club-night/{path}")
    assert response.status_code == 405 and response["Allow"] == "POST"
    html = response.content.decode()
    assert "Use the button on the desk" in html and 'class="site"' in html  # the site layout
    assert 'href="/t/club-night/organise/"' in html
    assert str(tournament.name) not in html  # the address tells nothing about the tournament
