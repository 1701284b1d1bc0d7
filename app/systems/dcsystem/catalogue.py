"""The DCSystem catalogue as data: the shape of `data/systems/dcsystem/catalogue.toml`.

Checked at start-up; every problem is reported at once, with the key it concerns.
"""

from typing import ClassVar, Literal, get_args

from pydantic import Field

from app.systems import building
from app.systems.building import CatalogueModel, Lookup, duplicate_ids_in

# The ids are part of the API contract (api-v1.md): the catalogue must define exactly these.
ItemId = Literal[
    "absorption", "camouflage", "commandement", "determine", "elite", "force", "heros",
    "longue_portee", "rapide", "regeneration", "soin", "solidaire", "vol_saut",
    "arme_cc_1", "arme_cc_2", "arme_cc_3", "arme_tir_1", "arme_tir_2", "arme_tir_3",
    "champ_de_force", "drogues_de_combat", "gilet_de_protection", "grenade",
    "lance_flammes", "mortier", "puissance_de_tir",
    "arme_fixe", "courte_portee", "fragile", "immobile", "lent",
]  # fmt: skip
HiddenMoveId = Literal["raid_aerien", "renfort", "teleportation", "traitre"]
Level = Literal[1, 2, 3]

ITEM_IDS: tuple[str, ...] = get_args(ItemId)
HIDDEN_MOVE_IDS: tuple[str, ...] = get_args(HiddenMoveId)


class DcsystemDice(CatalogueModel):
    """A dice pool (part A, L212-214): red = life, blue = once a game, white = shooting,
    yellow = close combat."""

    red: int = Field(ge=0)
    blue: int = Field(ge=0)
    white: int = Field(0, ge=0)
    yellow: int = Field(0, ge=0)


class LevelRule(CatalogueModel):
    level: Level
    points: int
    red: int
    blue: int
    slots: int
    handicaps: int
    source: str


class Balance(CatalogueModel):
    points: int
    source: str
    text: str


class WeaponRule(CatalogueModel):
    """Which dice a weapon item gives: shooting (white) or close combat (yellow), and its
    level as the text names it (the Mortier is « une arme de tir de niveau 3 », L281)."""

    type: Literal["tir", "cc"]
    level: int = Field(ge=1)
    dice: int = Field(ge=1)


class Boost(CatalogueModel):
    """An item that raises the dice of every weapon of one type and level: « Fait passer de
    3 à 4 le nombre de dés fournis par une arme de tir de niveau 3 » (L282; Force, L261)."""

    type: Literal["tir", "cc"]
    level: int = Field(ge=1)
    dice: int = Field(ge=1)

    def raises(self, weapon: WeaponRule) -> bool:
        return weapon.type == self.type and weapon.level == self.level


class Item(CatalogueModel):
    id: ItemId
    name: str
    kind: Literal["capacite", "equipement", "handicap"]
    points: int
    text: str
    source: str
    red: int = 0
    blue: int = 0
    weapon: WeaponRule | None = None
    boosts: Boost | None = None
    brings: ItemId | None = None
    counts_as_slot: bool = True
    extra_slots: int = 0


class HiddenMoveRules(CatalogueModel):
    per_player: int = Field(ge=1)
    source: str
    text: str


class HiddenMove(CatalogueModel):
    id: HiddenMoveId
    name: str
    points: int
    text: str
    source: str
    reinforcement_limit: int | None = None


class ScoreRules(CatalogueModel):
    main_mission_divisor: int = Field(ge=1)
    secondary_mission_divisor: int = Field(ge=1)
    kill_points: dict[str, int]
    source: str


class Army(CatalogueModel):
    id: str
    name: str
    source: str


class Unit(CatalogueModel):
    id: str
    name: str
    army: str
    level: Level
    points: int
    items: list[ItemId]
    source: str
    dice: DcsystemDice | None = None
    variant_of: str | None = None
    note: str = ""


class ExampleEntry(CatalogueModel):
    unit: str
    count: int = Field(ge=1)
    group: Literal["renfort"] | None = None


class Example(building.ExampleData):
    printed_total: int
    points_limit: int | None
    hidden_moves: list[HiddenMoveId] = []
    entries: list[ExampleEntry]
    source: str
    expected_issue_codes: list[str] = []


class SystemInfo(building.SystemInfo):
    id: Literal["dcsystem"]


class Catalogue(building.SystemCatalogue):
    system: SystemInfo
    levels: list[LevelRule]
    balance: Balance
    items: list[Item]
    hidden_move_rules: HiddenMoveRules
    hidden_moves: list[HiddenMove]
    score: ScoreRules
    armies: list[Army]
    units: list[Unit]
    examples: list[Example]

    item: ClassVar[Lookup[Item]] = Lookup("items")  # a capacité, équipement or handicap
    unit: ClassVar[Lookup[Unit]] = Lookup("units")
    level: ClassVar[Lookup[LevelRule]] = Lookup("levels", by="level")
    hidden_move: ClassVar[Lookup[HiddenMove]] = Lookup("hidden_moves")


def cross_check(catalogue: Catalogue) -> list[str]:
    """What pydantic cannot see: duplicates, missing ids, references to unknown ids."""
    problems = duplicate_ids_in(
        catalogue, "items", "units", "armies", "hidden_moves", "examples", "notes"
    )
    missing = sorted(set(ITEM_IDS) - {i.id for i in catalogue.items})
    problems += [f"items: missing item {item_id!r} (fixed by api-v1.md)" for item_id in missing]
    missing = sorted(set(HIDDEN_MOVE_IDS) - {m.id for m in catalogue.hidden_moves})
    problems += [f"hidden_moves: missing {move_id!r} (fixed by api-v1.md)" for move_id in missing]
    if sorted(rule.level for rule in catalogue.levels) != [1, 2, 3]:
        problems.append("levels: levels 1, 2 and 3 must each be defined once")
    kinds = {item.id: item.kind for item in catalogue.items}
    for index, item in enumerate(catalogue.items):
        if item.brings is not None and kinds.get(item.brings) != "handicap":
            problems.append(f"items[{index}].brings: {item.brings!r} is not a handicap")
        boost = item.boosts
        if boost is not None and not any(
            other.weapon is not None and boost.raises(other.weapon) for other in catalogue.items
        ):
            problems.append(f"items[{index}].boosts: no {boost.type} weapon of level {boost.level}")
    armies = {army.id for army in catalogue.armies}
    units = {unit.id for unit in catalogue.units}
    for index, unit in enumerate(catalogue.units):
        if unit.army not in armies:
            problems.append(f"units[{index}].army: unknown army {unit.army!r}")
        if unit.variant_of is not None and unit.variant_of not in units:
            problems.append(f"units[{index}].variant_of: unknown unit {unit.variant_of!r}")
        if unit.variant_of is None and unit.dice is None:
            problems.append(f"units[{index}].dice: a printed profile needs its printed dice")
    for index, example in enumerate(catalogue.examples):
        for entry_index, entry in enumerate(example.entries):
            if entry.unit not in units:
                problems.append(
                    f"examples[{index}].entries[{entry_index}].unit: unknown unit {entry.unit!r}"
                )
    if sorted(catalogue.score.kill_points) != ["1", "2", "3"]:
        problems.append("score.kill_points: give the points of levels 1, 2 and 3")
    return problems
