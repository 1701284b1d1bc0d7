"""The No Limits catalogue as data: `data/systems/nolimits/catalogue.toml` and `pricing.toml`,
checked at start-up (catalogue_checks.py). Items are looked up by id with the catalogue's
methods: `catalogue.weapon(id)`, `catalogue.unit(id)`, `catalogue.ability(id)`..."""

from typing import ClassVar, Literal

from pydantic import Field

from app.systems import building
from app.systems.building import CatalogueModel, Lookup
from app.systems.nolimits.models import (
    Band,
    Category,
    Characteristic,
    NolimitsProfile,
    NolimitsVehicle,
    Placement,
    SizeId,
    VehicleType,
    WeaponType,
)

# pricing.toml, Caserne's points system: every coefficient has its reason (nolimits-points.md).
# Prices per point are never negative: raising a characteristic, CdA, FO, DG or a range never
# lowers a cost, raising a CU never raises it (the monotonicity the tests check).


class Reasoned(CatalogueModel):
    reason: str = Field(min_length=1)
    source: str = ""


class Points(Reasoned):
    """A flat price."""

    points: int


class PerPoint(Reasoned):
    """`points` for each point above `reference` (a credit below it)."""

    reference: int = 0
    points: int = Field(ge=0)


class PerInches(Reasoned):
    """`points` for each full `inches` inches."""

    inches: int = Field(ge=1)
    points: int = Field(ge=0)


class MeleeUseCost(Reasoned):
    """A melee CU is expected at `base` + FO bonus (L124, L171); `points` per AC below it."""

    base: int
    points: int = Field(ge=0)


class CharacteristicPrice(Reasoned):
    code: Characteristic
    name: str
    baseline: int = Field(ge=0)
    points: int = Field(ge=0)


class RangedPricing(CatalogueModel):
    strength: PerPoint
    range: PerInches
    modifier: PerPoint
    use_cost: PerPoint = Field(description="(reference - CU) x points: a cheaper CU costs more.")


class MeleePricing(CatalogueModel):
    strength: PerPoint
    use_cost: MeleeUseCost


class WeaponPricing(CatalogueModel):
    ranged: RangedPricing
    melee: MeleePricing
    attacks: PerPoint = Field(description="CdA above the reference.")
    damage: PerPoint = Field(description="DG above the reference.")
    penetration: PerPoint = Field(description="Per point of MPA (printed negative).")
    floor: Points = Field(description="The least a weapon can cost.")


class SizePrice(Reasoned):
    size: SizeId
    percent: int = Field(ge=0, le=1000, description="Of the profile part of the cost.")


class VehiclePricing(Reasoned):
    weapon_percent: int = Field(ge=0, le=1000, description="Of each vehicle-mounted weapon.")
    passenger: Points


class Pricing(CatalogueModel):
    version: str
    model: Points = Field(description="A model at the baseline profile.")
    model_floor: Points = Field(description="The least a model (with its gear) can cost.")
    characteristics: list[CharacteristicPrice]
    weapons: WeaponPricing
    sizes: list[SizePrice]
    vehicle: VehiclePricing

    def size_percent(self, size: str) -> int:
        return next(s.percent for s in self.sizes if s.size == size)


# catalogue.toml: what the text prints.


class SystemInfo(building.SystemInfo):
    id: Literal["nolimits"]


class Described(CatalogueModel):
    """An item the text describes: its French name, its text, and where it stands."""

    name: str
    text: str
    source: str


class CategoryInfo(Described):
    id: Category


class SizeInfo(Described):
    """A size category and the heights (or lengths) it covers, whole millimetres (L73-84)."""

    id: SizeId
    min_mm: int = Field(ge=0)
    max_mm: int | None = None


class VehicleTypeInfo(Described):
    id: VehicleType


class Weapon(CatalogueModel):
    """A printed weapon profile. `CU` absent: derived (melee) or none (vehicle-mounted)."""

    id: str
    name: str
    melee: bool = False
    type: WeaponType | None = None
    mounted: bool = Field(False, description="A vehicle-mounted weapon (L239-241).")
    CU: int | None = None
    PC: Band | None = None
    PI: Band | None = None
    PL: Band | None = None
    CdA: int = Field(ge=1)
    FO: int = Field(ge=0)
    DG: int = Field(ge=1)
    MPA: int = Field(0, le=0)
    rules: list[str] = []
    source: str
    note: str = ""


class WeaponRule(Described):
    """A priced weapon special rule (L182-183)."""

    id: str
    points: int


class Ability(Described):
    """An ability of the creation system. `printed`: its rule text is in our text."""

    id: str
    points: int
    printed: bool


class Material(CatalogueModel):
    """A row of the building table (L277-282): EN, SV, `pv` PV per `per_inches` inches."""

    id: str
    name: str
    EN: int
    SV: int | None = None
    pv: int = Field(ge=1)
    per_inches: int = Field(ge=1)
    source: str


class PrintedProfile(CatalogueModel):
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


class NolimitsSlot(CatalogueModel):
    """How many models of one profile a formation takes (L115, L120)."""

    profile: str
    min: int = Field(ge=0)
    max: int = Field(ge=1)


class Formation(CatalogueModel):
    """A catalogue unit built from printed profiles: troopers and an optional leader."""

    id: str
    name: str
    category: Category
    troopers: NolimitsSlot
    leader: NolimitsSlot | None = None
    source: str
    note: str = ""


class ExampleSpecialist(CatalogueModel):
    name: str
    count: int = Field(ge=1)
    weapons: list[str]


class ExampleEntry(CatalogueModel):
    unit: str
    count: int = Field(ge=1)
    name: str | None = None
    leader: str | None = None
    specialists: list[ExampleSpecialist] = []
    placement: Placement | None = None
    general: bool = False
    battle_standard: bool = False


class Example(building.ExampleData):
    """A roster of Caserne's own (the text prints none): `printed_total` is what Caserne gives."""

    printed_total: int
    points_limit: int | None
    entries: list[ExampleEntry]
    source: str
    expected_issue_codes: list[str] = []


class NolimitsScoreRules(CatalogueModel):
    """Victory points (L356-375)."""

    general_multiplier: int = Field(ge=1)
    terrain_points: int = Field(ge=0)
    banner_points: int = Field(ge=0)
    concession_divisor: int = Field(ge=1)
    source: str


class Catalogue(building.SystemCatalogue):
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
    # From pricing.toml; its absence is a cross-check, like every other.
    pricing: Pricing | None = None

    @property
    def prices(self) -> Pricing:
        """The points system (build() refuses a catalogue without it)."""
        if self.pricing is None:
            raise LookupError("no pricing in this catalogue")
        return self.pricing

    weapon: ClassVar[Lookup[Weapon]] = Lookup("weapons")
    weapon_rule: ClassVar[Lookup[WeaponRule]] = Lookup("weapon_rules")
    ability: ClassVar[Lookup[Ability]] = Lookup("abilities")
    profile: ClassVar[Lookup[PrintedProfile]] = Lookup("profiles")
    unit: ClassVar[Lookup[Formation]] = Lookup("units")
    material: ClassVar[Lookup[Material]] = Lookup("materials")
    category: ClassVar[Lookup[CategoryInfo]] = Lookup("categories")
    size: ClassVar[Lookup[SizeInfo]] = Lookup("sizes")
