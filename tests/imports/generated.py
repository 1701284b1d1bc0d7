"""Lists made for the import's round trips (issue 30, « Done when »): for each system, its
example lists and lists drawn at random (a fixed seed) from what its players use —
catalogue units, custom units (its published profiles as the player's own), renamed
entries, entries in groups (the examples' own: Renfort, combat groups, reserve), and army
book units (its example book, with their origin)."""

import random
from typing import Any

from app.example_books import ExampleBook
from app.systems.base import AnySystem
from app.systems.books import units_in_extras

NAMES = (
    "Sgt Bob",
    "Équipe Alpha",
    "L'Éclaireur",
    "Bob 437-A",
    "Bob *le* [grand] & _fils_",
    "Œil-de-lynx",
    "# Deux",
    "1. Premier",
)
BOOK_CODE = "livre123"


def generated_lists(
    system: AnySystem, book: ExampleBook | None, count: int = 20, seed: int = 30
) -> list[dict[str, Any]]:
    """`count` roster documents of `system`, each valid for its roster model."""
    rng = random.Random(f"{system.id}-{seed}")
    examples = [example.document for example in system.example_rosters()]
    out = []
    for number in range(count):
        base = examples[number % len(examples)]
        document = {**base, "name": f"Liste générée {number + 1}", "extras": _copy(base)}
        document["entries"] = []
        for _ in range(rng.randint(2, 7)):
            _add(system, book, rng, examples, document)
        system.roster_model.model_validate(document)
        out.append(document)
    return out


def _copy(base: dict[str, Any]) -> dict[str, Any]:
    extras = dict(base.get("extras") or {})
    if isinstance(extras.get("units"), list):
        extras["units"] = list(extras["units"])
    return extras


def _add(
    system: AnySystem,
    book: ExampleBook | None,
    rng: random.Random,
    examples: list[dict[str, Any]],
    document: dict[str, Any],
) -> None:
    kind = rng.choice(("catalogue", "catalogue", "custom", "book" if book else "custom"))
    entry: dict[str, Any]
    if kind == "catalogue":
        entry = dict(rng.choice([e for doc in examples for e in doc["entries"]]))
        if rng.random() < 0.4:
            entry["name"] = rng.choice(NAMES)
    else:
        if kind == "custom":
            profile = rng.choice(list(system.published_profiles()))
            definition, name, source = profile.definition, rng.choice(NAMES), None
        else:
            assert book is not None
            unit = rng.choice(book.document.units)
            definition, name = unit.definition, unit.name
            source = {"book": BOOK_CODE, "unit": unit.id}
        entry = _own(system, document, definition, name, source, rng)
    entry["count"] = rng.randint(1, 4)
    document["entries"].append(entry)


def _own(
    system: AnySystem,
    document: dict[str, Any],
    definition: dict[str, Any],
    name: str,
    source: dict[str, str] | None,
    rng: random.Random,
) -> dict[str, Any]:
    """An entry of the player's own unit (kept in `extras.units` where the system does)."""
    with_source = {"source": source} if source else {}
    if not units_in_extras(system):
        return {"custom": definition, "name": name, **with_source}
    trooper = dict(definition.get("unit", definition))
    units = document["extras"].setdefault("units", [])
    trooper["id"] = f"{trooper['id']}_{len(units) + 1}"
    trooper["name"] = name
    units.append({**trooper, **with_source})
    option = definition.get("option") or rng.choice(trooper["options"])["id"]
    return {"unit": trooper["id"], "option": option, "group": rng.randint(1, 2)}
