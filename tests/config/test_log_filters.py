"""Match tokens never reach a log line whole (config.log_filters)."""

from __future__ import annotations

import copy
import io
import logging
import logging.config
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.conf import settings as django_settings

from config import gunicorn as gunicorn_config
from config.log_filters import MatchTokenMask, match_tokens_masked

TOKEN = "AbCdEfGhIjKlMnOpQrStUvWx"


def test_paths_and_headers_keep_only_the_last_four_characters():
    text = (
        f"Bad Request: /m/{TOKEN}/ then /de/m/{TOKEN}/correct/?x=1 "
        f"'HTTP_X_MATCH_TOKEN': '{TOKEN}' X-Match-Token: {TOKEN}"
    )
    masked = match_tokens_masked(text)
    assert TOKEN not in masked
    assert "/m/…UvWx/" in masked and "/de/m/…UvWx/correct/" in masked
    assert "'HTTP_X_MATCH_TOKEN': '…UvWx'" in masked and "X-Match-Token: …UvWx" in masked
    assert match_tokens_masked(masked) == masked


@pytest.mark.parametrize(
    "path",
    [
        f"/m/%20{TOKEN}/",  # a leading blank, as the request line shows it
        f"/m/ {TOKEN}/",  # ... and as Django's "Not Found: %s" shows it, decoded
        f"/m/\t\n{TOKEN}/",
        f"/m/%09%0A%0d{TOKEN}/",
        f"/m/+{TOKEN}/",
        f"/m/%2520{TOKEN}/",  # encoded twice
        f"/m//{TOKEN}/",
        f"/m%2F{TOKEN}/",  # the router decodes %2F: this opens the match page
        f"/m%2f{TOKEN}/",
        f"/%6D/{TOKEN}/",
        f"%2Fm%2F{TOKEN}%2Fcorrect%2F",  # a path inside a query string
        f"%252Fm%252F{TOKEN}%252F",
        f"/de/m/%20{TOKEN}/timer/",
    ],
)
def test_a_token_is_masked_however_its_path_is_encoded(path):
    masked = match_tokens_masked(f"Not Found: {path} and GET {path} HTTP/1.1")
    assert TOKEN not in masked
    assert masked.count("…UvWx") == 2


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/reset/MQ/d4k2xq-0123456789abcdef0123456789abcdef/",
        "/da/accounts/reset/MQ/d4k2xq-0123456789abcdef0123456789abcdef/",
    ],
)
def test_a_password_reset_links_token_is_masked(path):
    masked = match_tokens_masked(f"GET {path} HTTP/1.1")
    assert "0123456789abcdef0123456789abcdef" not in masked
    assert "/accounts/reset/MQ/…cdef/" in masked


def test_the_reset_forms_own_address_is_untouched():
    text = "GET /accounts/reset/MQ/set-password/ HTTP/1.1"
    assert match_tokens_masked(text) == text


def test_other_paths_are_untouched():
    text = "GET /t/autumn-open/rounds/2/ /api/v1/matches/7/token/ /media/x"
    assert match_tokens_masked(text) == text


def record_through(handler_filter: logging.Filter, *args, exc: bool = False) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(handler_filter)
    logger = logging.getLogger("tests.masking")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        if exc:
            try:
                raise ValueError(f"no match at /m/{TOKEN}/")
            except ValueError:
                logger.exception(*args)
        else:
            logger.warning(*args)
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_the_filter_masks_arguments_and_tracebacks():
    assert TOKEN not in record_through(MatchTokenMask(), "Bad Request: %s", f"/m/{TOKEN}/")
    logged = record_through(MatchTokenMask(), "failed %s", f"/m/{TOKEN}/timer/", exc=True)
    assert TOKEN not in logged and "/m/…UvWx/timer/" in logged and "ValueError" in logged


def test_every_handler_in_the_settings_masks():
    for name, handler in django_settings.LOGGING["handlers"].items():
        assert "match_tokens" in handler.get("filters", []), name
    for name, handler in gunicorn_config.logconfig_dict["handlers"].items():
        assert "match_tokens" in handler.get("filters", []), name


@contextmanager
def logging_into(config: dict[str, Any]) -> Iterator[io.StringIO]:
    """The given logging configuration with every handler writing to one buffer."""
    buffer = io.StringIO()
    config = copy.deepcopy(config)
    for handler in config["handlers"].values():
        handler["stream"] = buffer
    logging.config.dictConfig(config)
    try:
        yield buffer
    finally:
        logging.config.dictConfig(django_settings.LOGGING)


@pytest.mark.django_db
def test_a_bad_request_on_a_match_page_logs_no_token(client):
    # Through the settings' own handlers (pytest's log capture would see the
    # record before a handler's filter does): what the server would print.
    client.raise_request_exception = False
    with logging_into(django_settings.LOGGING) as logged:
        logging.getLogger("django.request").warning(
            "Bad Request: %s", f"/m/{TOKEN}/", extra={"status_code": 400}
        )
        client.get(f"/m/{TOKEN}/")  # no such match: a 404 warning naming the path
        client.post(f"/m/{TOKEN}/timer/")
        logging.getLogger("django.server").info('"GET /m/%s/ HTTP/1.1" 200 12', TOKEN)
    text = logged.getvalue()
    assert "Bad Request: /m/…UvWx/" in text and '"GET /m/…UvWx/ HTTP/1.1"' in text
    assert TOKEN not in text


def test_the_gunicorn_access_log_masks():
    with logging_into(gunicorn_config.logconfig_dict) as logged:
        logging.getLogger("gunicorn.access").info(
            '%(h)s "%(r)s" %(s)s "%(f)s"',
            {
                "h": "10.0.0.1",
                "r": f"POST /m/{TOKEN}/ HTTP/1.1",
                "s": "302",
                "f": f"https://example.org/m/{TOKEN}/",
            },
        )
    text = logged.getvalue()
    assert "POST /m/…UvWx/ HTTP/1.1" in text and TOKEN not in text
