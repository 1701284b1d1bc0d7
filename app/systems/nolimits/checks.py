"""Every issue a No Limits unit or roster can have: a unit's definition (size, abilities,
equipment, cost floor), what makes a weapon unplayable, the text's guidelines (L195-204,
warnings), a unit's composition (L88-121, L313-319), the general (L101-102), the army
banner (L366) and the points limit (L42). The modules that price and validate call these
and decide where each issue stands.

Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from collections.abc import Sequence
from typing import Any

from app.systems.base import Issue, error, prefixed, warning
from app.systems.catalogued import empty_roster, over_points_limit
from app.systems.nolimits.catalogue import Catalogue, Formation, WeaponPricing
from app.systems.nolimits.models import NolimitsUnitBase
from app.systems.nolimits.weapons import WeaponSpec, melee_cu

# "Une unité s'infiltrant de peut jamais comporter plus de six figurines" (L317)
INFILTRATION_MAX = 6
BASE_UNIT_MODELS = (4, 20)  # "en général, elles contiennent de 4 à 20 figurines" (L89)
SINGLE_MODEL = ("personnage", "heros")  # individuals (L96-100)
TEAM_CATEGORIES = ("unite_de_base", "soutien")  # may have a leader and specialists (L91-95)
GENERAL_CATEGORIES = ("personnage", "heros")  # "un personnage ou ... un Héros" (L102)


def house_rule_issue(name: str, points: int, path: str, weapon: str | None = None) -> Issue:
    """A rule the creation system lacks, at the player's price (L17-18)."""
    what = f"« {weapon} » : règle maison" if weapon else "Règle maison"
    return warning(
        "house_rule",
        f"{what} « {name} » à {points} point(s), à faire accepter par l'adversaire (L17-18).",
        path,
    )


def size_issues(catalogue: Catalogue, unit: NolimitsUnitBase, from_mm: str | None) -> list[Issue]:
    """A declared size wins over the one size_mm gives, and is said (note 7)."""
    if unit.size is None or from_mm is None or from_mm == unit.size:
        return []
    message = (
        f"{unit.size_mm} mm correspond à la taille « {catalogue.size(from_mm).name} » "
        f"(L73-84) ; la taille déclarée « {catalogue.size(unit.size).name} » est gardée."
    )
    return [warning("size_differs_from_mm", message, "size")]


def duplicate_ability_issue(name: str, path: str) -> Issue:
    return error("duplicate_ability", f"« {name} » est déjà choisie (comptée une fois).", path)


def unpriced_issues(equipment: Sequence[str]) -> list[Issue]:
    """Equipment the text names without a profile (L230-233): listed, not priced (note 8)."""
    return [
        warning(
            "unpriced_equipment",
            f"« {item} » n'a pas de profil imprimé : non compté dans le coût.",
            f"equipment[{index}]",
        )
        for index, item in enumerate(equipment)
    ]


def cost_floor_issue(points: int, floor: int) -> Issue:
    return warning(
        "cost_floor",
        f"Ce profil vaudrait {points} point(s) ; une figurine coûte au moins {floor} point(s).",
    )


def weapon_issues(prices: WeaponPricing, spec: WeaponSpec, *, on_vehicle: bool) -> list[Issue]:
    """What makes a weapon unplayable (errors) or off the text's guidelines (warnings,
    L195-204), with paths relative to the weapon."""
    name = f"« {spec.name} »"
    issues: list[Issue] = []
    if spec.melee and spec.bands:
        message = f"{name} : une arme de corps à corps n'a pas de portées."
        issues.append(error("melee_weapon_with_range", message, "PC"))
    if not spec.melee and not spec.bands:
        message = (
            f"{name} : une arme à distance a besoin d'au moins une portée (PC, PI ou PL, L157-162)."
        )
        issues.append(error("ranged_weapon_without_range", message, "PL"))
    if not spec.melee and not on_vehicle and spec.CU is None:
        why = " : c'est une arme montée sur véhicule (L239-241)" if spec.mounted else ""
        message = (
            f"{name} n'a pas de coût d'utilisation (CU){why} ; "
            "portée par une figurine, elle en a besoin (L155-156)."
        )
        issues.append(error("missing_cu", message, "CU"))
    if on_vehicle and spec.CU is not None:
        message = f"{name} : les armes montées sur véhicule n'ont pas de CU (L241) ; il est ignoré."
        issues.append(warning("cu_on_vehicle_weapon", message, "CU"))
    distances = [band[0] for _name, band in spec.bands]
    if distances != sorted(set(distances)):
        message = (
            f"{name} : les portées courte, intermédiaire et longue devraient aller croissant "
            "(L157-162)."
        )
        issues.append(warning("range_bands_order", message, "PI"))
    issues += guideline_issues(prices, spec, on_vehicle=on_vehicle)
    issues += [
        house_rule_issue(rule.name, rule.points, f"rules[{index}]", weapon=spec.name)
        for index, rule in enumerate(spec.rules)
        if rule.house
    ]
    return issues


