"""The cost of one No Limits model: Caserne's points system (docs/nolimits-points.md).

"Chaque figurine a une valeur en points d'armée, celle-ci est fixée par la puissance du
soldat, par ses compétences et par son armement" (L86). Pure functions over the catalogue;
the price of a weapon is in weapons.py, the issues in checks.py.
Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from functools import lru_cache

from pydantic import BaseModel, Field

from app.systems.base import Costed, CostLine, Issue, prefixed
from app.systems.nolimits.catalogue import Catalogue, PrintedProfile
from app.systems.nolimits.checks import (
    cost_floor_issue,
    duplicate_ability_issue,
    house_rule_issue,
    rifle_range_issues,
    size_issues,
    unpriced_issues,
    weapon_issues,
)
from app.systems.nolimits.models import NolimitsHouseRule, NolimitsProfile, NolimitsUnitBase, SizeId
from app.systems.nolimits.rules import damage_track, effective_size
from app.systems.nolimits.weapons import (
    Lines,
    NolimitsWeaponDerived,
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
            issues.append(duplicate_ability_issue(known.name, path))
            continue
        seen.add(known.id)
        names.append(known.name)
        lines.add(f"habilete_{known.id}", known.name, known.points)
    return lines, names, house, issues


class NolimitsCost(Costed[NolimitsUnitDerived]):
    """The cost of one No Limits model: the breakdown's points add up to `points`."""


def cost_unit(catalogue: Catalogue, unit: NolimitsUnitBase) -> NolimitsCost:
    """The price of one model: profile, size, weapons, abilities, vehicle (note 1)."""
    pricing = catalogue.prices
    size, from_mm = effective_size(catalogue, unit)
    issues = size_issues(catalogue, unit, from_mm)
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
    issues += rifle_range_issues(specs)
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
    issues += unpriced_issues(unit.equipment)
    floor = pricing.model_floor.points
    if lines.total < floor:
        issues.append(cost_floor_issue(lines.total, floor))
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
    return NolimitsCost(points=lines.total, breakdown=list(lines), derived=derived, issues=issues)


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

    def cost(self, unit: NolimitsUnitBase) -> NolimitsCost:
        """The cached cost; callers copy its issues before changing their paths."""
        return self._by_json(unit.model_dump_json())

    def _cost_json(self, definition: str) -> NolimitsCost:
        return cost_unit(self.catalogue, NolimitsUnitBase.model_validate_json(definition))

    def printed(self, profile_id: str) -> tuple[str, NolimitsUnitBase]:
        """A printed profile's name and definition."""
        return self.catalogue.profile(profile_id).name, self._printed[profile_id]
