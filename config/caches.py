"""Where the caches live: each process's memory and a local folder, or one Redis.

Vocabulary: the *default* cache keeps pages and their fragments, the *files*
cache keeps built files (PDFs, several MB each); both are keyed by a
tournament's version (``tournaments.caching``), so an entry is never stale,
only unused. A *node* is one machine (or container) running the web workers.
With one node, the default cache is each worker's memory
(``config.memory_cache``, bounded in bytes) and the files cache a folder the
node's workers share. With several nodes behind a load balancer, nothing that
one node builds may be missing on the next: ``REDIS_URL`` puts both caches in
one Redis server through Django's own ``RedisCache``, each under its own key
prefix. Redis is a cache here, never a store: it may evict any entry (README:
``maxmemory-policy allkeys-lru``), which costs a rebuild and nothing else.
What must survive and be shared (the login lock's failures, idempotency keys,
games) lives in the database.
"""

from __future__ import annotations

from typing import Any

REDIS_BACKEND = "django.core.cache.backends.redis.RedisCache"
MEMORY_BACKEND = "config.memory_cache.BoundedMemoryCache"
FOLDER_BACKEND = "django.core.cache.backends.filebased.FileBasedCache"
# A request waits at most this long for Redis (connecting, then each answer):
# a Redis that hangs must not hold a worker until gunicorn's timeout.
REDIS_TIMEOUT_SECONDS = 5
# A 1,000-player round alone keeps 250 table boxes per language and audience.
MEMORY_MAX_ENTRIES = 20000
FOLDER_MAX_ENTRIES = 500


def cache_settings(
    *, redis_url: str | None, memory_max_bytes: int, files_dir: str
) -> dict[str, dict[str, Any]]:
    """Django's ``CACHES``: both caches in Redis when ``redis_url`` is given, else
    the memory cache (``memory_max_bytes`` per worker) and the folder ``files_dir``."""
    if redis_url:
        redis_options = {
            "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
            "socket_timeout": REDIS_TIMEOUT_SECONDS,
        }
        return {
            alias: {
                "BACKEND": REDIS_BACKEND,
                "LOCATION": redis_url,
                "KEY_PREFIX": f"rackscore-{alias}",
                "OPTIONS": redis_options,
            }
            for alias in ("default", "files")
        }
    return {
        "default": {
            "BACKEND": MEMORY_BACKEND,
            "LOCATION": "rackscore",
            "OPTIONS": {"MAX_BYTES": memory_max_bytes, "MAX_ENTRIES": MEMORY_MAX_ENTRIES},
        },
        "files": {
            "BACKEND": FOLDER_BACKEND,
            "LOCATION": files_dir,
            "OPTIONS": {"MAX_ENTRIES": FOLDER_MAX_ENTRIES},
        },
    }
