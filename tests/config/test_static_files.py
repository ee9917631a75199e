"""Static files in production: hashed names from collectstatic's manifest, kept
by browsers for good, served compressed; with debug on nothing needs collecting."""

from __future__ import annotations

import gzip
import secrets
from pathlib import Path

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client

from tests.config.test_settings import bare_environment, settings_value

MANIFEST = "whitenoise.storage.CompressedManifestStaticFilesStorage"
YEAR = 365 * 24 * 3600


def test_production_serves_hashed_names_and_development_plain_ones():
    production = bare_environment(DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    development = bare_environment(DJANGO_DEBUG="1")
    name = "STORAGES['staticfiles']['BACKEND']"
    assert settings_value(name, production) == MANIFEST
    assert settings_value(name, development) == "whitenoise.storage.CompressedStaticFilesStorage"


def max_age(cache_control: str) -> int:
    ages = [part.split("=", 1)[1] for part in cache_control.split(", ") if part.startswith("max")]
    return int(ages[0])


@pytest.fixture
def collected(settings, tmp_path: Path) -> Path:
    """The project's own static files collected as production collects them
    (Django's and the API docs' files left out: they take a minute to compress)."""
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": MANIFEST}}
    settings.STATIC_ROOT = tmp_path
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.SECURE_SSL_REDIRECT = False
    call_command("collectstatic", interactive=False, verbosity=0)
    return tmp_path


def test_a_collected_file_is_served_under_its_hash_for_a_year_and_compressed(collected: Path):
    url = static("js/site.js")
    assert url.startswith("/static/js/site.") and url != "/static/js/site.js"
    assert (collected / url.removeprefix("/static/")).is_file()
    client = Client()  # its middleware (whitenoise) reads the new STATIC_ROOT
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert max_age(response["Cache-Control"]) >= YEAR
    assert "immutable" in response["Cache-Control"]
    assert response["Content-Encoding"] == "gzip"
    body = gzip.decompress(b"".join(response.streaming_content))
    assert body == (Path("static/js/site.js").read_bytes())
    plain = client.get("/static/js/site.js")
    assert plain.status_code == 200
    assert max_age(plain["Cache-Control"]) < YEAR


@pytest.mark.django_db
def test_pages_and_the_service_worker_name_the_hashed_files(collected: Path):
    client = Client()
    page = client.get("/calculator/").content.decode()
    assert static("css/site.css") in page
    assert static("css/site.css") != "/static/css/site.css"
    worker = client.get("/sw.js").content.decode()
    assert static("js/sw.js") in worker
    assert static("js/offline.js") in worker
