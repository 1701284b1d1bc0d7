"""The No Limits catalogue as the API shows it, and rosters as readers see them."""

from app.systems.base import Badge, EntryResult, Issue, SummaryLine
from app.systems.nolimits.catalogue import Catalogue
from app.systems.nolimits.definition import NolimitsUnitBase
from app.systems.nolimits.engine import NolimitsUnitDerived, cost_unit, printed_definition
from app.systems.nolimits.output import (
    NolimitsAbilityOut,
    NolimitsCategoryOut,
    NolimitsCharacteristicOut,
    NolimitsCoefficientOut,
    NolimitsMaterialOut,
    NolimitsNoteOut,
    NolimitsProfileOut,
    NolimitsSizeOut,
    NolimitsUnitOut,
    NolimitsVehicleTypeOut,
    NolimitsWeaponOut,
    NolimitsWeaponRuleOut,
)
from app.systems.nolimits.pricing_data import Pricing
from app.systems.nolimits.roster import NolimitsEntryDerived
from app.systems.nolimits.weapons import (
    NolimitsWeaponDerived,
    band_text,
    price_weapon,
    signed,
    weapon_spec,
)


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
        "notes": [NolimitsNoteOut(id=n.id, name=n.title, text=n.text) for n in catalogue.notes],
    }


def weapon_text(weapon: NolimitsWeaponDerived) -> str:
    parts = []
    if weapon.CU is not None:
        parts.append(f"CU {weapon.CU}")
    if weapon.melee:
        parts.append(f"corps à corps, FO {weapon.FO} (bonus +{weapon.FO_bonus})")
    else:
        bands = [band for band in (weapon.PC, weapon.PI, weapon.PL) if band]
        parts.append(" ".join(band_text(band) for band in bands))
        parts.append(f"FO {weapon.FO}")
    parts.append(f"MA {signed(weapon.MA) if weapon.MA else 0}")
    parts.append(f"CdA {weapon.CdA}")
    parts.append(f"DG {weapon.DG}")
    if weapon.MPA:
        parts.append(f"MPA {signed(weapon.MPA)}")
    parts += weapon.rules
    return f"{weapon.name} ({', '.join(parts)})"


def unit_details(derived: NolimitsUnitDerived) -> list[str]:
    details = [derived.profile.text()]
    if derived.size != "moyenne":
        details.append(f"Taille {derived.size.replace('tres_', 'très ')}")
    details += [weapon_text(weapon) for weapon in derived.weapons]
    if derived.abilities:
        details.append("Habiletés : " + ", ".join(derived.abilities))
    if derived.unpriced:
        details.append("Non chiffré : " + ", ".join(derived.unpriced))
    if derived.damage_track:
        details.append(
            "Indicateur de dégâts : " + " / ".join(" ".join(row) for row in derived.damage_track)
        )
    return details


PLACEMENTS = {"reserve": "Réserve", "infiltration": "Infiltration"}
ROLES = {"troupe": "", "chef": " (chef d'unité)", "specialiste": " (spécialiste)"}


def summary_lines(
    catalogue: Catalogue, index: int, result: EntryResult[NolimitsEntryDerived]
) -> list[SummaryLine]:
    """One line per part of the entry (troopers, leader, specialists), under one group."""
    derived = result.derived
    badges = [Badge(text=catalogue.category(derived.category).name, kind="category")]
    if derived.general:
        badges.append(Badge(text="Général d'armée", kind="general"))
    if derived.battle_standard:
        badges.append(Badge(text="Bannière d'armée", kind="banner"))
    if derived.placement:
        badges.append(Badge(text=PLACEMENTS[derived.placement], kind="placement"))
    lines = []
    for number, part in enumerate(derived.parts):
        first = number == 0
        lines.append(
            SummaryLine(
                name=part.name + ROLES[part.role],
                count=part.count,
                points_each=part.points_each,
                points=part.points,
                group=f"{index + 1}. {result.name}",
                badges=badges if first else [],
                details=unit_details(part.derived),
                house_rules=part.derived.house_rules,
                issues=result.issues if first else list[Issue](),
            )
        )
    return lines
