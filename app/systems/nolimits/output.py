"""What the No Limits API shows: the catalogue (typed, every item with id, name, kind)."""

from typing import Literal

from pydantic import BaseModel, Field

from app.systems.base import CostLine
from app.systems.nolimits.catalogue import Category, NolimitsScoreRules, NolimitsSlot
from app.systems.nolimits.definition import (
    NolimitsProfile,
    NolimitsUnitBase,
    NolimitsVehicle,
    SizeId,
)
from app.systems.nolimits.engine import NolimitsUnitDerived
from app.systems.nolimits.roster import NolimitsRosterBase
from app.systems.nolimits.weapons import Band


class NolimitsCategoryOut(BaseModel):
    id: str
    name: str
    kind: Literal["categorie"] = "categorie"
    text: str
    source: str


class NolimitsSizeOut(BaseModel):
    id: str
    name: str
    kind: Literal["taille"] = "taille"
    min_mm: int
    max_mm: int | None
    percent: int = Field(description="Of the profile part of the cost (pricing.toml).")
    text: str
    source: str


class NolimitsVehicleTypeOut(BaseModel):
    id: str
    name: str
    kind: Literal["type_de_vehicule"] = "type_de_vehicule"
    text: str
    source: str


class NolimitsCharacteristicOut(BaseModel):
    id: str = Field(description="The code in lower case, e.g. 'ac'.")
    name: str
    kind: Literal["caracteristique"] = "caracteristique"
    code: str
    baseline: int
    points: int = Field(description="Per point above the baseline (given back below it).")
    reason: str
    source: str


class NolimitsCoefficientOut(BaseModel):
    """One number of Caserne's points system (pricing.toml), with its reason."""

    id: str
    name: str
    kind: Literal["coefficient"] = "coefficient"
    value: int
    unit: str = Field(description="What `value` is: points, points per point, percent...")
    reference: int | None = None
    reason: str
    source: str


class NolimitsWeaponOut(BaseModel):
    id: str
    name: str
    kind: Literal["arme"] = "arme"
    melee: bool
    type: str | None
    mounted: bool
    CU: int | None = Field(description="As printed; a melee weapon's is 3 + its FO bonus.")
    PC: Band | None
    PI: Band | None
    PL: Band | None
    CdA: int
    FO: int
    DG: int
    MPA: int
    MA: int | None = Field(description="Ranged weapons; a melee MA depends on the wielder's FO.")
    rules: list[str]
    points: int = Field(
        description="Caserne's price of the weapon alone (on a vehicle if mounted)."
    )
    breakdown: list[CostLine]
    source: str
    note: str


class NolimitsWeaponRuleOut(BaseModel):
    id: str
    name: str
    kind: Literal["regle_d_arme"] = "regle_d_arme"
    points: int
    text: str
    source: str


class NolimitsAbilityOut(BaseModel):
    id: str
    name: str
    kind: Literal["habilete"] = "habilete"
    points: int
    printed: bool = Field(description="Whether the text prints the ability's rule.")
    text: str
    source: str


class NolimitsMaterialOut(BaseModel):
    id: str
    name: str
    kind: Literal["materiau"] = "materiau"
    EN: int
    SV: int | None
    pv: int
    per_inches: int
    text: str
    source: str


class NolimitsProfileOut(BaseModel):
    """A printed profile, priced by Caserne's points system (the text prints no cost)."""

    id: str
    name: str
    kind: Literal["profil"] = "profil"
    profile: NolimitsProfile
    size: SizeId
    weapons: list[str]
    abilities: list[str]
    vehicle: NolimitsVehicle | None
    equipment: list[str]
    points: int
    computed_points: int
    discrepancies: list[str]
    breakdown: list[CostLine]
    derived: NolimitsUnitDerived
    definition: NolimitsUnitBase = Field(description="The profile as POST .../cost takes it.")
    source: str
    note: str


class NolimitsUnitOut(BaseModel):
    """A catalogue unit (formation) built from printed profiles."""

    id: str
    name: str
    kind: Literal["unite"] = "unite"
    category: Category
    troopers: NolimitsSlot
    leader: NolimitsSlot | None
    source: str
    note: str


class NolimitsExampleOut(BaseModel):
    id: str
    name: str
    kind: Literal["exemple"] = "exemple"
    printed_total: int = Field(description="What Caserne's points system gives (not printed).")
    document: NolimitsRosterBase
    source: str


class NolimitsNoteOut(BaseModel):
    id: str
    name: str
    kind: Literal["decision"] = "decision"
    text: str


class NolimitsCatalogue(BaseModel):
    system: Literal["nolimits"] = "nolimits"
    name: str
    rules_version: str
    catalogue_version: str
    pricing_version: str
    categories: list[NolimitsCategoryOut]
    sizes: list[NolimitsSizeOut]
    vehicle_types: list[NolimitsVehicleTypeOut]
    characteristics: list[NolimitsCharacteristicOut]
    coefficients: list[NolimitsCoefficientOut]
    weapons: list[NolimitsWeaponOut]
    weapon_rules: list[NolimitsWeaponRuleOut]
    abilities: list[NolimitsAbilityOut]
    materials: list[NolimitsMaterialOut]
    profiles: list[NolimitsProfileOut]
    units: list[NolimitsUnitOut]
    examples: list[NolimitsExampleOut]
    score: NolimitsScoreRules
    notes: list[NolimitsNoteOut] = Field(
        description="Caserne's decisions where the rules are unclear."
    )
