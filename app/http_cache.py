"""HTTP caching of immutable resources (shares and their exports): ETag, 304, Cache-Control,
and a bounded in-process memory of what was already rendered."""

import contextlib
import threading
from collections.abc import Hashable
from typing import Generic, TypeVar

from cachetools import LRUCache
from starlette.requests import Request


def immutable_headers(request: Request, etag: str) -> dict[str, str]:
    """Headers of a share: it never changes, so caches may keep it for SHARE_MAX_AGE."""
    max_age = request.app.state.settings.share_max_age
    return {"ETag": f'"{etag}"', "Cache-Control": f"public, max-age={max_age}, immutable"}


def not_modified(request: Request, etag: str) -> bool:
    """Whether If-None-Match names `etag` (strong or weak, in a list, or *)."""
    header = request.headers.get("if-none-match")
    if header is None:
        return False
    candidates = {part.strip().removeprefix("W/").strip('"') for part in header.split(",")}
    return etag in candidates or "*" in candidates


V = TypeVar("V", str, bytes)
# What an entry costs besides its value: the key, the LRU's bookkeeping (a rough upper
# bound, so that many small entries cannot outgrow the budget either).
ENTRY_OVERHEAD = 256


def weight(key: Hashable, value: str | bytes) -> int:
    """Bytes an entry holds. Bytes are what they weigh; a str is counted 4 bytes a
    character unless it is ASCII (CPython stores a whole string at the width of its widest
    character: one emoji makes every character 4 bytes)."""
    size = len(value) if isinstance(value, bytes) else len(value) * (1 if value.isascii() else 4)
    return size + ENTRY_OVERHEAD + len(repr(key))


def bounded_in_bytes(max_bytes: int) -> "LRUCache[Hashable, tuple[V, int]]":
    """A least-recently-used memory of rendered text, bounded by what it weighs in bytes
    (cachetools: a count bound would let a few 2 MB pages take all the memory). Each value
    is stored with its weight. Callers that share one between threads hold its lock."""
    return LRUCache(maxsize=max_bytes, getsizeof=lambda item: item[1])


class Memo(Generic[V]):
    """An LRUCache of text or bytes and the lock that guards it (the share page reads it on
    the event loop and fills it from a worker thread). A value heavier than the whole
    memory is not kept."""

    def __init__(self, max_bytes: int) -> None:
        self.cache: LRUCache[Hashable, tuple[V, int]] = bounded_in_bytes(max_bytes)
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self.lock:
            item = self.cache.get(key)
        return None if item is None else item[0]

    def put(self, key: Hashable, value: V) -> None:
        # A value heavier than the whole memory raises ValueError: serve it, do not keep it.
        item = (value, weight(key, value))
        with self.lock, contextlib.suppress(ValueError):
            self.cache[key] = item