def guideline_issues(prices: WeaponPricing, spec: WeaponSpec, *, on_vehicle: bool) -> list[Issue]:
    """'Valeurs de profils' (L195-204): suggestions, so warnings, never errors (note 6)."""
    name = f"« {spec.name} »"
    found: list[tuple[str, str, str]] = []  # code, message, path
    if spec.CdA > 1 and spec.DG > 1:
        message = (
            f"CdA {spec.CdA} et DG {spec.DG} ; une seule de ces valeurs devrait dépasser 1 (L203)."
        )
        found.append(("cda_and_dg_above_one", message, "DG"))
    if spec.melee:
        expected = melee_cu(prices, spec)
        if spec.CU is not None and not on_vehicle and expected != spec.CU:
            message = (
                f"CU {spec.CU} ; une arme de corps à corps devrait coûter 3 + son bonus de FO, "
                f"soit {expected} (L124, L171)."
            )
            found.append(("melee_cu_not_derived", message, "CU"))
        if spec.type is not None:
            message = (
                f"le type « {spec.type} » ne concerne que les armes à distance ; il est ignoré."
            )
            found.append(("melee_weapon_type", message, "type"))
    elif spec.type == "pistolet" and spec.FO != 5:
        message = f"un pistolet devrait avoir une force (FO) de 5, pas {spec.FO} (L201)."
        found.append(("pistol_strength", message, "FO"))
    elif spec.type == "fusil" and spec.FO not in (5, 6):
        message = f"un fusil devrait avoir une force (FO) de 5 ou de 6, pas {spec.FO} (L202)."
        found.append(("rifle_strength", message, "FO"))
    elif spec.type == "automatique" and spec.CdA <= 1:
        message = "une arme automatique devrait avoir une cadence d'attaque (CdA) élevée (L204)."
        found.append(("automatic_low_cda", message, "CdA"))
    return [warning(code, f"{name} : {message}", path) for code, message, path in found]


def rifle_range_issues(specs: Sequence[WeaponSpec]) -> list[Issue]:
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


def unit_size_issues(
    catalogue: Catalogue, entry: Any, category: str, formation: Formation | None, models: int
) -> list[Issue]:
    """Characters and heroes are one model (L96-100, an error); other sizes are guidelines,
    "ces unités peuvent varier en taille mais en général, elles contiennent de 4 à 20
    figurines" (L89), and a profile's "De 4 à 8" (L120) likewise: warnings."""
    if category in SINGLE_MODEL and models != 1:
        message = (
            f"Un {catalogue.category(category).name.lower()} est une figurine seule "
            "(L96-100) : ajoutez chacun séparément."
        )
        return [error("character_not_single", message, "count")]
    if formation is not None:
        slot, in_ranks = formation.troopers, entry.count + sum(s.count for s in entry.specialists)
        if slot.min <= in_ranks <= slot.max:
            return []
        troopers = catalogue.profile(slot.profile).name.lower()
        message = (
            f"« {formation.name} » : en général de {slot.min} à {slot.max} {troopers}(s) par "
            f"unité, pas {in_ranks} ({formation.source} ; L89)."
        )
        return [warning("unit_size", message, "count")]
    low, high = BASE_UNIT_MODELS
    if category == "unite_de_base" and not low <= models <= high:
        message = f"Une unité de base compte en général de 4 à 20 figurines, pas {models} (L89)."
        return [warning("base_unit_size", message, "count")]
    return []


