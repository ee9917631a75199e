"""GET /healthz: 200 while the database answers, 503 when it does not."""

from __future__ import annotations

import logging
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
