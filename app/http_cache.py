"""HTTP caching of immutable resources (shares and their exports) and of pages named by the
version of their data (a campaign's standings, a gang's public page): ETag, 304,
Cache-Control, and a bounded in-process memory of what was already rendered."""

import contextlib
import functools
import hashlib
import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from cachetools import LRUCache
from starlette.requests import Request

from app.settings import ROOT

# The files a page is computed and drawn with: their hash is part of the ETag of a page
# named by its data's version (`build`).
_DRAWN_WITH = ("app", "templates", "static", "data")
_SOURCES = frozenset({".py", ".html", ".css", ".js", ".json", ".txt", ".svg", ".yaml", ".toml"})


def immutable_headers(request: Request, etag: str) -> dict[str, str]:
    """Headers of a share: it never changes, so caches may keep it for SHARE_MAX_AGE."""
    max_age = request.app.state.settings.share_max_age
    return {"ETag": f'"{etag}"', "Cache-Control": f"public, max-age={max_age}, immutable"}


@functools.cache
def build() -> str:
    """A short hash of the code, templates, static files and data this process serves (read
    once): part of the ETag of every page named by its data's version, so that after a
    deploy that changes how such a page is computed or drawn no copy is answered 304."""
    digest = hashlib.sha256()
    for folder in _DRAWN_WITH:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in _SOURCES and path.is_file():
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def versioned_headers(request: Request, etag: str) -> dict[str, str]:
    """Headers of a public page named by its data's version: caches may keep it
    CAMPAIGN_MAX_AGE seconds, then revalidate it by its ETag."""
    max_age = request.app.state.settings.campaign_max_age
    return {"ETag": f'"{etag}"', "Cache-Control": f"public, max-age={max_age}"}


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
    memory is not kept. With `second_sight` > 0, a value is kept at its key's second `put`
    only, the last `second_sight` keys put once remembered (a cache's « doorkeeper »): values
    put once, a stream of bodies sent once, neither fill it nor push out those that come
    back."""

    def __init__(self, max_bytes: int, second_sight: int = 0) -> None:
        self.cache: LRUCache[Hashable, tuple[V, int]] = bounded_in_bytes(max_bytes)
        self.lock = threading.Lock()
        self.seen_once: LRUCache[Hashable, bool] | None = (
            LRUCache(maxsize=second_sight) if second_sight > 0 else None
        )

    def get(self, key: Hashable) -> V | None:
        with self.lock:
            item = self.cache.get(key)
        return None if item is None else item[0]

    def put(self, key: Hashable, value: V) -> None:
        if self.seen_once is not None:
            with self.lock:
                if self.seen_once.pop(key, None) is None:  # its first sight: remembered
                    self.seen_once[key] = True
                    return
        # A value heavier than the whole memory raises ValueError: serve it, do not keep it.
        item = (value, weight(key, value))
        with self.lock, contextlib.suppress(ValueError):
            self.cache[key] = item


K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class Entries(Generic[K, T]):
    """A least-recently-used memory of up to `most` computed values (of a bounded size
    each, so counted rather than weighed), and the lock that guards it."""

    def __init__(self, most: int) -> None:
        self.cache: LRUCache[K, T] = LRUCache(maxsize=most)
        self.lock = threading.Lock()

    def get(self, key: K) -> T | None:
        with self.lock:
            return self.cache.get(key)

    def put(self, key: K, value: T) -> None:
        with self.lock:
            self.cache[key] = value


_MEMORIES_LOCK = threading.Lock()


def memory(request: Request, name: str, make: Callable[[], T]) -> T:
    """The app's memory `name` (on app.state, one per app), made by `make` at its first use."""
    state = request.app.state
    found: T | None = getattr(state, name, None)
    if found is None:
        with _MEMORIES_LOCK:
            found = getattr(state, name, None)
            if found is None:
                found = make()
                setattr(state, name, found)
    return found
