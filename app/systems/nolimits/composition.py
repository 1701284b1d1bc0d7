"""What a No Limits unit may hold: its size, leader, specialists and placement (L88-121,
L313-319). Paths are those of the roster entry.

Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from typing import Any

from app.systems.base import Issue, error, warning
from app.systems.nolimits.catalogue import Catalogue, Formation
from app.systems.nolimits.roster import NolimitsUnitPart

# "Une unité s'infiltrant de peut jamais comporter plus de six figurines" (L317)
INFILTRATION_MAX = 6
BASE_UNIT_MODELS = (4, 20)  # "en général, elles contiennent de 4 à 20 figurines" (L89)
SINGLE_MODEL = ("personnage", "heros")  # individuals (L96-100)
TEAM_CATEGORIES = ("unite_de_base", "soutien")  # may have a leader and specialists (L91-95)


def composition_issues(
    catalogue: Catalogue,
    entry: Any,
    category: str,
    formation: Formation | None,
    troopers: NolimitsUnitPart,
    models: int,
    path: str,
) -> list[Issue]:
    """A catalogue unit is checked against its slots; a custom one against its category."""
    issues: list[Issue] = []
    in_ranks = entry.count + sum(s.count for s in entry.specialists)
    if formation is not None:
        slot = formation.troopers
        if not slot.min <= in_ranks <= slot.max:
            name = troopers.name.lower()
            issues.append(
                error(
                    "unit_size",
                    f"« {formation.name} » : de {slot.min} à {slot.max} {name}(s) par unité, "
                    f"pas {in_ranks} ({formation.source}).",
                    f"{path}.count",
                )
            )
    elif category == "unite_de_base" and not BASE_UNIT_MODELS[0] <= models <= BASE_UNIT_MODELS[1]:
        issues.append(
            warning(
                "base_unit_size",
                f"Une unité de base compte en général de 4 à 20 figurines, pas {models} (L89).",
                f"{path}.count",
            )
        )
    if formation is None and category in SINGLE_MODEL and models != 1:
        issues.append(
            error(
                "character_not_single",
                f"Un {catalogue.category(category).name.lower()} est une figurine seule "
                "(L96-100) : ajoutez chacun séparément.",
                f"{path}.count",
            )
        )
    if category not in TEAM_CATEGORIES:
        label = f"Catégorie « {catalogue.category(category).name} »"
        if entry.leader is not None and formation is None:  # else checked by its leader slot
            issues.append(
                error("leader_not_allowed", f"{label} : pas de chef d'unité.", f"{path}.leader")
            )
        if entry.specialists:
            issues.append(
                error(
                    "specialists_not_allowed",
                    f"{label} : pas de spécialistes (L94-95).",
                    f"{path}.specialists",
                )
            )
    if entry.placement == "infiltration" and models > INFILTRATION_MAX:
        issues.append(
            error(
                "infiltration_too_large",
                f"Une unité en infiltration ne peut jamais compter plus de six figurines, "
                f"pas {models} (L317).",
                f"{path}.placement",
            )
        )
    size = troopers.derived.size
    if (troopers.derived.vehicle or size in ("grande", "tres_grande")) and category in (
        "unite_de_base",
        *SINGLE_MODEL,
    ):
        issues.append(
            warning(
                "category_for_size",
                "Véhicules et créatures de grande taille sont des unités de soutien (L103-108).",
                f"{path}.category",
            )
        )
    return issues
