"""What the No Limits API shows: the catalogue, every item with id, name and kind, every
printed profile and weapon priced by Caserne's points system (summary.py: a roster's lines)."""

from typing import Literal

from pydantic import Field

from app.systems.base import CostLine
from app.systems.catalogued import CatalogueOut, DescribedOut, ExampleOut, ItemOut, PricedOut
from app.systems.nolimits.catalogue import (
    Catalogue,
    NolimitsScoreRules,
    NolimitsSlot,
    Pricing,
)
from app.systems.nolimits.models import (
    Band,
    Category,
    NolimitsProfile,
    NolimitsRosterBase,
    NolimitsUnitBase,
    NolimitsVehicle,
    SizeId,
)
from app.systems.nolimits.pricing import NolimitsUnitDerived, cost_unit, printed_definition
from app.systems.nolimits.weapons import price_weapon, weapon_spec


class NolimitsCategoryOut(DescribedOut):
    kind: Literal["categorie"] = "categorie"


class NolimitsSizeOut(DescribedOut):
    kind: Literal["taille"] = "taille"
    min_mm: int
    max_mm: int | None
    percent: int = Field(description="Of the profile part of the cost (pricing.toml).")


class NolimitsVehicleTypeOut(DescribedOut):
    kind: Literal["type_de_vehicule"] = "type_de_vehicule"


class NolimitsCharacteristicOut(ItemOut):
    id: str = Field(description="The code in lower case, e.g. 'ac'.")
    kind: Literal["caracteristique"] = "caracteristique"
    code: str
    baseline: int
    points: int = Field(description="Per point above the baseline (given back below it).")
    reason: str
    source: str


class NolimitsCoefficientOut(ItemOut):
    """One number of Caserne's points system (pricing.toml), with its reason."""

    kind: Literal["coefficient"] = "coefficient"
    value: int
    unit: str = Field(description="What `value` is: points, points per point, percent...")
    reference: int | None = None
    reason: str
    source: str


class NolimitsWeaponOut(ItemOut):
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


class NolimitsWeaponRuleOut(PricedOut):
    kind: Literal["regle_d_arme"] = "regle_d_arme"


class NolimitsAbilityOut(PricedOut):
    kind: Literal["habilete"] = "habilete"
    printed: bool = Field(description="Whether the text prints the ability's rule.")


class NolimitsMaterialOut(DescribedOut):
    kind: Literal["materiau"] = "materiau"
    EN: int
    SV: int | None
    pv: int
    per_inches: int


class NolimitsProfileOut(ItemOut):
    """A printed profile, priced by Caserne's points system (the text prints no cost)."""

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


class NolimitsUnitOut(ItemOut):
    """A catalogue unit (formation) built from printed profiles."""

    kind: Literal["unite"] = "unite"
    category: Category
    troopers: NolimitsSlot
    leader: NolimitsSlot | None
    source: str
    note: str


class NolimitsExampleOut(ExampleOut[NolimitsRosterBase]):
    """A list of Caserne's own: `printed_total` is what its points system gives (not printed)."""


class NolimitsCatalogue(CatalogueOut):
    system: Literal["nolimits"] = "nolimits"
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


