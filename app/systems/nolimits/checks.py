"""No Limits weapon checks: what makes a weapon unplayable (errors) and the text's
guidelines (L195-204, warnings). Paths are relative to the weapon.

Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from app.systems.base import Issue, error, warning
from app.systems.nolimits.pricing_data import WeaponPricing
from app.systems.nolimits.weapons import WeaponSpec, melee_cu


def weapon_issues(prices: WeaponPricing, spec: WeaponSpec, *, on_vehicle: bool) -> list[Issue]:
    """What makes a weapon unplayable (errors) or off the text's guidelines (warnings,
    L195-204), with paths relative to the weapon."""
    name = f"« {spec.name} »"
    issues: list[Issue] = []
    if spec.melee and spec.bands:
        issues.append(
            error(
                "melee_weapon_with_range",
                f"{name} : une arme de corps à corps n'a pas de portées.",
                "PC",
            )
        )
    if not spec.melee and not spec.bands:
        issues.append(
            error(
                "ranged_weapon_without_range",
                f"{name} : une arme à distance a besoin d'au moins une portée "
                "(PC, PI ou PL, L157-162).",
                "PL",
            )
        )
    if not spec.melee and not on_vehicle and spec.CU is None:
        why = " : c'est une arme montée sur véhicule (L239-241)" if spec.mounted else ""
        issues.append(
            error(
                "missing_cu",
                f"{name} n'a pas de coût d'utilisation (CU){why} ; "
                "portée par une figurine, elle en a besoin (L155-156).",
                "CU",
            )
        )
    if on_vehicle and spec.CU is not None:
        issues.append(
            warning(
                "cu_on_vehicle_weapon",
                f"{name} : les armes montées sur véhicule n'ont pas de CU (L241) ; il est ignoré.",
                "CU",
            )
        )
    distances = [band[0] for _name, band in spec.bands]
    if distances != sorted(set(distances)):
        issues.append(
            warning(
                "range_bands_order",
                f"{name} : les portées courte, intermédiaire "
                "et longue devraient aller croissant (L157-162).",
                "PI",
            )
        )
    issues += guideline_issues(prices, spec, on_vehicle=on_vehicle)
    issues += [
        warning(
            "house_rule",
            f"{name} : règle maison « {rule.name} » à {rule.points} point(s), "
            "à faire accepter par l'adversaire (L17-18).",
            f"rules[{index}]",
        )
        for index, rule in enumerate(spec.rules)
        if rule.house
    ]
    return issues


def guideline_issues(prices: WeaponPricing, spec: WeaponSpec, *, on_vehicle: bool) -> list[Issue]:
    """'Valeurs de profils' (L195-204): suggestions, so warnings, never errors (note 6)."""
    name = f"« {spec.name} »"
    issues: list[Issue] = []
    if spec.CdA > 1 and spec.DG > 1:
        issues.append(
            warning(
                "cda_and_dg_above_one",
                f"{name} : CdA {spec.CdA} et DG {spec.DG} ; "
                "une seule de ces valeurs devrait dépasser 1 (L203).",
                "DG",
            )
        )
    if spec.melee:
        if spec.CU is not None and not on_vehicle and melee_cu(prices, spec) != spec.CU:
            issues.append(
                warning(
                    "melee_cu_not_derived",
                    f"{name} : CU {spec.CU} ; une arme de "
                    f"corps à corps devrait coûter 3 + son bonus de FO, soit "
                    f"{melee_cu(prices, spec)} (L124, L171).",
                    "CU",
                )
            )
        if spec.type is not None:
            issues.append(
                warning(
                    "melee_weapon_type",
                    f"{name} : le type « {spec.type} » ne "
                    "concerne que les armes à distance ; il est ignoré.",
                    "type",
                )
            )
        return issues
    if spec.type == "pistolet" and spec.FO != 5:
        issues.append(
            warning(
                "pistol_strength",
                f"{name} : un pistolet devrait avoir une force (FO) de 5, pas {spec.FO} (L201).",
                "FO",
            )
        )
    if spec.type == "fusil" and spec.FO not in (5, 6):
        issues.append(
            warning(
                "rifle_strength",
                f"{name} : un fusil devrait avoir une force (FO) "
                f"de 5 ou de 6, pas {spec.FO} (L202).",
                "FO",
            )
        )
    if spec.type == "automatique" and spec.CdA <= 1:
        issues.append(
            warning(
                "automatic_low_cda",
                f"{name} : une arme automatique devrait "
                "avoir une cadence d'attaque (CdA) élevée (L204).",
                "CdA",
            )
        )
    return issues