def composition_issues(
    catalogue: Catalogue,
    entry: Any,
    category: str,
    formation: Formation | None,
    *,
    size: str,
    vehicle: bool,
    models: int,
    path: str,
) -> list[Issue]:
    """A unit's size, leader, specialists and placement: a catalogue unit against its
    slots, a custom one against its category; `size` and `vehicle` are its troopers'."""
    issues = prefixed(unit_size_issues(catalogue, entry, category, formation, models), path)
    if category not in TEAM_CATEGORIES:
        label = f"Catégorie « {catalogue.category(category).name} »"
        if entry.leader is not None and formation is None:  # else checked by its leader slot
            message = f"{label} : pas de chef d'unité."
            issues.append(error("leader_not_allowed", message, f"{path}.leader"))
        if entry.specialists:
            message = f"{label} : pas de spécialistes (L94-95)."
            issues.append(error("specialists_not_allowed", message, f"{path}.specialists"))
    if entry.placement == "infiltration" and models > INFILTRATION_MAX:
        message = (
            "Une unité en infiltration ne peut jamais compter plus de six figurines, "
            f"pas {models} (L317)."
        )
        issues.append(error("infiltration_too_large", message, f"{path}.placement"))
    large = vehicle or size in ("grande", "tres_grande")
    if large and category in ("unite_de_base", *SINGLE_MODEL):
        message = "Véhicules et créatures de grande taille sont des unités de soutien (L103-108)."
        issues.append(warning("category_for_size", message, f"{path}.category"))
    return issues


def category_issues(
    catalogue: Catalogue, formation: Formation, category: str | None, path: str
) -> list[Issue]:
    """A catalogue unit keeps its category."""
    if category is None or category == formation.category:
        return []
    name = catalogue.category(formation.category).name
    return [
        error(
            "category_mismatch",
            f"« {formation.name} » est de la catégorie « {name} ».",
            f"{path}.category",
        )
    ]


def leader_issues(
    catalogue: Catalogue, formation: Formation, leader: Any, leader_name: str, path: str
) -> list[Issue]:
    """A catalogue unit's leader fills its leader slot ("De 0 à 1 chef d'unité", L115)."""
    slot = formation.leader
    if leader is None:
        if slot is None or slot.min == 0:
            return []
        message = f"« {formation.name} » doit avoir un chef d'unité."
        return [error("leader_required", message, f"{path}.leader")]
    if slot is not None and slot.profile == leader:
        return []
    allowed = f" (seulement « {catalogue.profile(slot.profile).name} »)" if slot else ""
    message = f"« {formation.name} » ne prend pas « {leader_name} » comme chef d'unité{allowed}."
    return [error("leader_not_allowed", message, f"{path}.leader")]


def command_issues(
    entry: Any, category: str, path: str, *, first_general: bool, first_standard: bool
) -> list[Issue]:
    """The general is one character or hero (L101-102); an army has one banner (L366)."""
    issues = []
    if entry.general and category not in GENERAL_CATEGORIES:
        message = "Le général d'armée est un personnage ou un héros (L101-102)."
        issues.append(error("general_not_character", message, f"{path}.general"))
    if entry.general and not first_general:
        message = "Une seule figurine est désignée comme général d'armée (L101-102)."
        issues.append(error("several_generals", message, f"{path}.general"))
    if entry.battle_standard and not first_standard:
        message = "Une armée n'a qu'une bannière d'armée (L366)."
        issues.append(error("several_battle_standards", message, f"{path}.battle_standard"))
    return issues


def roster_issues(
    catalogue: Catalogue, roster: Any, points: int, *, general: bool, standard: bool
) -> list[Issue]:
    """The list's own issues: no general, no banner, over the points limit, empty."""
    issues = []
    if roster.entries and not general:
        message = "Désignez le général d'armée : un personnage ou un héros (L101-102)."
        issues.append(error("no_general", message, "entries"))
    if roster.entries and not standard:
        message = (
            "Aucune unité ne porte la bannière d'armée, qui rapporte "
            f"{catalogue.score.banner_points} points de victoire à l'adversaire qui la "
            "prend (L366)."
        )
        issues.append(warning("no_battle_standard", message, "entries"))
    issues += over_points_limit(points, roster.points_limit, "L42")
    issues += empty_roster(roster.entries, "aucune unité")
    return issues
