"""The No Limits catalogue as data: `data/systems/nolimits/catalogue.toml` and `pricing.toml`.

Checked at start-up; every problem is reported at once, with the key it concerns.
"""

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from app.systems.nolimits.definition import (
    NolimitsProfile,
    NolimitsVehicle,
    SizeId,
    VehicleType,
    WeaponType,
)
from app.systems.nolimits.pricing_data import Pricing

Category = Literal["unite_de_base", "personnage", "heros", "soutien", "tres_grande_taille"]
CATEGORIES: tuple[str, ...] = get_args(Category)
SIZES: tuple[str, ...] = get_args(SizeId)
VEHICLE_TYPES: tuple[str, ...] = get_args(VehicleType)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SystemInfo(Strict):
    id: Literal["nolimits"]
    name: str
    rules_version: str
    catalogue_version: str


class CategoryInfo(Strict):
    id: Category
    name: str
    text: str
    source: str


class SizeInfo(Strict):
    """A size category and the heights (or lengths) it covers, whole millimetres (L73-84)."""

    id: SizeId
    name: str
    min_mm: int = Field(ge=0)
    max_mm: int | None = None
    text: str
    source: str


class VehicleTypeInfo(Strict):
    id: VehicleType
    name: str
    text: str
    source: str


class Weapon(Strict):
    """A printed weapon profile. `CU` absent: derived (melee) or none (vehicle-mounted)."""

    id: str
    name: str
    melee: bool = False
    type: WeaponType | None = None
    mounted: bool = Field(False, description="A vehicle-mounted weapon (L239-241).")
    CU: int | None = None
    PC: tuple[int, int] | None = None
    PI: tuple[int, int] | None = None
    PL: tuple[int, int] | None = None
    CdA: int = Field(ge=1)
    FO: int = Field(ge=0)
    DG: int = Field(ge=1)
    MPA: int = Field(0, le=0)
    rules: list[str] = []
    source: str
    note: str = ""


class WeaponRule(Strict):
    """A priced weapon special rule (L182-183)."""

    id: str
    name: str
    points: int
    text: str
    source: str


class Ability(Strict):
    """An ability of the creation system. `printed`: its rule text is in our text."""

    id: str
    name: str
    points: int
    printed: bool
    text: str
    source: str


class Material(Strict):
    """A row of the building table (L277-282): EN, SV, `pv` PV per `per_inches` inches."""

    id: str
    name: str
    EN: int
    SV: int | None = None
    pv: int = Field(ge=1)
    per_inches: int = Field(ge=1)
    source: str


class PrintedProfile(Strict):
    """A profile printed in the text, with its weapons (no printed cost: Caserne prices it)."""

    id: str
    name: str
    profile: NolimitsProfile
    size: SizeId
    weapons: list[str]
    abilities: list[str] = []
    vehicle: NolimitsVehicle | None = None
    equipment: list[str] = Field([], description="Printed, but with no profile to price.")
    source: str
    note: str = ""


class NolimitsSlot(Strict):
    """How many models of one profile a formation takes (L115, L120)."""

    profile: str
    min: int = Field(ge=0)
    max: int = Field(ge=1)


class Formation(Strict):
    """A catalogue unit built from printed profiles: troopers and an optional leader."""

    id: str
    name: str
    category: Category
    troopers: NolimitsSlot
    leader: NolimitsSlot | None = None
    source: str
    note: str = ""


class ExampleSpecialist(Strict):
    name: str
    count: int = Field(ge=1)
    weapons: list[str]


class ExampleEntry(Strict):
    unit: str
    count: int = Field(ge=1)
    name: str | None = None
    leader: str | None = None
    specialists: list[ExampleSpecialist] = []
    placement: Literal["reserve", "infiltration"] | None = None
    general: bool = False
    battle_standard: bool = False


class Example(Strict):
    """A roster of Caserne's own (the text prints none): `printed_total` is what Caserne gives."""

    id: str
    name: str
    printed_total: int
    points_limit: int | None
    entries: list[ExampleEntry]
    source: str
    expected_issue_codes: list[str] = []


class NolimitsScoreRules(Strict):
    """Victory points (L356-375)."""

    general_multiplier: int = Field(ge=1)
    terrain_points: int = Field(ge=0)
    banner_points: int = Field(ge=0)
    concession_divisor: int = Field(ge=1)
    source: str


class Note(Strict):
    """A decision Caserne took where the text is silent or contradicts itself (French)."""

    id: str
    title: str
    text: str


class Catalogue(Strict):
    system: SystemInfo
    categories: list[CategoryInfo]
    sizes: list[SizeInfo]
    vehicle_types: list[VehicleTypeInfo]
    weapons: list[Weapon]
    weapon_rules: list[WeaponRule]
    abilities: list[Ability]
    materials: list[Material]
    profiles: list[PrintedProfile]
    units: list[Formation]
    examples: list[Example]
    score: NolimitsScoreRules
    notes: list[Note] = []
    # In its own file (pricing.toml). Its absence is a cross-check, reported once the rest
    # of the data validates, like every other cross-check.
    pricing: Pricing | None = None

    @property
    def prices(self) -> Pricing:
        """The points system (build() refuses a catalogue without it)."""
        if self.pricing is None:
            raise LookupError("no pricing in this catalogue")
        return self.pricing

    def weapon(self, weapon_id: str) -> Weapon:
        return self._weapons[weapon_id]

    def weapon_rule(self, rule_id: str) -> WeaponRule:
        return self._rules[rule_id]

    def ability(self, ability_id: str) -> Ability:
        return self._abilities[ability_id]

    def profile(self, profile_id: str) -> PrintedProfile:
        return self._profiles[profile_id]

    def unit(self, unit_id: str) -> Formation:
        return self._units[unit_id]

    def material(self, material_id: str) -> Material:
        return self._materials[material_id]

    def category(self, category_id: str) -> CategoryInfo:
        return self._categories[category_id]

    def size(self, size_id: str) -> SizeInfo:
        return self._sizes[size_id]

    def model_post_init(self, _context: object) -> None:
        self._weapons = {w.id: w for w in self.weapons}
        self._rules = {r.id: r for r in self.weapon_rules}
        self._abilities = {a.id: a for a in self.abilities}
        self._profiles = {p.id: p for p in self.profiles}
        self._units = {u.id: u for u in self.units}
        self._materials = {m.id: m for m in self.materials}
        self._categories = {c.id: c for c in self.categories}
        self._sizes = {s.id: s for s in self.sizes}

    _weapons: dict[str, Weapon] = PrivateAttr()
    _rules: dict[str, WeaponRule] = PrivateAttr()
    _abilities: dict[str, Ability] = PrivateAttr()
    _profiles: dict[str, PrintedProfile] = PrivateAttr()
    _units: dict[str, Formation] = PrivateAttr()
    _materials: dict[str, Material] = PrivateAttr()
    _categories: dict[str, CategoryInfo] = PrivateAttr()
    _sizes: dict[str, SizeInfo] = PrivateAttr()
