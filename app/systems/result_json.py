"""A validated roster's JSON with each entry's part remembered (issue 19).

`POST …/validate` writes a result of 29 kB for a 50-entry list, and serializing it was the
largest share of the route's work. An editor's next list changes one entry: the engines
answer the others with the same result objects (app/systems/memo.py), and those objects
are never changed afterwards (an engine adds issues on a copy). So each entry result's
JSON is remembered by the object itself (held here, so that its id cannot be reused) and
the answer is joined from the parts: the fields before `entries`, the entries, the fields
after (computed ones last, as pydantic writes them). The bytes are exactly the model's own
`to_json` (tests/systems/test_result_json.py, every example of every system and variants).
"""

import threading
from functools import cache
from typing import Any, get_args

from cachetools import LRUCache
from pydantic import BaseModel, TypeAdapter

from app.systems.base import RosterResult

# Entry results remembered: as many as the engines' memories hold (app/systems/memo.py).
PARTS = 2048


class _Shape:
    """Where a result class's `entries` stands among its fields, and the serializer of one
    entry as the field declares it (a subclass's object is written as the field's type,
    as it is inside the whole model)."""

    def __init__(self, cls: type[RosterResult[Any, Any]]) -> None:
        names = list(cls.model_fields)
        at = names.index("entries")
        field = cls.model_fields["entries"]
        if field.serialization_alias or field.alias:
            raise TypeError(f"{cls.__name__}.entries has an alias: write it whole")
        self.before = set(names[:at])
        self.after = set(names[at + 1 :]) | set(cls.model_computed_fields)
        (item,) = get_args(field.annotation)
        self.entry: TypeAdapter[Any] = TypeAdapter(item)


@cache
def _shape(cls: type[RosterResult[Any, Any]]) -> _Shape:
    return _Shape(cls)


_parts: LRUCache[int, tuple[BaseModel, bytes]] = LRUCache(maxsize=PARTS)
_lock = threading.Lock()


def _entry_parts(shape: _Shape, entries: list[Any]) -> list[bytes]:
    """Each entry's JSON, remembered or written (outside the lock: a heavy list's thousands
    of new entries in a thread must not hold up the event loop's next answer)."""
    with _lock:
        known = [_parts.get(id(entry)) for entry in entries]
    parts: list[bytes] = []
    written: list[tuple[BaseModel, bytes]] = []
    for entry, found in zip(entries, known, strict=True):
        if found is not None:  # the object held there: its id is no other live object's
            parts.append(found[1])
        else:
            part = shape.entry.dump_json(entry)
            parts.append(part)
            written.append((entry, part))
    if written:
        with _lock:
            for entry, part in written:
                _parts[id(entry)] = (entry, part)
    return parts


def result_json(result: BaseModel) -> bytes:
    """`result`'s JSON, as `result.model_dump_json().encode()` writes it."""
    serializer = result.__pydantic_serializer__
    if not isinstance(result, RosterResult):
        return serializer.to_json(result)
    shape = _shape(type(result))
    head = serializer.to_json(result, include=shape.before)  # {"points":…,"issues":[…]}
    tail = serializer.to_json(result, include=shape.after)  # {"derived":…,"valid":…}
    entries = b'"entries":[' + b",".join(_entry_parts(shape, result.entries)) + b"]"
    inside = [part for part in (head[1:-1], entries, tail[1:-1]) if part]
    return b"{" + b",".join(inside) + b"}"
