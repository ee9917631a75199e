"""The game admin: games recorded and corrected through the game services, on the demo."""

import pytest
from django.core.management import call_command
from django.http import HttpRequest

from tournaments.models import Game, Round

pytestmark = pytest.mark.django_db


def test_admin_game_form_refuses_an_invalid_game_through_the_service(client):
    call_command("load_demo", force=True)
    client.login(request=HttpRequest(), username="admin", password="admin")
    round3 = Round.objects.get(tournament__slug="autumn-open", number=3)
    match = round3.matches.order_by("table").first()
    seats = list(match.seats.order_by("position"))
    data = {"match": match.pk, "ending": "rummikub"}
    for seat in seats:
        data[f"player_{seat.position}"] = seat.player_id
        data[f"tiles_{seat.position}"] = "R5 R5 R5"
    response = client.post("/admin/tournaments/game/add/", data)
    assert response.status_code == 200
    assert "Tile R5 appears 12 times" in response.content.decode()
    assert not Game.objects.filter(match=match).exists()
    data.update({f"tiles_{seats[0].position}": ""})
    for seat in seats[1:]:
        data[f"tiles_{seat.position}"] = ""
        data[f"points_{seat.position}"] = 7
    response = client.post("/admin/tournaments/game/add/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(match=match)
    assert {r.score for r in game.racks.all()} == {21, -7}


def test_admin_match_page_lists_its_games_with_links(client):
    call_command("load_demo", force=True)
    client.login(request=HttpRequest(), username="admin", password="admin")
    game = Game.objects.order_by("id").first()
    response = client.get(f"/admin/tournaments/match/{game.match_id}/change/")
    assert response.status_code == 200
    assert f"/admin/tournaments/game/{game.pk}/change/" in response.content.decode()


def test_admin_corrects_a_game_through_the_service(client):
    call_command("load_demo", force=True)
    client.login(request=HttpRequest(), username="admin", password="admin")
    game = Game.objects.order_by("id").first()
    url = f"/admin/tournaments/game/{game.pk}/change/"
    page = client.get(url).content.decode()
    assert 'name="tiles_1"' in page and 'name="points_4"' in page
    racks = list(game.racks.order_by("position"))
    data = {"match": game.match_id, "ending": "pool_exhausted"}
    for i, rack in enumerate(racks):
        data[f"player_{rack.position}"] = rack.player_id
        data[f"points_{rack.position}"] = 10 * (i + 1)
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    game.refresh_from_db()
    assert game.version == 2 and game.ending == "pool_exhausted"
    assert [r.score for r in game.racks.order_by("position")] == [60, -10, -20, -30]
    assert game.match.audit.filter(action="game.corrected", object_id=game.pk).exists()
