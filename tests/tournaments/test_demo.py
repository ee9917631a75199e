import pytest
from django.core.management import CommandError, call_command
from django.http import HttpRequest

from tournaments.models import Game, Round, Tournament
from tournaments.selectors.standings import standings_for

pytestmark = pytest.mark.django_db


def test_load_demo_builds_three_rounds_two_played_and_is_idempotent():
    call_command("load_demo", force=True)
    call_command("load_demo", force=True)
    tournament = Tournament.objects.get(slug="autumn-open")
    assert tournament.entries.count() == 16
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3]
    played = [Game.objects.filter(match__round=r).count() for r in rounds]
    assert played == [16, 16, 0]  # 4 tables x 4 games, twice
    assert sum(row.score for row in standings_for(tournament=tournament)) == 0


@pytest.mark.parametrize(
    "url",
    [
        "/admin/tournaments/tournament/",
        "/admin/tournaments/game/",
        "/admin/tournaments/player/",
        "/admin/tournaments/auditevent/",
    ],
)
def test_admin_lists_the_demo(client, url):
    call_command("load_demo", force=True)
    client.login(request=HttpRequest(), username="admin", password="admin")
    response = client.get(url)
    assert response.status_code == 200
    if "tournament/" in url:
        assert "Autumn Open 2026" in response.content.decode()


def test_load_demo_refuses_with_debug_off_unless_forced(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--force"):
        call_command("load_demo")
    assert not Tournament.objects.exists()
    settings.DEBUG = True
    call_command("load_demo")
    assert Tournament.objects.filter(slug="autumn-open").exists()
