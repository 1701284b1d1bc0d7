"""The toy's catalogue data: the shape of data/catalogue.toml, checked at start-up."""

from typing import Any, ClassVar, Literal

from app.systems.building import (
    CatalogueModel,
    ExampleData,
    Lookup,
    SystemCatalogue,
    SystemInfo,
    duplicate_ids_in,
)


class ToyInfo(SystemInfo):
    id: Literal["toy"]


class ToyPricing(CatalogueModel):
    per_strength: int  # what a point of strength costs


class ToyUnitData(CatalogueModel):
    id: str
    name: str
    strength: int
    points: int  # as printed
    rules: tuple[str, ...] = ()  # what its play sheet card explains (data/sheet.toml)


class ToyExampleData(ExampleData):
    entries: list[dict[str, Any]]


class ToyData(SystemCatalogue):
    system: ToyInfo
    pricing: ToyPricing
    units: list[ToyUnitData]
    examples: list[ToyExampleData]

    unit: ClassVar[Lookup[ToyUnitData]] = Lookup("units")


def cross_check(data: ToyData) -> list[str]:
    """What pydantic cannot see: repeated ids, examples naming an unknown unit."""
    problems = duplicate_ids_in(data, "units", "examples", "notes")
    known = {unit.id for unit in data.units}
    for index, example in enumerate(data.examples):
        for entry_index, entry in enumerate(example.entries):
            if "unit" in entry and entry["unit"] not in known:
                problems.append(f"examples[{index}].entries[{entry_index}].unit: unknown unit")
    return problems
