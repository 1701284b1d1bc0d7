"""What pydantic cannot see in the No Limits catalogue and pricing: duplicates, missing or
unknown ids, size bands with holes, weapons that cannot be played as printed."""

from typing import get_args

from app.systems.building import duplicate_ids
from app.systems.nolimits.catalogue import Catalogue, Pricing, SizeInfo
from app.systems.nolimits.models import CHARACTERISTICS, Category, SizeId, VehicleType

CATEGORIES: tuple[str, ...] = get_args(Category)
SIZES: tuple[str, ...] = get_args(SizeId)
VEHICLE_TYPES: tuple[str, ...] = get_args(VehicleType)


def _exactly(kind: str, ids: list[str], expected: tuple[str, ...]) -> list[str]:
    if sorted(ids) == sorted(expected):
        return []
    return [f"{kind}: define exactly {', '.join(expected)} once each (got {', '.join(ids)})"]


def _weapon_problems(catalogue: Catalogue) -> list[str]:
    problems = []
    for index, weapon in enumerate(catalogue.weapons):
        where = f"weapons[{index}]"
        bands = [weapon.PC, weapon.PI, weapon.PL]
        if weapon.melee and any(bands):
            problems.append(f"{where}: a melee weapon has no range bands")
        if not weapon.melee and not any(bands):
            problems.append(f"{where}: a ranged weapon needs at least one range band")
        if weapon.mounted and weapon.CU is not None:
            problems.append(f"{where}.CU: vehicle-mounted weapons have no CU (L241)")
        if not weapon.melee and not weapon.mounted and weapon.CU is None:
            problems.append(f"{where}.CU: a ranged weapon carried by a model needs its CU")
        problems += [
            f"{where}.rules: unknown weapon rule {rule!r}"
            for rule in weapon.rules
            if not catalogue.has("weapon_rules", rule)
        ]
    return problems


def _reference_problems(catalogue: Catalogue) -> list[str]:
    problems = []
    for index, profile in enumerate(catalogue.profiles):
        problems += [
            f"profiles[{index}].weapons: unknown weapon {w!r}"
            for w in profile.weapons
            if not catalogue.has("weapons", w)
        ]
        problems += [
            f"profiles[{index}].abilities: unknown ability {a!r}"
            for a in profile.abilities
            if not catalogue.has("abilities", a)
        ]
    for index, unit in enumerate(catalogue.units):
        for slot_name, slot in (("troopers", unit.troopers), ("leader", unit.leader)):
            if slot is None:
                continue
            if not catalogue.has("profiles", slot.profile):
                problems.append(f"units[{index}].{slot_name}: unknown profile {slot.profile!r}")
            if slot.min > slot.max:
                problems.append(f"units[{index}].{slot_name}: min is above max")
    for index, example in enumerate(catalogue.examples):
        for entry_index, entry in enumerate(example.entries):
            where = f"examples[{index}].entries[{entry_index}]"
            formation = catalogue.unit(entry.unit) if catalogue.has("units", entry.unit) else None
            problems += [
                f"{where}.specialists: unknown weapon {w!r}"
                for specialist in entry.specialists
                for w in specialist.weapons
                if not catalogue.has("weapons", w)
            ]
            if formation is None:
                problems.append(f"{where}.unit: unknown unit {entry.unit!r}")
            elif entry.leader is not None and (
                formation.leader is None or formation.leader.profile != entry.leader
            ):
                problems.append(f"{where}.leader: {entry.leader!r} cannot lead {entry.unit!r}")
    return problems


def cross_check(catalogue: Catalogue) -> list[str]:
    """What pydantic cannot see: duplicates, missing ids, references to unknown ids."""
    problems: list[str] = []
    for kind, ids in (
        ("weapons", [w.id for w in catalogue.weapons]),
        ("weapon_rules", [r.id for r in catalogue.weapon_rules]),
        ("abilities", [a.id for a in catalogue.abilities]),
        ("materials", [m.id for m in catalogue.materials]),
        ("profiles", [p.id for p in catalogue.profiles]),
        ("units", [u.id for u in catalogue.units]),
        ("examples", [e.id for e in catalogue.examples]),
        ("notes", [n.id for n in catalogue.notes]),
    ):
        problems += duplicate_ids(kind, ids)
    problems += _exactly("categories", [c.id for c in catalogue.categories], CATEGORIES)
    problems += _exactly("sizes", [s.id for s in catalogue.sizes], SIZES)
    problems += _exactly("vehicle_types", [v.id for v in catalogue.vehicle_types], VEHICLE_TYPES)
    if not catalogue.weapon_rules or not catalogue.abilities or not catalogue.weapons:
        problems.append("weapons, weapon_rules and abilities must not be empty")
    problems += _size_problems(catalogue.sizes)
    problems += _weapon_problems(catalogue)
    problems += _reference_problems(catalogue)
    if catalogue.pricing is None:
        problems.append("pricing: the points system is missing (pricing.toml, [pricing])")
    else:
        problems += _pricing_problems(catalogue.pricing)
    return problems


def _size_problems(sizes: list[SizeInfo]) -> list[str]:
    """The size bands must cover every millimetre from 1 up, without overlap."""
    ordered = sorted(sizes, key=lambda s: s.min_mm)
    expected = 1
    for size in ordered:
        if size.min_mm > expected:
            return [f"sizes: nothing covers {expected} mm (next band {size.id!r})"]
        if size.min_mm < expected:
            return [f"sizes: {size.id!r} overlaps the band below"]
        if size.max_mm is None:
            return [] if size is ordered[-1] else ["sizes: only the last band is open-ended"]
        expected = size.max_mm + 1
    return ["sizes: the last band must be open-ended (max_mm absent)"]


def _pricing_problems(pricing: Pricing) -> list[str]:
    problems = []
    if sorted(c.code for c in pricing.characteristics) != sorted(CHARACTERISTICS):
        problems.append("pricing.characteristics: price exactly AC CT CC FO EN PV CO SV, once each")
    if sorted(s.size for s in pricing.sizes) != sorted(SIZES):
        problems.append("pricing.sizes: price each size category once")
    if pricing.weapons.floor.points < 0:
        problems.append("pricing.weapons.floor: a weapon cannot lower a model's cost")
    return problems
