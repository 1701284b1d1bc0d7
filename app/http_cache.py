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


def bounded_in_bytes(max_bytes: int) -> LRUCache[Hashable, V]:
    """A least-recently-used memory of rendered text, bounded by what it weighs (cachetools:
    a count bound would let a few 2 MB pages take all the memory). A value heavier than
    `max_bytes` is simply not kept. Callers that share one between threads hold its lock."""
    return LRUCache(maxsize=max_bytes, getsizeof=len)


class Memo(Generic[V]):
    """An LRUCache of text or bytes and the lock that guards it (the share page reads it on
    the event loop and fills it from a worker thread)."""

    def __init__(self, max_bytes: int) -> None:
        self.cache: LRUCache[Hashable, V] = bounded_in_bytes(max_bytes)
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self.lock:
            return self.cache.get(key)

    def put(self, key: Hashable, value: V) -> None:
        # A value heavier than the whole memory raises ValueError: serve it, do not keep it.
        with self.lock, contextlib.suppress(ValueError):
            self.cache[key] = value
