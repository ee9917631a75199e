"""Login protection on every login path: 5 wrong passwords for one username
from one address lock that pair for 15 minutes (config.login_guard)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db.models import F
from django.test import Client
from django.utils import timezone

from config.login_guard import client_address
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "secret-pass-123"
HOME = "10.0.0.1"


@dataclass(frozen=True)
class LoginPath:
    url: str
    api: bool  # a JSON body and JSON answers
    ok: int  # the status of a successful login
    refused: int  # the status of a wrong password


PATHS = {
    "site": LoginPath("/accounts/login/", api=False, ok=302, refused=200),
    "admin": LoginPath("/admin/login/", api=False, ok=302, refused=200),
    "api-token": LoginPath("/api/v1/auth/token/", api=True, ok=200, refused=400),
    "api-session": LoginPath("/api/v1/auth/login/", api=False, ok=302, refused=200),
}


def login(path: LoginPath, username: str, password: str, address: str = HOME):
    client = Client(REMOTE_ADDR=address)
    data = {"username": username, "password": password}
    if path.api:
        return client.post(path.url, data, content_type="application/json")
    return client.post(path.url, data)


def fail(path: LoginPath, username: str, times: int, address: str = HOME) -> None:
    for _ in range(times):
        assert login(path, username, "wrong", address).status_code == path.refused


def assert_locked(path: LoginPath, response) -> None:
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 900
    if path.url.startswith("/api/"):
        assert response["Content-Type"] == "application/json"
        assert "Too many failed logins" in response.json()["detail"]
    else:
        assert "Too many failed logins" in response.content.decode()
    assert "_auth_user_id" not in response.client.session


@pytest.fixture
def alice():
    return UserFactory(username="alice", is_staff=True)


@pytest.mark.parametrize("name", PATHS)
def test_the_fifth_failure_locks_and_the_sixth_try_is_refused_even_with_the_password(name, alice):
    path = PATHS[name]
    fail(path, "alice", 4)
    fifth = login(path, "alice", "wrong")
    assert_locked(path, fifth)
    assert fifth["Retry-After"] == "900"
    assert_locked(path, login(path, "alice", PASSWORD))


@pytest.mark.parametrize("name", PATHS)
def test_a_lock_holds_only_that_username_at_that_address(name, alice):
    path = PATHS[name]
    UserFactory(username="bob", is_staff=True)
    fail(path, "alice", 4)
    assert_locked(path, login(path, "alice", "wrong"))
    assert login(path, "bob", PASSWORD).status_code == path.ok
    assert login(path, "alice", PASSWORD, address="10.0.0.2").status_code == path.ok


@pytest.mark.parametrize("name", PATHS)
def test_the_lock_lifts_after_the_cool_off(name, alice):
    path = PATHS[name]
    fail(path, "alice", 4)
    assert_locked(path, login(path, "alice", "wrong"))
    # Ten minutes later: still locked, for the five minutes left.
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=10))
    locked = login(path, "alice", PASSWORD)
    assert_locked(path, locked)
    assert 295 <= int(locked["Retry-After"]) <= 300
    # Fifteen minutes after the last failure: the right password works again.
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=5, seconds=1))
    assert login(path, "alice", PASSWORD).status_code == path.ok


def test_tries_during_a_lock_do_not_extend_it(alice):
    path = PATHS["api-token"]
    fail(path, "alice", 4)
    assert_locked(path, login(path, "alice", "wrong"))
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=14))
    assert_locked(path, login(path, "alice", "wrong"))
    assert int(login(path, "alice", "wrong")["Retry-After"]) <= 60


def test_failures_older_than_the_cool_off_do_not_count(alice):
    path = PATHS["site"]
    fail(path, "alice", 4)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    fail(path, "alice", 4)
    assert login(path, "alice", PASSWORD).status_code == path.ok


def test_a_successful_login_clears_the_count(alice):
    path = PATHS["api-token"]
    fail(path, "alice", 4)
    assert login(path, "alice", PASSWORD).status_code == path.ok
    fail(path, "alice", 4)
    assert login(path, "alice", PASSWORD).status_code == path.ok


def test_an_unknown_username_is_locked_the_same_way():
    path = PATHS["api-token"]
    fail(path, "nobody", 4)
    assert_locked(path, login(path, "nobody", "wrong"))


def test_the_locked_page_is_translated(alice):
    path = PATHS["site"]
    fail(path, "alice", 4)
    assert_locked(path, login(path, "alice", "wrong"))
    response = Client(REMOTE_ADDR=HOME).post(
        "/de/accounts/login/", {"username": "alice", "password": PASSWORD}
    )
    assert response.status_code == 429
    assert '<html lang="de">' in response.content.decode()


def test_the_openapi_document_declares_the_lock_on_the_token_login(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    answers = schema["paths"]["/api/v1/auth/token/"]["post"]["responses"]
    assert "Retry-After" in answers["429"]["headers"]


# ----------------------------------------------------------------------------- client address


class FakeRequest:
    def __init__(self, remote: str, forwarded: str | None = None) -> None:
        self.META = {"REMOTE_ADDR": remote}
        if forwarded is not None:
            self.META["HTTP_X_FORWARDED_FOR"] = forwarded


def test_without_proxies_the_forwarded_header_is_ignored(settings):
    settings.RACKSCORE_PROXY_COUNT = 0
    assert client_address(FakeRequest("10.0.0.9", "1.2.3.4")) == "10.0.0.9"


def test_behind_one_proxy_the_address_it_saw_counts_not_what_the_client_wrote(settings):
    settings.RACKSCORE_PROXY_COUNT = 1
    assert client_address(FakeRequest("127.0.0.1", "1.2.3.4")) == "1.2.3.4"
    # A forged entry on the left proves nothing: nginx appended the real address.
    assert client_address(FakeRequest("127.0.0.1", "6.6.6.6, 1.2.3.4")) == "1.2.3.4"
    assert client_address(FakeRequest("127.0.0.1")) == "127.0.0.1"


def test_behind_two_proxies_the_outer_ones_view_counts(settings):
    settings.RACKSCORE_PROXY_COUNT = 2
    request = FakeRequest("10.0.0.5", "6.6.6.6, 1.2.3.4, 10.0.0.4")
    assert client_address(request) == "1.2.3.4"


def test_behind_a_proxy_each_client_address_is_locked_apart(settings, alice):
    settings.RACKSCORE_PROXY_COUNT = 1
    path = PATHS["api-token"]
    client = Client(REMOTE_ADDR="127.0.0.1")

    def attempt(password: str, forwarded: str):
        return client.post(
            path.url,
            {"username": "alice", "password": password},
            content_type="application/json",
            HTTP_X_FORWARDED_FOR=forwarded,
        )

    for _ in range(4):
        assert attempt("wrong", "1.2.3.4").status_code == 400
    assert attempt("wrong", "1.2.3.4").status_code == 429
    assert attempt(PASSWORD, "1.2.3.4").status_code == 429
    assert attempt(PASSWORD, "5.6.7.8").status_code == 200
