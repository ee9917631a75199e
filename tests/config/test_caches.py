"""config.caches: one node keeps its caches in memory and a folder; with
REDIS_URL every node shares one Redis (the Redis tests run when REDIS_URL is
set: scripts/test-postgres.sh sets it)."""

from __future__ import annotations

import os
import secrets
from typing import Any

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.utils.safestring import SafeString, mark_safe

from config.caches import REDIS_BACKEND, cache_settings
from tests.config.test_settings import bare_environment, settings_value
from tournaments.caching import cached

REDIS_URL = os.environ.get("REDIS_URL", "")
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set")


@pytest.mark.parametrize(
    ("redis_url", "default", "files"),
    [
        (
            None,
            "config.memory_cache.BoundedMemoryCache",
            "django.core.cache.backends.filebased.FileBasedCache",
        ),
        (
            "",
            "config.memory_cache.BoundedMemoryCache",
            "django.core.cache.backends.filebased.FileBasedCache",
        ),
        ("redis://cache.internal:6379/0", REDIS_BACKEND, REDIS_BACKEND),
    ],
)
def test_redis_url_moves_both_caches_to_redis(redis_url, default, files):
    made = cache_settings(redis_url=redis_url, memory_max_bytes=8 << 20, files_dir="/srv/files")
    assert (made["default"]["BACKEND"], made["files"]["BACKEND"]) == (default, files)
    if redis_url:
        assert {made[a]["LOCATION"] for a in made} == {redis_url}
        # One server, two caches: their keys never meet.
        assert made["default"]["KEY_PREFIX"] != made["files"]["KEY_PREFIX"]
        assert made["default"]["OPTIONS"]["socket_timeout"] > 0
    else:
        assert made["default"]["OPTIONS"]["MAX_BYTES"] == 8 << 20
        assert made["files"]["LOCATION"] == "/srv/files"


def test_the_production_settings_read_redis_url():
    env = bare_environment(
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50), REDIS_URL="redis://127.0.0.1:6379/3"
    )
    values = settings_value(
        "CACHES['default']['BACKEND'], settings.CACHES['files']['BACKEND'], "
        "settings.CACHES['files']['LOCATION']",
        env,
    )
    assert values == f"{REDIS_BACKEND} {REDIS_BACKEND} redis://127.0.0.1:6379/3"


def two_nodes(params: dict[str, Any]) -> tuple[RedisCache, RedisCache]:
    """Two clients of one cache, each with its own connections, as two nodes have."""
    return RedisCache(params["LOCATION"], params), RedisCache(params["LOCATION"], params)


@needs_redis
def test_the_suite_runs_on_redis_when_redis_url_is_set():
    assert isinstance(caches["default"], RedisCache)
    assert isinstance(caches["files"], RedisCache)


@needs_redis
def test_a_pdf_one_node_keeps_the_other_reads(settings):
    first, second = two_nodes(settings.CACHES["files"])
    pdf = b"%PDF-1.7\n" + secrets.token_bytes(6 * 1024 * 1024)  # several MB: fine
    first.set("t1.123.v9:sheets:a4", pdf, 60)
    assert second.get("t1.123.v9:sheets:a4") == pdf
    assert caches["default"].get("t1.123.v9:sheets:a4") is None  # another prefix


@needs_redis
def test_pages_one_node_builds_the_other_serves(settings):
    first, second = two_nodes(settings.CACHES["default"])
    boxes = {f"t1.5.u3:box:en:visitor:m{pk}.v{pk}": mark_safe(f"<p>{pk}</p>") for pk in range(250)}
    first.set_many(boxes, 60)
    found = second.get_many(list(boxes))
    assert found == boxes
    assert all(isinstance(box, SafeString) for box in found.values())
    built: list[str] = []

    def build() -> str:
        built.append("page")
        return "<table>standings</table>"

    key = "t1.5.v7:page-standings:en"
    pages = [cached(cache="default", key=key, build=build) for _ in range(3)]
    assert pages == ["<table>standings</table>"] * 3
    assert built == ["page"]
    assert second.get(key) == pages[0]  # what this node built
