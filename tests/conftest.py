import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from hypothesis import settings as hypothesis_settings

# The rules are pure functions: many quick examples in CI, fewer by hand.
hypothesis_settings.register_profile("ci", max_examples=150, deadline=None)
hypothesis_settings.register_profile("dev", max_examples=60, deadline=None)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Factories hash a password for every user; the real hasher costs ~0.7 s each.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _english_unless_asked():
    # A request under /de/ leaves German active in this thread; start every
    # test in the default language so reverse() and messages do not depend
    # on which test ran before.
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


class _StandingClock:
    """A clock that never moves: every build takes no time."""

    def time(self) -> float:
        return 1_000_000.0


@pytest.fixture(autouse=True)
def _no_rest_after_a_build(monkeypatch):
    # How long a flight rests after a build depends on how long the build
    # took (tournaments.caching.BUILD_REST), and a busy test machine makes a
    # 4-player body slow enough to rest: a test that is not about the rest
    # would then see the page before its last game. The tests of the rest
    # set a clock of their own.
    from tournaments import caching

    monkeypatch.setattr(caching, "time", _StandingClock())


@pytest.fixture(autouse=True)
def _no_chance_sweep_of_idempotency_keys(monkeypatch):
    # One keyed claim in a hundred also sweeps the expired keys (a delete more):
    # a count of a keyed write's statements would fail once in a hundred runs.
    # The tests of the sweep set the chance they need.
    from tournaments.services import idempotency

    monkeypatch.setattr(idempotency, "PURGE_CHANCE", 0.0)


@pytest.fixture(autouse=True)
def _empty_caches(settings, tmp_path_factory):
    # Pages and files are cached by tournament version; ids restart with
    # every test's database, so no test may meet another's entries.
    from django.core.cache import caches

    settings.CACHES = {
        alias: cache_of_this_process(params, folder=tmp_path_factory.getbasetemp() / "files-cache")
        for alias, params in settings.CACHES.items()
    }
    for alias in ("default", "files"):
        caches[alias].clear()
    yield


def cache_of_this_process(params: dict[str, Any], *, folder: Path) -> dict[str, Any]:
    """A cache's settings for this test process alone: a folder cache in ``folder``,
    a Redis cache (REDIS_URL, scripts/test-postgres.sh) in a Redis database of its
    own, 1 to 15 by xdist worker (its ``clear()`` empties the whole database; 0 is
    left to the servers)."""
    if params["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache":
        return {**params, "LOCATION": str(folder)}
    if params["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
        database = 1 + int(worker or 0) % 15
        url = urlsplit(params["LOCATION"])
        location = urlunsplit((url.scheme, url.netloc, f"/{database}", url.query, ""))
        return {**params, "LOCATION": location}
    return params
