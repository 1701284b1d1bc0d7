"""Building blocks of the models players send: strict integers, catalogue ids, entries."""

import math
from collections.abc import Iterator, Sequence
from typing import Annotated, Any, Self

from annotated_types import GroupedMetadata
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

# Free text never holds U+0000: PostgreSQL cannot store it in a JSON document.
NO_NUL = r"^[^\x00]*$"

# What every model of player input says: unknown fields and loose types are refused.
INPUT = ConfigDict(extra="forbid", strict=True)


# Free JSON (what no model types: a book unit's definition, a battle's recruits and score, a
# page's hidden JSON fields) is bounded where it enters, before anything copies, dumps,
# stores or renders it: each of those recurses, and a value nested a few hundred deep made
# them fail (issue 25, item 6). Every model a free value must later fit nests at most 9
# deep (a No Limits roster; a unit 5, a score 3), so 16 leaves room and refuses only what
# was crafted. Numbers are what a roster's own would be: finite, integers within 2**53 (a
# JavaScript number; json.loads reads 1e309 as an infinity, and JSON stores NaN as null).
JSON_MAX_DEPTH = 16
JSON_MAX_INT = 2**53


def free_json_refusal(value: Any, max_depth: int = JSON_MAX_DEPTH) -> tuple[str, str] | None:
    """Why `value` (as json.loads reads it) may not enter: (code, English message naming
    where in it), or None. Refused: containers nested deeper than `max_depth` (`value`
    itself is level 1), a NaN or an infinity, an integer beyond 2**53, a key or a string
    with a lone surrogate (it cannot be stored as UTF-8). Iterative, linear in the value."""
    stack: list[tuple[Any, int, tuple[str | int, ...]]] = [(value, 1, ())]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, dict | list):
            if depth > max_depth:
                return "json_too_deep", f"nested deeper than {max_depth} levels{_at(where)}"
            if isinstance(item, dict):
                for key, child in item.items():
                    if not _encodable(key):
                        return "invalid_text", f"a key with an unpaired surrogate{_at(where)}"
                    stack.append((child, depth + 1, (*where, key)))
            else:
                stack.extend((child, depth + 1, (*where, i)) for i, child in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            return "finite_number", f"Input should be a finite number{_at(where)}"
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > JSON_MAX_INT:
            return "int_too_large", f"an integer beyond 2**53{_at(where)}"
        elif isinstance(item, str) and not _encodable(item):
            return "invalid_text", f"a text with an unpaired surrogate{_at(where)}"
    return None


def _at(where: Sequence[str | int]) -> str:
    text = ""
    for part in where:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return f" (at {text})" if text else ""


def _encodable(text: str) -> bool:
    """No lone surrogate (U+D800 alone): it could not be stored as UTF-8."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _bounded(value: Any) -> Any:
    refusal = free_json_refusal(value)
    if refusal is not None:
        raise PydanticCustomError(refusal[0], "{reason}", {"reason": refusal[1]})
    return value


# A JSON object no model types, bounded as free_json_refusal says (a 422 naming the field).
FreeObject = Annotated[dict[str, Any], AfterValidator(_bounded)]


def is_digits(text: str) -> bool:
    """Whether `text` is a whole number as a form writes one: ASCII digits only, at least
    one. `str.isdigit()` is also true of « ² », « ⁵ » and « ① », which int() refuses
    (a 500 on a count save, issue 25), and `isdecimal()` of other scripts' digits, which no
    field of ours writes."""
    return text.isascii() and text.isdecimal()


def _integral(value: Any) -> Any:
    """JSON Schema counts 2.0 as an integer: read it as 2 (strict models refuse 2.5, "2").

    `true` is refused here: a `Literal[1, 2, 3]` would take it for 1 (True == 1 in Python,
    and pydantic's literal check looks values up by equality)."""
    if value.__class__ is int:  # nearly every value: at once (issue 29)
        return value
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integral = BeforeValidator(_integral)


class Between(GroupedMetadata):
    """`Annotated[int, Between(ge, le)]`: an integer between `ge` and `le` (bounds stated in
    the JSON schema), 2.0 read as 2. Metadata, not a type, so mypy reads the annotation as
    `int` (a call such as `integer(0, 20)` in an annotation is not a type to it)."""

    __slots__ = ("ge", "le")

    def __init__(self, ge: int, le: int) -> None:
        self.ge = ge
        self.le = le

    def __iter__(self) -> Iterator[object]:
        yield from Field(ge=self.ge, le=self.le).metadata
        yield Integral


def integer(ge: int, le: int) -> Any:
    """The type `Annotated[int, Between(ge, le)]`, for models built at run time
    (`create_model`); in an annotation, write the `Annotated` form."""
    return Annotated[int, Between(ge, le)]


class CatalogueId(GroupedMetadata):
    """`Annotated[str, CatalogueId(ids, what)]`: a string that only accepts the given ids
    (and says so in the JSON schema); mypy reads the annotation as `str`."""

    __slots__ = ("metadata",)

    def __init__(self, ids: Sequence[str], what: str) -> None:
        known = frozenset(ids)

        def check(value: str) -> str:
            if value not in known:
                raise PydanticCustomError(
                    "unknown_id", "unknown {what} id '{value}'", {"what": what, "value": value}
                )
            return value

        self.metadata = (
            AfterValidator(check),
            WithJsonSchema({"type": "string", "enum": list(ids)}),
        )

    def __iter__(self) -> Iterator[object]:
        return iter(self.metadata)


def catalogue_id(ids: Sequence[str], what: str) -> Any:
    """The type `Annotated[str, CatalogueId(ids, what)]`, for models built at run time."""
    return Annotated[str, CatalogueId(ids, what)]


def one_of_unit_or_custom(schema: dict[str, Any]) -> None:
    """JSON schema of an entry: exactly one of `unit` and `custom` is given and not null.
    Each branch is a whole object schema, the shared fields (`count`, `name`, `source`,
    `id`, ...) written in it too: code generators (openapi-python-client) build a class per
    branch and keep only what the branch lists (issue 28, item 2)."""
    properties = schema.get("properties", {})
    shared = {name: prop for name, prop in properties.items() if name not in ("unit", "custom")}
    required = [name for name in schema.get("required", []) if name in shared]
    title = schema.get("title", "Entry")

    def other_null(key: str) -> dict[str, Any]:
        other = "custom" if key == "unit" else "unit"
        return {other: {"type": "null"}} if other in properties else {}

    branches = []
    for key in ("unit", "custom"):
        prop = properties.get(key, {})
        not_null = [v for v in prop.get("anyOf", [prop]) if v.get("type") != "null"]
        if not_null:
            branches.append(
                {
                    "title": f"{title}{key.capitalize()}",
                    "type": "object",
                    "required": [key, *required],
                    # The other key may be sent as null (answers write it so).
                    "properties": {key: not_null[0], **other_null(key), **shared},
                    "additionalProperties": False,
                }
            )
    schema["oneOf"] = branches


# A book unit's id (app/systems/books.py): ASCII snake_case.
BOOK_UNIT_ID = r"^[a-z0-9][a-z0-9_]{0,59}$"


class BookSource(BaseModel):
    """Where a list's unit comes from (api-v1.md « Army books »): a published version's
    share code and the book unit's id. The definition itself is copied beside it."""

    model_config = INPUT

    book: str = Field(min_length=1, max_length=16, pattern=r"^[0-9a-z]+$")
    unit: str = Field(min_length=1, max_length=60, pattern=BOOK_UNIT_ID)


class HasSource(BaseModel):
    """A model that may carry a `source`; it is written only when there is one, so that the
    documents of lists made without books stay exactly as they were."""

    source: BookSource | None = Field(
        None,
        description="The army book unit it was drawn from (its definition is copied here).",
        exclude_if=lambda value: value is None,
    )


# An entry's stable identity (docs/campaigns.md): given to every entry when its list records
# a battle, so that the ledger follows a fighter when entries are reordered or removed.
ENTRY_ID = r"^[0-9A-Za-z_-]{1,32}$"


def entry_id_field() -> Any:
    return Field(
        None,
        pattern=ENTRY_ID,
        description="Stable identity of the entry (set when the list records a battle): "
        "keep it when the entry is sent back.",
        exclude_if=lambda value: value is None,
    )


class EntryBase(HasSource):
    """Fields every roster entry has; systems add `unit` and `custom` with their own types."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=one_of_unit_or_custom)

    id: str | None = entry_id_field()
    name: str | None = Field(None, max_length=80, pattern=NO_NUL)
    count: Annotated[int, Between(1, 100)] = 1

    @model_validator(mode="after")
    def _unit_or_custom(self) -> Self:
        # Run for every entry of every list parsed: two lookups, no list (issue 29).
        if (getattr(self, "unit", None) is None) == (getattr(self, "custom", None) is None):
            raise ValueError("an entry names a catalogue unit ('unit') or a custom unit ('custom')")
        return self
