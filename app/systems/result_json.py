"""A validated roster's JSON with each entry's part remembered (issue 19).

`POST …/validate` writes a result of 29 kB for a 50-entry list, and serializing it took a
quarter of the route's CPU (py-spy on the server under wrk). An editor's next list changes
one entry: the engines answer the others with the same result objects
(app/systems/memo.py), and those objects are never changed afterwards (an engine adds
issues on a copy). So each entry result's JSON is remembered for as long as the object
lives (a weak reference: the engines' bounded memories decide how long, and an entry
computed for one answer is forgotten with it), and the answer is joined from the parts:
the fields before `entries`, the entries, the fields after (computed ones last, as
pydantic writes them). The bytes are exactly the model's own
`to_json` (tests/systems/test_result_json.py, every example of every system and variants).
With the engines' memory off (ENGINE_MEMO=false) no result object is ever seen twice: the
answer is written whole.
"""

import weakref
from functools import cache, partial
from typing import Any, get_args

from pydantic import BaseModel, TypeAdapter

from app.systems.base import RosterResult
from app.systems.memo import EntryMemo


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
        self.entry = TypeAdapter(item).serializer


@cache
def _shape(cls: type[RosterResult[Any, Any]]) -> _Shape:
    return _Shape(cls)


# id of a live entry result -> (a weak reference to it, its JSON). An id names one live
# object; the reference's callback forgets the id when the object dies, before the id can
# be another object's (so whatever the id holds then is that object's). Plain dict
# operations: atomic under the GIL, no lock.
_parts: dict[int, tuple["weakref.ref[Any]", bytes]] = {}


def _forget(key: int, _reference: "weakref.ref[Any]") -> None:
    _parts.pop(key, None)


def _entry_parts(shape: _Shape, entries: list[Any]) -> list[bytes]:
    """Each entry's JSON, remembered or written (and then remembered)."""
    parts: list[bytes] = []
    for entry in entries:
        key = id(entry)
        known = _parts.get(key)
        if known is not None:
            parts.append(known[1])
            continue
        part = shape.entry.to_json(entry)
        _parts[key] = (weakref.ref(entry, partial(_forget, key)), part)
        parts.append(part)
    return parts


def result_json(result: BaseModel) -> bytes:
    """`result`'s JSON, as `result.model_dump_json().encode()` writes it."""
    serializer = result.__pydantic_serializer__
    if not isinstance(result, RosterResult) or not EntryMemo.enabled:
        return serializer.to_json(result)
    shape = _shape(type(result))
    head = serializer.to_json(result, include=shape.before)  # {"points":…,"issues":[…]}
    tail = serializer.to_json(result, include=shape.after)  # {"derived":…,"valid":…}
    entries = b'"entries":[' + b",".join(_entry_parts(shape, result.entries)) + b"]"
    inside = [part for part in (head[1:-1], entries, tail[1:-1]) if part]
    return b"{" + b",".join(inside) + b"}"
