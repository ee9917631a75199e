import pytest

from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_not_found_page_uses_the_site_layout_and_language(client):
    response = client.get("/de/t/no-such-tournament/")
    assert response.status_code == 404
    assert "Nicht gefunden" in response.content.decode()


def test_forbidden_page(client):
    tournament = TournamentFactory()
    client.force_login(UserFactory())
    response = client.get(f"/t/{tournament.slug}/organise/")
    assert response.status_code == 403
    assert "Not allowed" in response.content.decode()
