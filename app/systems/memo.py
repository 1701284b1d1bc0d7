"""The engines' memory of per-entry work (issue 19).

A list is validated and summarized at every save, and a save changes one entry: the other
entries' results and summary lines are the same as last time. Each engine keeps them here,
keyed by what they are computed from: the entry itself (its canonical JSON), its index
(issue paths name it) and whatever else of the list the engine reads for it; list-wide
rules (points limits, AVA, a general's uniqueness, group orders...) run at every call.
Values are shared between calls: engines copy what they change afterwards (an entry's
issues), and nothing downstream changes a result or a line (they are copied with
`model_copy` when something is added).

Bounded by count, one memory per engine and kind (entries, lines); `EntryMemo.enabled` (the
ENGINE_MEMO setting) turns every memory off, and tests/systems/test_engine_memo.py holds
the answers equal either way.
"""

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

V = TypeVar("V")
L = TypeVar("L", bound=BaseModel)

# Entries per memory: forty 50-entry lists being edited at once, per engine and kind.
ENTRIES = 2048


class _Missing:
    """What a memory answers for a key it does not hold (None may be a stored value)."""


_MISSING = _Missing()


class EntryMemo(Generic[V]):
    """A bounded, thread-safe memory of values computed from hashable keys, the least
    recently used forgotten first: an OrderedDict whose every step is one C call the GIL
    keeps whole (a save asks it 100 to 150 times: cachetools' LRUCache cost 2-3 µs a
    question in Python calls, a lock and a dict's pop and put 0.6 µs, issue 29). Two
    threads may compute the same value at once (the values are pure: either is kept), or
    forget one more than the bound at once."""

    enabled: ClassVar[bool] = True

    def __init__(self, size: int = ENTRIES) -> None:
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._size = size

    def __call__(self, key: Hashable, compute: Callable[[], V]) -> V:
        if not EntryMemo.enabled:
            return compute()
        values = self._values
        try:
            found = values[key]
            values.move_to_end(key)
        except KeyError:  # not kept (or forgotten by another thread meanwhile)
            pass
        else:
            return found
        value = values[key] = compute()
        if len(values) > self._size:
            with contextlib.suppress(KeyError):  # another thread emptied it meanwhile
                values.popitem(last=False)
        return value

    def each(self, keys: Sequence[Hashable], compute: Callable[[int], V]) -> list[V]:
        """The value of each key in turn, `compute(index)` for those not kept: what
        `__call__` does for a list's entries, in one loop (a save's 50 entries asked one by
        one cost a call, a closure and a lambda each: 0.9 µs an entry, issue 29)."""
        if not EntryMemo.enabled:
            return [compute(index) for index in range(len(keys))]
        values = self._values
        move_to_end = values.move_to_end
        found: list[V] = []
        for index, key in enumerate(keys):
            try:
                value = values[key]
                move_to_end(key)
            except KeyError:  # not kept (or forgotten by another thread meanwhile)
                value = self(key, partial(compute, index))
            found.append(value)
        return found

    def __len__(self) -> int:
        return len(self._values)


class LineCopies:
    """Summary lines with one field given (`summarize`: the index of the entry a line shows,
    for engines whose lines leave it out; the profile a renamed entry is), one copy per line,
    field and value: a line remembered by an engine gets the same copy at every save instead
    of a new one (50 `model_copy` a save, issue 29). Keyed by the line's identity: the
    memory holds the line, so its id is no other's while it is kept."""

    def __init__(self, size: int = ENTRIES) -> None:
        self._copies: EntryMemo[tuple[Any, Any]] = EntryMemo(size)

    def __call__(self, line: L, field: str, value: Hashable) -> L:
        def made_anew() -> L:
            return line.model_copy(update={field: value})

        made = self._copies((id(line), field, value), lambda: (line, made_anew()))
        copy: L = made[1] if made[0] is line else made_anew()
        return copy


def json_key(model: BaseModel) -> bytes:
    """A model's JSON as a key, from its serializer directly (without `model_dump_json`'s
    Python wrapper and its str: about half the time), its fields valued None left out: the
    `exclude_if` callbacks of the inputs' optional fields (`id`, `source`: two Python calls
    an entry) are then not run (issue 29). Two models of a class differ in a field whose
    value is set in one and None or another in the other: their keys differ still."""
    return model.__pydantic_serializer__.to_json(model, exclude_none=True)


def issues_key(issues: Sequence[BaseModel]) -> tuple[bytes, ...]:
    """An entry's issues in a key: where the list adds issues to an entry's result (one
    general, the Renfort group), its summary lines are a function of the entry, its index
    and these; a key from them costs far less than the whole result's JSON."""
    return tuple(json_key(issue) for issue in issues)


def remembered(memo: "EntryMemo[V] | None", key: Hashable, compute: Callable[[], V]) -> V:
    """`compute()`, kept in `memo` under `key` when there is a memory (an engine's); a
    caller without one (a test, a one-off check) computes it afresh."""
    return compute() if memo is None else memo(key, compute)


# Per thread, the last entries keyed: the same parsed list is validated, then summarized.
_last_keyed = threading.local()


def entry_keys(entries: Sequence[BaseModel]) -> list[bytes]:
    """Each entry's `json_key`, made once for a list's entries however many memories key
    them (its results, then its summary lines): the entries of the last list asked, per
    thread, are held with their keys (parsed documents are not changed once made), and a
    list of the same entry objects gets the same keys."""
    last = getattr(_last_keyed, "value", None)
    if (
        last is not None
        and len(last[0]) == len(entries)
        and all(a is b for a, b in zip(last[0], entries, strict=True))
    ):
        keys: list[bytes] = last[1]
        return keys
    # json_key's call inlined: a frame less an entry (5 µs a 50-entry list, issue 29).
    keys = [entry.__pydantic_serializer__.to_json(entry, exclude_none=True) for entry in entries]
    _last_keyed.value = (tuple(entries), keys)
    return keys


def per_entry(
    memo: "EntryMemo[V] | None", entries: Sequence[BaseModel], compute: Callable[[Any, int], V]
) -> list[V]:
    """`compute(entry, index)` for each entry, remembered by the entry and its index (what
    it is a function of, for most engines' entry results and summary lines)."""
    if memo is None:
        return [compute(entry, index) for index, entry in enumerate(entries)]
    keys = entry_keys(entries)
    return memo.each(
        [(key, index) for index, key in enumerate(keys)],
        lambda index: compute(entries[index], index),
    )
