"""config.memory_cache: a worker's cache never holds more bytes than its bound."""

from __future__ import annotations

import os

import pytest
from django.core.cache import caches

from config.memory_cache import ENTRY_OVERHEAD, BoundedMemoryCache

KB = 1024


def _cache(max_bytes: int, max_entries: int = 1000, name: str = "test") -> BoundedMemoryCache:
    cache = BoundedMemoryCache(
        name, {"OPTIONS": {"MAX_BYTES": max_bytes, "MAX_ENTRIES": max_entries}}
    )
    cache.clear()
    return cache


def test_the_sizes_never_pass_the_bound_and_the_least_used_go_first():
    cache = _cache(100 * KB)
    for n in range(200):
        cache.set(f"k{n}", "x" * 4 * KB)
        if n == 5:
            assert cache.get("k0") is not None  # k0 used: it stays longer than k1
        assert cache.stored_bytes() <= 100 * KB
    assert 20 <= len(cache) < 25
    assert cache.get("k1") is None and cache.get("k199") == "x" * 4 * KB


def test_a_value_larger_than_a_tenth_of_the_bound_is_not_kept():
    cache = _cache(100 * KB)
    cache.set("small", "s")
    cache.set("large", "x" * 11 * KB)
    assert cache.get("large") is None and cache.get("small") == "s"
    cache.set("small", "x" * 11 * KB)  # a value grown too large replaces nothing
    assert cache.get("small") is None and cache.stored_bytes() == 0


def test_the_entries_are_bounded_too():
    cache = _cache(100 * KB, max_entries=3)
    for n in range(5):
        cache.set(f"k{n}", n)
    assert len(cache) == 3 and cache.get("k4") == 4 and cache.get("k1") is None


def test_it_is_a_django_cache(monkeypatch):
    cache = _cache(100 * KB)
    value = {"rows": [1, 2]}
    cache.set("a", value)
    cache.get("a")["rows"].append(3)  # a copy: the kept value does not change
    assert cache.get("a") == {"rows": [1, 2]}
    assert cache.add("a", 1) is False and cache.add("b", 1) is True
    assert cache.has_key("b") and cache.delete("b") and not cache.has_key("b")
    cache.set_many({"c": 1, "d": 2})
    assert cache.get_many(["c", "d", "e"]) == {"c": 1, "d": 2}
    assert cache.incr("c") == 2
    assert cache.get("nothing", "default") == "default"
    now = [1000.0]
    monkeypatch.setattr("config.memory_cache.time.time", lambda: now[0])
    cache.set("short", 1, timeout=10)
    assert cache.touch("short", timeout=20)
    now[0] += 15
    assert cache.get("short") == 1
    now[0] += 10
    assert cache.get("short") is None
    cache.clear()
    assert len(cache) == 0 and cache.stored_bytes() == 0


def test_the_size_counts_the_key_and_the_overhead():
    cache = _cache(100 * KB)
    cache.set("key", b"")
    assert ENTRY_OVERHEAD + 3 < cache.stored_bytes() < ENTRY_OVERHEAD + 3 + 40


def test_every_thread_shares_one_store_per_location():
    one, other = _cache(100 * KB, name="shared"), _cache(100 * KB, name="shared")
    one.set("a", 1)
    assert other.get("a") == 1


@pytest.mark.skipif(
    bool(os.environ.get("REDIS_URL")), reason="with REDIS_URL the site cache is Redis (test_caches)"
)
def test_the_site_cache_is_bounded_in_bytes():
    cache = caches["default"]
    assert isinstance(cache, BoundedMemoryCache)
    assert cache.max_bytes == 64 * 1024 * 1024