def coefficients(pricing: Pricing) -> list[NolimitsCoefficientOut]:
    w = pricing.weapons
    per_point = "points par point"
    # fmt: off
    rows = [
        ("figurine", "Figurine de référence", pricing.model.points, "points", None, pricing.model),
        ("plancher_figurine", "Coût minimal d'une figurine", pricing.model_floor.points,
         "points", None, pricing.model_floor),
        ("fo_arme_a_distance", "FO d'une arme à distance", w.ranged.strength.points, per_point,
         w.ranged.strength.reference, w.ranged.strength),
        ("portee", f"Portées (PC + PI + PL), par {w.ranged.range.inches} pas",
         w.ranged.range.points, "points par tranche", None, w.ranged.range),
        ("modificateurs_de_portee", "Modificateurs de CT des portées", w.ranged.modifier.points,
         per_point, w.ranged.modifier.reference, w.ranged.modifier),
        ("cu_arme_a_distance", "CU d'une arme à distance (en dessous de la référence)",
         w.ranged.use_cost.points, "points par AC", w.ranged.use_cost.reference, w.ranged.use_cost),
        ("bonus_fo_corps_a_corps", "Bonus de FO d'une arme de corps à corps",
         w.melee.strength.points, per_point, w.melee.strength.reference, w.melee.strength),
        ("cu_corps_a_corps", "CU d'une arme de corps à corps (en dessous de 3 + bonus de FO)",
         w.melee.use_cost.points, "points par AC", w.melee.use_cost.base, w.melee.use_cost),
        ("cda", "Cadence d'attaque (CdA)", w.attacks.points, per_point, w.attacks.reference,
         w.attacks),
        ("dg", "Points de dégâts (DG)", w.damage.points, per_point, w.damage.reference, w.damage),
        ("penetration", "Modificateur de pénétration", w.penetration.points, per_point,
         w.penetration.reference, w.penetration),
        ("plancher_arme", "Coût minimal d'une arme", w.floor.points, "points", None, w.floor),
        ("arme_de_vehicule", "Arme montée sur véhicule", pricing.vehicle.weapon_percent,
         "% du prix de l'arme", 100, pricing.vehicle),
        ("passager", "Place de passager", pricing.vehicle.passenger.points, "points par place",
         None, pricing.vehicle.passenger),
    ]
    # fmt: on
    return [
        NolimitsCoefficientOut(
            id=id_,
            name=name,
            value=value,
            unit=unit,
            reference=reference,
            reason=priced.reason,
            source=priced.source,
        )
        for id_, name, value, unit, reference, priced in rows
    ]


def weapon_out(catalogue: Catalogue, weapon_id: str) -> NolimitsWeaponOut:
    weapon = catalogue.weapon(weapon_id)
    pricing = catalogue.prices
    priced = price_weapon(
        pricing.weapons,
        pricing.vehicle.weapon_percent,
        weapon_spec(catalogue, weapon_id),
        on_vehicle=weapon.mounted,
        wielder_fo=0,
    )
    return NolimitsWeaponOut(
        **weapon.model_dump(exclude={"rules", "CU"}),
        CU=weapon.CU,
        MA=None if weapon.melee else priced.MA,
        rules=priced.rules,
        points=priced.points,
        breakdown=priced.breakdown,
    )


def profile_out(catalogue: Catalogue, profile_id: str) -> NolimitsProfileOut:
    profile = catalogue.profile(profile_id)
    definition = NolimitsUnitBase.model_validate(printed_definition(profile))
    costed = cost_unit(catalogue, definition)
    return NolimitsProfileOut(
        **profile.model_dump(exclude={"profile", "vehicle"}),
        profile=profile.profile,
        vehicle=profile.vehicle,
        points=costed.points,
        computed_points=costed.points,
        discrepancies=[
            f"Non chiffré : {item} (aucun profil imprimé, {profile.source})."
            for item in profile.equipment
        ],
        breakdown=costed.breakdown,
        derived=costed.derived,
        definition=definition,
    )


def catalogue_parts(catalogue: Catalogue) -> dict[str, object]:
    """Everything of the catalogue output but the system identity and the examples."""
    pricing = catalogue.prices
    return {
        "pricing_version": pricing.version,
        "categories": [NolimitsCategoryOut(**c.model_dump()) for c in catalogue.categories],
        "sizes": [
            NolimitsSizeOut(**s.model_dump(), percent=pricing.size_percent(s.id))
            for s in catalogue.sizes
        ],
        "vehicle_types": [
            NolimitsVehicleTypeOut(**v.model_dump()) for v in catalogue.vehicle_types
        ],
        "characteristics": [
            NolimitsCharacteristicOut(id=c.code.lower(), **c.model_dump())
            for c in pricing.characteristics
        ],
        "coefficients": coefficients(pricing),
        "weapons": [weapon_out(catalogue, w.id) for w in catalogue.weapons],
        "weapon_rules": [NolimitsWeaponRuleOut(**r.model_dump()) for r in catalogue.weapon_rules],
        "abilities": [NolimitsAbilityOut(**a.model_dump()) for a in catalogue.abilities],
        "materials": [
            NolimitsMaterialOut(
                **m.model_dump(),
                text=f"EN {m.EN}, SV {m.SV if m.SV is not None else '-'}, "
                f"{m.pv} PV par {m.per_inches} pouce(s)",
            )
            for m in catalogue.materials
        ],
        "profiles": [profile_out(catalogue, p.id) for p in catalogue.profiles],
        "units": [NolimitsUnitOut(**u.model_dump()) for u in catalogue.units],
        "score": catalogue.score,
    }
