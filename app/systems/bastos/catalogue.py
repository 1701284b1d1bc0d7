"""The Bastos catalogue as data: the shape of `data/systems/bastos/catalogue.toml`.

Checked at start-up; every problem is reported at once, with the key it concerns.
Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

from typing import Any, ClassVar, Literal, get_args

from pydantic import ConfigDict, Field

from app.systems import building
from app.systems.building import (
    CatalogueModel,
    Lookup,
    build_engine,
    duplicate_ids,
    duplicate_ids_in,
)

# The ids are part of the API contract (api-v1.md, "### bastos").
WeaponId = Literal["revolver", "pistolet_45", "fusil_a_pompe", "mitraillette", "corps_a_corps"]
WEAPON_IDS: tuple[str, ...] = get_args(WeaponId)


class Weapon(CatalogueModel):
    """One row of the weapon table (L13-71, reprinted L296-354); null where it prints « - »."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, validate_by_name=True, serialize_by_alias=True
    )

    id: WeaponId
    name: str
    range_cm: int | None = Field(None, ge=1, description="Portée.")
    rate: int | None = Field(None, ge=1, description="Taux: the most dice one shot rolls (L73).")
    spread_cm: float | None = Field(
        None, gt=0, description="Between parentheses: the widest gap between two targets (L73)."
    )
    impact: int = Field(ge=1, le=6, description="Impact: read on the Tableau de Blessure.")
    class_: int | None = Field(
        None, alias="class", ge=1, description="Classe (L73, « surclassée »)."
    )
    source: str
    reference_source: str = Field(description="The same row on the Feuille de Référence.")


class RepLevel(CatalogueModel):
    """What a Rep value means (L11)."""

    rep: int = Field(ge=1, le=6)
    name: str
    text: str
    source: str


class SampleFigure(CatalogueModel):
    """A figure of the text's examples, for entries naming it by `unit`."""

    id: str
    name: str
    rep: int = Field(ge=1, le=6)
    leader: bool = False
    star: bool = False
    weapon: str | None
    source: str
    note: str = ""


class ExampleEntry(CatalogueModel):
    unit: str
    count: int = Field(1, ge=1)


class Example(building.ExampleData):
    """A band the text describes, with the issues Caserne expects of it."""

    entries: list[ExampleEntry]
    source: str
    printed_total: Literal[0] = Field(0, description="No points in Bastos: always 0.")
    expected_issue_codes: list[str] = Field([], description="The errors Caserne expects.")
    expected_warnings: list[str] = []
    note: str = ""


class SystemInfo(building.SystemInfo):
    id: Literal["bastos"]


class Catalogue(building.SystemCatalogue):
    system: SystemInfo
    weapons: list[Weapon]
    reps: list[RepLevel]
    figures: list[SampleFigure]
    examples: list[Example]

    weapon: ClassVar[Lookup[Weapon]] = Lookup("weapons")  # a row of the weapon table
    figure: ClassVar[Lookup[SampleFigure]] = Lookup("figures")

    def rep_level(self, rep: int) -> RepLevel | None:
        return self.find("reps", rep, by="rep") if self.has("reps", rep, by="rep") else None


def cross_check(catalogue: Catalogue) -> list[str]:
    """What pydantic cannot see: duplicates, missing ids, references to unknown ids."""
    problems = duplicate_ids_in(catalogue, "weapons", "figures", "examples", "notes")
    problems += duplicate_ids("reps", [str(level.rep) for level in catalogue.reps])
    missing = sorted(set(WEAPON_IDS) - {w.id for w in catalogue.weapons})
    problems += [
        f"weapons: missing weapon {weapon_id!r} (fixed by api-v1.md)" for weapon_id in missing
    ]
    for index, weapon in enumerate(catalogue.weapons):
        # L73: the spread in parentheses shares a rate of 2 dice or more between targets.
        if weapon.spread_cm is not None and (weapon.rate is None or weapon.rate < 2):
            problems.append(f"weapons[{index}].spread_cm: a spread needs a rate of 2 or more")
    weapons = {w.id for w in catalogue.weapons}
    for index, figure in enumerate(catalogue.figures):
        if figure.weapon is not None and figure.weapon not in weapons:
            problems.append(f"figures[{index}].weapon: unknown weapon {figure.weapon!r}")
    figures = {f.id for f in catalogue.figures}
    for index, example in enumerate(catalogue.examples):
        for entry_index, entry in enumerate(example.entries):
            if entry.unit not in figures:
                problems.append(
                    f"examples[{index}].entries[{entry_index}].unit: unknown figure {entry.unit!r}"
                )
    return problems


def load_catalogue(data: dict[str, Any]) -> Catalogue | list[str]:
    """The checked catalogue from its parsed TOML, or every problem found in it."""
    return build_engine(data, Catalogue, cross_check, lambda catalogue: catalogue)
