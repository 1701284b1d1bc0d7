"""A least-recently-used mapping bounded in bytes, not in entries.

For caches whose values vary in size by orders of magnitude (a rendered share page is 5 kB
or 2 MB): a count bound lets a few heavy values take all the memory. Each value is
weighed once, when stored, by `weigh` (default: len, for str and bytes); a value heavier
than `max_bytes / 4` is not stored (serving it again costs one render, not the cache).
Not thread-safe by itself: callers that share one between threads hold a lock around it
(`ByteBoundedLRU.lock` is provided for that).
"""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sized
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _length(value: object) -> int:
    return len(value) if isinstance(value, Sized) else 1


class ByteBoundedLRU(Generic[K, V]):
    """At most `max_bytes` of values (as `weigh` counts them), least recently used out first."""

    def __init__(
        self,
        max_bytes: int,
        *,
        weigh: Callable[[V], int] = _length,
        max_item_fraction: float = 0.25,
    ) -> None:
        if max_bytes <= 0:
            raise ValueError("max_bytes must be positive")
        self.max_bytes = max_bytes
        self.max_item_bytes = int(max_bytes * max_item_fraction)
        self.weigh = weigh
        self.total = 0
        self.lock = threading.Lock()
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: K) -> V | None:
        found = self._items.get(key)
        if found is None:
            return None
        self._items.move_to_end(key)
        return found[0]

    def put(self, key: K, value: V) -> bool:
        """Stores `value`; False when it is too heavy to keep (nothing else is evicted)."""
        weight = self.weigh(value)
        if weight > self.max_item_bytes:
            self.discard(key)
            return False
        self.discard(key)
        self._items[key] = (value, weight)
        self.total += weight
        while self.total > self.max_bytes:
            _key, (_value, dropped) = self._items.popitem(last=False)
            self.total -= dropped
        return True

    def discard(self, key: K) -> None:
        found = self._items.pop(key, None)
        if found is not None:
            self.total -= found[1]
