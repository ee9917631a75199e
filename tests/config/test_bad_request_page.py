"""A request refused before any view (an unknown Host header) gets the site's own 400 page."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_an_unknown_host_gets_the_sites_400_page(client, settings) -> None:
    settings.ALLOWED_HOSTS = ["rackscore.example"]
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    page = response.content.decode()
    assert "<h1>Bad request.</h1>" in page and "Check the address" in page
