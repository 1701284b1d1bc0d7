"""HTTP caching of immutable resources (shares and their exports): ETag, 304, Cache-Control,
and a bounded in-process memory of what was already rendered."""

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

from starlette.requests import Request

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


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


class LRU(Generic[K, V]):
    """A bounded mapping that forgets the least recently used entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self.items.get(key)
        if value is not None:
            self.items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)
