"""DJANGO_EMAIL_URL read into Django's EMAIL_* settings (config.email)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from config.email import email_settings

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"
DUMMY = "django.core.mail.backends.dummy.EmailBackend"


@pytest.mark.parametrize(
    ("url", "debug", "expected"),
    [
        (None, True, {"EMAIL_BACKEND": CONSOLE}),
        ("", False, {"EMAIL_BACKEND": DUMMY}),
        ("  ", True, {"EMAIL_BACKEND": CONSOLE}),
        ("console:", False, {"EMAIL_BACKEND": CONSOLE}),
        ("console://", False, {"EMAIL_BACKEND": CONSOLE}),
        ("dummy:", True, {"EMAIL_BACKEND": DUMMY}),
        (
            "smtp://user:pass@mail.example.org:587",
            False,
            {
                "EMAIL_BACKEND": SMTP,
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_PORT": 587,
                "EMAIL_HOST_USER": "user",
                "EMAIL_HOST_PASSWORD": "pass",
                "EMAIL_USE_TLS": True,
                "EMAIL_USE_SSL": False,
                "EMAIL_TIMEOUT": 10,
            },
        ),
        (
            "smtp://mail.example.org",
            False,
            {
                "EMAIL_BACKEND": SMTP,
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_PORT": 587,
                "EMAIL_HOST_USER": "",
                "EMAIL_HOST_PASSWORD": "",
                "EMAIL_USE_TLS": True,
                "EMAIL_USE_SSL": False,
                "EMAIL_TIMEOUT": 10,
            },
        ),
        (
            "smtps://me%40example.org:p%2Fss%3Aw@smtp.example.org?from=scores%40example.org&timeout=3",
            False,
            {
                "EMAIL_BACKEND": SMTP,
                "EMAIL_HOST": "smtp.example.org",
                "EMAIL_PORT": 465,
                "EMAIL_HOST_USER": "me@example.org",
                "EMAIL_HOST_PASSWORD": "p/ss:w",
                "EMAIL_USE_TLS": False,
                "EMAIL_USE_SSL": True,
                "EMAIL_TIMEOUT": 3,
                "DEFAULT_FROM_EMAIL": "scores@example.org",
                "SERVER_EMAIL": "scores@example.org",
            },
        ),
        (
            "smtp://localhost:25?tls=off",
            False,
            {
                "EMAIL_BACKEND": SMTP,
                "EMAIL_HOST": "localhost",
                "EMAIL_PORT": 25,
                "EMAIL_HOST_USER": "",
                "EMAIL_HOST_PASSWORD": "",
                "EMAIL_USE_TLS": False,
                "EMAIL_USE_SSL": False,
                "EMAIL_TIMEOUT": 10,
            },
        ),
    ],
)
def test_an_email_url_names_its_settings(
    url: str | None, debug: bool, expected: dict[str, Any]
) -> None:
    assert email_settings(url, debug=debug) == expected


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("smtpx://host", "unknown scheme 'smtpx'"),
        ("mailto:me@example.org", "unknown scheme 'mailto'"),
        ("smtp://", "names its host"),
        ("smtp://host:port", "whole numbers"),
        ("smtp://host?timeout=soon", "whole numbers"),
        ("smtp://host?timeout=0", "at least 1 second"),
        ("smtp://host?ssl=1", "unknown option 'ssl'"),
    ],
)
def test_a_bad_email_url_is_refused_with_what_is_wrong(url: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        email_settings(url, debug=False)


@given(user=st.text(min_size=1, max_size=30), password=st.text(min_size=1, max_size=30))
def test_any_user_and_password_come_back_as_written(user: str, password: str) -> None:
    url = f"smtp://{quote(user, safe='')}:{quote(password, safe='')}@mail.example.org:2525"
    found = email_settings(url, debug=False)
    assert (found["EMAIL_HOST_USER"], found["EMAIL_HOST_PASSWORD"]) == (user, password)
    assert (found["EMAIL_HOST"], found["EMAIL_PORT"]) == ("mail.example.org", 2525)
