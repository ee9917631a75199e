"""The in-process cache, bounded in bytes: what one worker may keep in memory.

Vocabulary: an *entry* is a key and its value, stored pickled (as Django's
own local-memory cache stores it, so a value read is a copy); its *size* is
the pickled value's and the key's length plus ``ENTRY_OVERHEAD``, what the
process spends on the entry's objects. ``MAX_BYTES`` (``OPTIONS``) bounds
the sizes' sum: past it the least recently used entries go, and a value
larger than a tenth of the bound is not kept at all (it would push out a
large part of the rest). ``MAX_ENTRIES`` bounds their number too.

Django's ``LocMemCache`` bounds only the number of entries, whatever their
size: a standings page of 1,000 rows is 0.9 MB, so its 20,000 entries could
hold 18 GB. Every thread of the process shares one store per
``LOCATION``, as there.
"""

from __future__ import annotations

import pickle
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

# What an entry costs beyond its bytes: the key's and value's objects, the
# dictionary slot, the expiry (measured: about 230 bytes in CPython 3.11).
ENTRY_OVERHEAD = 256
# A value larger than this share of the bound is built but not kept.
LARGEST_SHARE = 10


@dataclass
class Store:
    """One cache's entries, least recently used first, with their sizes' sum."""

    entries: OrderedDict[str, tuple[float | None, bytes]] = field(default_factory=OrderedDict)
    size: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


_stores: dict[str, Store] = {}
_stores_lock = threading.Lock()


def _entry_size(key: str, pickled: bytes) -> int:
    return len(key) + len(pickled) + ENTRY_OVERHEAD


class BoundedMemoryCache(BaseCache):
    """A local-memory cache whose entries' sizes sum to ``MAX_BYTES`` at most."""

    pickle_protocol = pickle.HIGHEST_PROTOCOL

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        options = params.get("OPTIONS", {})
        self.max_bytes = int(options.get("MAX_BYTES", 64 * 1024 * 1024))
        self.max_entries = int(options.get("MAX_ENTRIES", 300))
        self.largest = self.max_bytes // LARGEST_SHARE
        with _stores_lock:
            self.store = _stores.setdefault(name, Store())

    # ------------------------------------------------------------------ the store

    def stored_bytes(self) -> int:
        """The sizes' sum now (at most ``max_bytes``)."""
        return self.store.size

    def __len__(self) -> int:
        return len(self.store.entries)

    def _expiry(self, timeout: float | None) -> float | None:
        """When an entry set now with ``timeout`` expires (None: never)."""
        expiry: float | None = self.get_backend_timeout(timeout)
        return expiry

    def _alive(self, key: str) -> bytes | None:
        """The entry's pickled value, marked as just used; None if absent or expired
        (an expired one is dropped). Called with the store's lock held."""
        found = self.store.entries.get(key)
        if found is None:
            return None
        expiry, pickled = found
        if expiry is not None and expiry <= time.time():
            self._drop(key)
            return None
        self.store.entries.move_to_end(key)
        return pickled

    def _drop(self, key: str) -> bool:
        found = self.store.entries.pop(key, None)
        if found is None:
            return False
        self.store.size -= _entry_size(key, found[1])
        return True

    def _put(self, key: str, value: Any, timeout: float | None) -> bool:
        """Stores the value unless it is too large; called with the lock held."""
        pickled = pickle.dumps(value, self.pickle_protocol)
        self._drop(key)
        size = _entry_size(key, pickled)
        if size > self.largest:
            return False
        self.store.entries[key] = (self._expiry(timeout), pickled)
        self.store.size += size
        while self.store.size > self.max_bytes or len(self.store.entries) > self.max_entries:
            oldest = next(iter(self.store.entries))
            self._drop(oldest)
        return True

    # ------------------------------------------------------------------ Django's API

    def add(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self.store.lock:
            if self._alive(key) is not None:
                return False
            return self._put(key, value, timeout)

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        with self.store.lock:
            pickled = self._alive(key)
        return default if pickled is None else pickle.loads(pickled)  # our own bytes

    def set(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        key = self.make_and_validate_key(key, version=version)
        with self.store.lock:
            self._put(key, value, timeout)

    def touch(
        self, key: str, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self.store.lock:
            pickled = self._alive(key)
            if pickled is None:
                return False
            self.store.entries[key] = (self._expiry(timeout), pickled)
            return True

    def delete(self, key: str, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self.store.lock:
            return self._drop(key)

    def has_key(self, key: str, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self.store.lock:
            return self._alive(key) is not None

    def clear(self) -> None:
        with self.store.lock:
            self.store.entries.clear()
            self.store.size = 0
