"""The units of a list drawn from army books: where a list keeps them (the system's
`BookTraits`), which book unit each names, and a unit's newer published version copied in.
Pure: documents in, documents out (BookService, app/book_service.py, reads the books)."""

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from app.systems.base import AnySystem
from app.systems.books import BOOK_MAX_UNITS, definition_model, units_in_extras
from app.systems.changes import changes
from app.systems.inputs import is_digits


class Update(BaseModel):
    """What one roster entry (or Infinity trooper) drawn from a book would get."""

    path: str
    book: str
    latest: str
    unit: str
    status: Literal["changed", "withdrawn"]
    points_before: int
    points_after: int
    changes: list[str]


class Updates(BaseModel):
    updates: list[Update]
    points_before: int
    points_after: int


@dataclass(frozen=True)
class Origin:
    """Where a list's entry comes from: a published version of a book."""

    code: str
    name: str
    version: int

    @property
    def label(self) -> str:
        """« Marines de Kessel, v3 »."""
        return f"{self.name}, v{self.version}"


@dataclass(frozen=True)
class Newer:
    """A book a list draws from that has a newer published version."""

    name: str
    used: str
    latest: str
    version: int


@dataclass(frozen=True)
class Drawn:
    """A unit of a list drawn from a book: where it is and what it names."""

    path: str
    book: str
    unit: str


def drawn_units(system: AnySystem, document: dict[str, Any]) -> list[Drawn]:
    """Every place of a roster document that names a book unit as its source."""
    extras = document.get("extras")
    if units_in_extras(system):
        items = extras.get("units") if isinstance(extras, dict) else None
        prefix = "extras.units"
    else:
        items = document.get("entries")
        prefix = "entries"
    out = []
    for index, item in enumerate(items if isinstance(items, list) else []):
        source = item.get("source") if isinstance(item, dict) else None
        if not isinstance(source, dict):
            continue
        book, unit = source.get("book"), source.get("unit")
        if isinstance(book, str) and isinstance(unit, str) and len(book) <= 16:
            out.append(Drawn(f"{prefix}[{index}]", book, unit[:60]))
    return out


def published_unit(snapshot: Mapping[str, Any], unit_id: str) -> tuple[dict[str, Any], int] | None:
    """A published unit and its points, by id."""
    points = {u["id"]: u["points"] for u in snapshot.get("validation", {}).get("units", [])}
    for unit in snapshot.get("units", []):
        if unit.get("id") == unit_id:
            return unit, int(points.get(unit_id, 0))
    return None


def update_of(
    system: AnySystem,
    drawn: Drawn,
    used: Mapping[str, Any],
    latest: str,
    newest: Mapping[str, Any],
) -> Update:
    """What the drawn unit would get from the newest published version (`latest`, its
    snapshot `newest`) of the book version it was drawn from (its snapshot `used`)."""
    before = published_unit(used, drawn.unit)
    after = published_unit(newest, drawn.unit)
    before_unit, points_before = before if before is not None else ({}, 0)
    if after is None:
        status, points_after, lines = "withdrawn", points_before, ["Unité retirée du livre"]
    else:
        after_unit, points_after = after
        status = "changed"
        lines = changes(
            canonical(system, before_unit),
            canonical(system, after_unit),
            points_before,
            points_after,
        )
    # Where the unit is, the book version it names and the unit it names: the drawn unit's.
    return Update(
        **asdict(drawn),
        latest=latest,
        status=status,
        points_before=points_before,
        points_after=points_after,
        changes=lines,
    )


def canonical(system: AnySystem, unit: dict[str, Any]) -> dict[str, Any]:
    """The unit with its definition in its model's field order (PostgreSQL's JSONB keeps
    keys in its own order): change lines then come in the order the creator shows them."""
    try:
        parsed = definition_model(system).model_validate(unit.get("definition"))
    except ValidationError:
        definition = unit.get("definition")
        if isinstance(definition, dict):
            return {**unit, "definition": dict(sorted(definition.items()))}
        return unit
    return {**unit, "definition": parsed.model_dump(mode="json")}


def unit_items(system: AnySystem, document: dict[str, Any]) -> list[Any]:
    """A copy of what a list's units are: its entries, or Infinity's own troopers."""
    if units_in_extras(system):
        extras = document.get("extras")
        return list(extras.get("units", []) if isinstance(extras, dict) else [])
    return list(document.get("entries", []))


def with_items(system: AnySystem, document: dict[str, Any], items: list[Any]) -> dict[str, Any]:
    if units_in_extras(system):
        return {**document, "extras": {**document.get("extras", {}), "units": items}}
    return {**document, "entries": items}


def item_index(path: str) -> int:
    """2 from "entries[2]" or "extras.units[2]" (paths `drawn_units` made)."""
    return int(path.rsplit("[", 1)[1].rstrip("]"))


def with_unit(
    system: AnySystem, item: dict[str, Any], unit: dict[str, Any], code: str
) -> dict[str, Any]:
    """A list's entry (or trooper) with the book unit's newer definition copied in."""
    source = {"book": code, "unit": unit["id"]}
    if units_in_extras(system):
        # The list's own id stays: its entries name the trooper by it (the pages rename a
        # trooper whose id another of the list's troopers or the catalogue already has).
        kept = item.get("id") if isinstance(item.get("id"), str) else unit["id"]
        return {**unit["definition"], "id": kept, "source": source}
    return {**item, "custom": unit["definition"], "name": unit["name"], "source": source}


def origins_by_entry(
    system: AnySystem, document: dict[str, Any], by_path: Mapping[str, Origin]
) -> dict[int, Origin]:
    """Each drawn entry's origin by the entry's index, from the origins of the drawn units
    by path (Infinity: the entries that name a drawn trooper)."""
    entries = document.get("entries")
    out: dict[int, Origin] = {}
    if not units_in_extras(system):
        for path, origin in by_path.items():
            out[int(path.removeprefix("entries[").rstrip("]"))] = origin
        return out
    extras = document.get("extras")
    troopers = extras.get("units", []) if isinstance(extras, dict) else []
    ids: dict[str, Origin] = {}
    for path, origin in by_path.items():
        trooper = troopers[int(path.removeprefix("extras.units[").rstrip("]"))]
        if isinstance(trooper.get("id"), str):
            ids[trooper["id"]] = origin
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        unit = entry.get("unit") if isinstance(entry, dict) else None
        if isinstance(unit, str) and unit in ids:
            out[index] = ids[unit]
    return out


def restored_items(
    system: AnySystem, document: dict[str, Any], previous: Mapping[str, Any]
) -> tuple[dict[str, Any], int]:
    """The roster document with `previous` items put back at their paths (the entries, or
    Infinity's troopers, as they were before « Mettre à jour »), and how many."""
    items = unit_items(system, document)
    prefix = "extras.units[" if units_in_extras(system) else "entries["
    count = 0
    for path, item in list(previous.items())[:BOOK_MAX_UNITS]:
        index = path.removeprefix(prefix).removesuffix("]")
        if not path.startswith(prefix) or not is_digits(index) or not isinstance(item, dict):
            continue
        if int(index[:6]) < len(items):
            items[int(index[:6])] = item
            count += 1
    return with_items(system, document, items), count
