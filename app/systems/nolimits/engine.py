"""The cost of one No Limits model: Caserne's points system (docs/nolimits-points.md).

"Chaque figurine a une valeur en points d'armée, celle-ci est fixée par la puissance du
soldat, par ses compétences et par son armement" (L86). Pure functions over the catalogue.
Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from collections.abc import Sequence
from functools import lru_cache

from pydantic import BaseModel, Field

from app.systems.base import Costed, CostLine, Issue, error, prefixed, warning
from app.systems.nolimits.catalogue import Catalogue, PrintedProfile
from app.systems.nolimits.checks import weapon_issues
from app.systems.nolimits.definition import (
    NolimitsHouseRule,
    NolimitsProfile,
    NolimitsUnitBase,
    SizeId,
)
from app.systems.nolimits.rules import (
    BuildingProfile,
    SizeBand,
    building_pv,
    damage_track,
    size_from_mm,
)
from app.systems.nolimits.weapons import (
    Lines,
    NolimitsWeaponDerived,
    WeaponSpec,
    price_weapon,
    signed,
    weapon_spec,
)


class NolimitsUnitDerived(BaseModel):
    """What the table needs beside the cost."""

    profile: NolimitsProfile
    size: SizeId = Field(description="The size category used (L71-84).")
    size_from_mm: SizeId | None = Field(description="The category size_mm gives, if given.")
    vehicle: bool
    weapons: list[NolimitsWeaponDerived]
    damage_track: list[list[str]] | None = Field(
        description="Rows of box labels (L235-238, L254-257); null under 5 PV (L252)."
    )
    abilities: list[str] = Field(description="Names of the abilities, house rules included.")
    house_rules: list[str] = Field(description="What the player priced (L17-18), as text.")
    unpriced: list[str] = Field(description="Equipment with no printed profile, not priced.")


def effective_size(catalogue: Catalogue, unit: NolimitsUnitBase) -> tuple[str, str | None]:
    """The declared size, else the one size_mm gives, else moyenne (note 7)."""
    from_mm = None
    if unit.size_mm is not None:
        bands = [SizeBand(id=s.id, min_mm=s.min_mm, max_mm=s.max_mm) for s in catalogue.sizes]
        from_mm = size_from_mm(unit.size_mm, bands)
    return unit.size or from_mm or "moyenne", from_mm


def _profile_lines(catalogue: Catalogue, profile: NolimitsProfile, size: str) -> Lines:
    pricing = catalogue.prices
    lines = Lines()
    lines.add("figurine", "Figurine de référence", pricing.model.points)
    for price in pricing.characteristics:
        delta = profile.value(price.code) - price.baseline
        lines.add(
            f"profil_{price.code}",
            f"{price.code} {profile.value(price.code)} (référence {price.baseline} : "
            f"{signed(delta)} × {price.points})",
            delta * price.points,
        )
    percent = pricing.size_percent(size)
    subtotal = lines.total
    lines.add(
        "taille",
        f"Taille {catalogue.size(size).name.lower()} : {percent} % du profil",
        subtotal * percent // 100 - subtotal,
    )
    return lines


def _ability_lines(
    catalogue: Catalogue, unit: NolimitsUnitBase
) -> tuple[Lines, list[str], list[str], list[Issue]]:
    lines, names, house, issues = Lines(), [], [], []
    seen: set[str] = set()
    for index, ability in enumerate(unit.abilities):
        path = f"abilities[{index}]"
        if isinstance(ability, NolimitsHouseRule):
            names.append(ability.name)
            house.append(f"{ability.name} ({ability.points} pts)")
            label = f"Règle maison : {ability.name}"
            lines.append(
                CostLine(id=f"habilete_maison_{index}", label=label, points=ability.points)
            )
            issues.append(house_rule_issue(ability.name, ability.points, path))
            continue
        known = catalogue.ability(ability)
        if known.id in seen:
            issues.append(
                error(
                    "duplicate_ability",
                    f"« {known.name} » est déjà choisie (comptée une fois).",
                    path,
                )
            )
            continue
        seen.add(known.id)
        names.append(known.name)
        lines.add(f"habilete_{known.id}", known.name, known.points)
    return lines, names, house, issues


def house_rule_issue(name: str, points: int, path: str) -> Issue:
    return warning(
        "house_rule",
        f"Règle maison « {name} » à {points} point(s) : à faire accepter par l'adversaire "
        "(L17-18).",
        path,
    )


def cost_unit(catalogue: Catalogue, unit: NolimitsUnitBase) -> Costed[NolimitsUnitDerived]:
    """The price of one model: profile, size, weapons, abilities, vehicle (note 1)."""
    pricing = catalogue.prices
    size, from_mm = effective_size(catalogue, unit)
    issues: list[Issue] = []
    if unit.size is not None and from_mm is not None and from_mm != unit.size:
        issues.append(
            warning(
                "size_differs_from_mm",
                f"{unit.size_mm} mm correspond à la taille « {catalogue.size(from_mm).name} » "
                f"(L73-84) ; la taille déclarée « {catalogue.size(unit.size).name} » est gardée.",
                "size",
            )
        )
    lines = _profile_lines(catalogue, unit.profile, size)
    on_vehicle = unit.vehicle is not None
    weapons: list[NolimitsWeaponDerived] = []
    house: list[str] = []
    specs = [weapon_spec(catalogue, weapon) for weapon in unit.weapons]
    for index, spec in enumerate(specs):
        priced = price_weapon(
            pricing.weapons,
            pricing.vehicle.weapon_percent,
            spec,
            on_vehicle=on_vehicle,
            wielder_fo=unit.profile.FO,
        )
        weapons.append(priced)
        lines.add(f"arme_{index}", f"Arme : {spec.name}", priced.points)
        issues += prefixed(
            weapon_issues(pricing.weapons, spec, on_vehicle=on_vehicle), f"weapons[{index}]"
        )
        house += [f"{spec.name} : {r.name} ({r.points} pts)" for r in spec.rules if r.house]
    issues += _rifle_range_issues(specs)
    ability_lines, ability_names, ability_house, ability_issues = _ability_lines(catalogue, unit)
    lines += ability_lines
    house += ability_house
    issues += ability_issues
    if unit.vehicle is not None:
        passengers = unit.vehicle.passengers
        lines.add(
            "passagers",
            f"Passagers : {passengers} × {pricing.vehicle.passenger.points}",
            passengers * pricing.vehicle.passenger.points,
        )
    issues += [
        warning(
            "unpriced_equipment",
            f"« {item} » n'a pas de profil imprimé : non compté dans le coût.",
            f"equipment[{index}]",
        )
        for index, item in enumerate(unit.equipment)
    ]
    floor = pricing.model_floor.points
    if lines.total < floor:
        issues.append(
            warning(
                "cost_floor",
                f"Ce profil vaudrait {lines.total} point(s) ; une figurine "
                f"coûte au moins {floor} point(s).",
            )
        )
        lines.add("plancher", "Coût minimal d'une figurine", floor - lines.total)
    derived = NolimitsUnitDerived(
        profile=unit.profile,
        size=size,
        size_from_mm=from_mm,
        vehicle=on_vehicle,
        weapons=weapons,
        damage_track=damage_track(unit.profile.PV),
        abilities=ability_names,
        house_rules=house,
        unpriced=list(unit.equipment),
    )
    return Costed[NolimitsUnitDerived](
        points=lines.total, breakdown=list(lines), derived=derived, issues=issues
    )


def _rifle_range_issues(specs: Sequence[WeaponSpec]) -> list[Issue]:
    """'Un fusil ... devrait avoir une plus grande portée qu'un pistolet' (L202): compared with
    the pistols of the same model (note 6)."""
    pistols = [spec for spec in specs if spec.type == "pistolet" and not spec.melee]
    if not pistols:
        return []
    reach = max(spec.reach for spec in pistols)
    return [
        warning(
            "rifle_range",
            f"« {spec.name} » porte à {spec.reach} pas, pas plus loin que le pistolet "
            f"({reach} pas) ; un fusil devrait porter plus loin (L202).",
            f"weapons[{index}]",
        )
        for index, spec in enumerate(specs)
        if spec.type == "fusil" and not spec.melee and spec.reach <= reach
    ]


def printed_definition(profile: PrintedProfile) -> dict[str, object]:
    """A printed profile as POST .../cost takes it."""
    definition: dict[str, object] = {
        "profile": profile.profile.model_dump(),
        "size": profile.size,
        "weapons": list(profile.weapons),
        "abilities": list(profile.abilities),
        "vehicle": profile.vehicle.model_dump() if profile.vehicle else None,
    }
    if profile.equipment:
        definition["equipment"] = list(profile.equipment)
    return definition


def building_profile(catalogue: Catalogue, material_id: str, size_in: int) -> BuildingProfile:
    """EN, SV and PV of a building of `size_in` inches in one material (L273-282, note 9)."""
    material = catalogue.material(material_id)
    return BuildingProfile(
        material=material.id,
        name=material.name,
        size_in=size_in,
        EN=material.EN,
        SV=material.SV,
        PV=building_pv(size_in, material.pv, material.per_inches),
    )


class Pricer:
    """Costs models for one catalogue. Costs are pure, so the last few thousand are kept
    (a roster repeats its profiles; the API is asked the same unit again and again)."""

    def __init__(self, catalogue: Catalogue, size: int = 4096) -> None:
        self.catalogue = catalogue
        self._by_json = lru_cache(maxsize=size)(self._cost_json)
        self._printed = {
            profile.id: NolimitsUnitBase.model_validate(printed_definition(profile))
            for profile in catalogue.profiles
        }

    def cost(self, unit: NolimitsUnitBase) -> Costed[NolimitsUnitDerived]:
        """The cached cost; callers copy its issues before changing their paths."""
        return self._by_json(unit.model_dump_json())

    def _cost_json(self, definition: str) -> Costed[NolimitsUnitDerived]:
        return cost_unit(self.catalogue, NolimitsUnitBase.model_validate_json(definition))

    def printed(self, profile_id: str) -> tuple[str, NolimitsUnitBase]:
        """A printed profile's name and definition."""
        return self.catalogue.profile(profile_id).name, self._printed[profile_id]
