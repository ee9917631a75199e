"""GET /healthz: 200 while the database answers with its schema, 503 when it does
not, or when its SQLite file is gone (and the probe does not create it)."""

from __future__ import annotations

import logging
import sqlite3
from unittest import mock

import pytest
from django.db import OperationalError

pytestmark = pytest.mark.django_db


def test_a_working_database_answers_ok_without_login_and_uncached(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-store" in response["Cache-Control"]


def test_a_database_that_does_not_answer_is_a_503_logged_as_a_warning_only(client, caplog):
    broken = mock.MagicMock()
    broken.__enter__.return_value.execute.side_effect = OperationalError("connection refused")
    with (
        mock.patch("config.health.connection.cursor", return_value=broken),
        caplog.at_level(logging.WARNING),
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable"}
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "OperationalError" in caplog.records[0].getMessage()


def test_only_reads_are_allowed(client):
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200


def _sqlite_at(path):
    """A connection to the SQLite file at ``path``, configured as the site's."""
    from django.db import connection
    from django.db.backends.sqlite3.base import DatabaseWrapper

    # Under PostgreSQL the site's options are psycopg's, which SQLite does not take.
    options = connection.settings_dict["OPTIONS"] if connection.vendor == "sqlite" else {}
    return DatabaseWrapper(
        {**connection.settings_dict, "NAME": str(path), "OPTIONS": options}, alias="probe"
    )


def test_a_moved_away_sqlite_file_is_a_503_and_no_empty_file_is_made(client, tmp_path):
    gone = tmp_path / "db.sqlite3"
    with mock.patch("config.health.connection", _sqlite_at(gone)):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable"}
    assert not gone.exists()


def test_a_database_without_the_schema_is_a_503(client, tmp_path):
    # What SQLite leaves once a page has opened the missing file: an empty database.
    empty = tmp_path / "db.sqlite3"
    sqlite3.connect(empty).close()
    probe = _sqlite_at(empty)
    try:
        with mock.patch("config.health.connection", probe):
            response = client.get("/healthz")
    finally:
        probe.close()
    assert empty.exists()
    assert response.status_code == 503


def test_a_database_file_with_the_schema_is_ok(client, tmp_path):
    ready = tmp_path / "db.sqlite3"
    with sqlite3.connect(ready) as made:
        made.execute("CREATE TABLE tournaments_tournament (id integer primary key)")
    probe = _sqlite_at(ready)
    try:
        with mock.patch("config.health.connection", probe):
            response = client.get("/healthz")
    finally:
        probe.close()
    assert response.status_code == 200
