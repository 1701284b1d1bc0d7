"""The Infinity catalogue as data: the shape of `data/systems/infinity/catalogue.toml`.

Checked at start-up; every problem is reported at once, with the key it concerns.
"""

from typing import Any, Literal

from pydantic import Field

from app.systems import building
from app.systems.building import (
    CatalogueModel,
    build_engine,
    duplicate_ids,
    duplicate_ids_in,
    roster_document,
)
from app.systems.infinity.models import (
    EQUIPMENT_IDS,
    SKILL_IDS,
    Availability,
    Id,
    InfinityEntry,
    InfinityTrooper,
)


class SystemInfo(building.SystemInfo):
    id: Literal["infinity"]


class Rules(CatalogueModel):
    """The numbers of army building, each traced to its line."""

    points_per_swc: int = Field(ge=1, description="L81 « Chaque tranche de 50 points ».")
    max_group_size: int = Field(ge=1, description="L85 « ne doit jamais dépasser 10 ».")
    mines_per_trooper: int = Field(ge=0, description="L117 « un total de 3 ».")
    repeaters_per_trooper: int = Field(ge=0, description="L141 « en possède 3 ».")
    source: str


class Faction(CatalogueModel):
    id: Id
    name: str
    note: str
    source: str


class Skill(CatalogueModel):
    """A skill (or equipment) the text describes, with its French name and line."""

    id: Id
    name: str
    source: str
    text: str


class CatalogueTrooper(InfinityTrooper):
    """A published trooper type: the API shape plus the faction it belongs to."""

    faction: Id
    # TOML has no null: a catalogue trooper without `ava` has Total availability (L79).
    ava: Availability | None = None


class Example(building.ExampleData):
    """An example list written by Caserne, with the error and warning codes it must give."""

    id: Id
    name: str
    printed_total: int
    points_limit: int | None
    ava: bool = True
    entries: list[InfinityEntry]
    expected_issue_codes: list[str] = []
    expected_warning_codes: list[str] = []
    note: str = ""


class Catalogue(building.SystemCatalogue):
    system: SystemInfo
    rules: Rules
    factions: list[Faction]
    skills: list[Skill]
    equipment: list[Skill]
    units: list[CatalogueTrooper]
    examples: list[Example]

    def unit(self, unit_id: str) -> CatalogueTrooper | None:
        return self.find("units", unit_id) if self.has("units", unit_id) else None


def cross_check(catalogue: Catalogue) -> list[str]:
    """What pydantic cannot see: duplicates, missing ids, references to unknown ids."""
    problems = duplicate_ids_in(
        catalogue, "factions", "skills", "equipment", "units", "examples", "notes"
    )
    skills = {skill.id for skill in catalogue.skills}
    equipment = {item.id for item in catalogue.equipment}
    problems += [
        f"skills: missing skill {skill_id!r} (fixed by api-v1.md)"
        for skill_id in SKILL_IDS
        if skill_id not in skills
    ]
    problems += [
        f"equipment: missing equipment {item_id!r} (fixed by api-v1.md)"
        for item_id in EQUIPMENT_IDS
        if item_id not in equipment
    ]
    factions = {faction.id for faction in catalogue.factions}
    for index, unit in enumerate(catalogue.units):
        where = f"units[{index}]"
        if unit.faction not in factions:
            problems.append(f"{where}.faction: unknown faction {unit.faction!r}")
        # The catalogue is curated: no free text, every skill and equipment is described.
        problems += [
            f"{where}.skills[{i}]: unknown skill {skill!r}"
            for i, skill in enumerate(unit.skills)
            if skill not in skills
        ]
        problems += duplicate_ids(f"{where}.options", [option.id for option in unit.options])
        for o, option in enumerate(unit.options):
            problems += [
                f"{where}.options[{o}].equipment[{i}]: unknown equipment {item!r}"
                for i, item in enumerate(option.equipment)
                if item not in equipment
            ]
    for index, example in enumerate(catalogue.examples):
        for e, entry in enumerate(example.entries):
            where = f"examples[{index}].entries[{e}]"
            trooper = catalogue.unit(entry.unit)
            if trooper is None:
                problems.append(f"{where}.unit: unknown unit {entry.unit!r}")
            elif trooper.option(entry.option) is None:
                problems.append(f"{where}.option: {entry.unit!r} has no option {entry.option!r}")
    return problems


def build_catalogue(data: dict[str, Any]) -> Catalogue | list[str]:
    """The checked catalogue, or every problem found in the data (pydantic's, else ours)."""
    return build_engine(data, Catalogue, cross_check, lambda catalogue: catalogue)


def example_documents(catalogue: Catalogue) -> list[dict[str, Any]]:
    """Each example list as a roster document (what POST .../validate takes)."""
    return [
        roster_document(
            "infinity",
            example,
            [entry.model_dump(exclude_none=True) for entry in example.entries],
            {"ava": example.ava},
        )
        for example in catalogue.examples
    ]
