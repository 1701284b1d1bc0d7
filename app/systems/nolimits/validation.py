"""No Limits rosters checked: unit composition (L88-108), the general (L101-102),
infiltration (L317), the army banner (L366), the points limit (L42, L297).

Every breach is an issue on the entry it concerns. Lnnn = line of
shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from typing import Any

from app.systems.base import CostLine, EntryResult, Issue, RosterResult, error, prefixed, warning
from app.systems.nolimits.catalogue import Category, Formation
from app.systems.nolimits.composition import composition_issues
from app.systems.nolimits.definition import NolimitsUnitBase
from app.systems.nolimits.engine import Pricer
from app.systems.nolimits.roster import (
    NolimitsCategoryPoints,
    NolimitsEntryDerived,
    NolimitsRosterDerived,
    NolimitsUnitPart,
    Role,
)

# "Il peut s'agir d'un personnage ou d'un Héros" (L102)
GENERAL_CATEGORIES = ("personnage", "heros")


def placed(issues: list[Issue], path: str) -> list[Issue]:
    """Issues of a printed profile named by id: they belong to the id's place."""
    return [issue.model_copy(update={"path": path}) for issue in issues]


def default_category(unit: NolimitsUnitBase, size: str) -> Category:
    """A custom unit's category when none is given (note 10)."""
    if size == "tres_grande":
        return "tres_grande_taille"
    if unit.vehicle is not None or size == "grande":
        return "soutien"
    return "unite_de_base"


def _part(
    pricer: Pricer, role: Role, name: str, count: int, unit: NolimitsUnitBase
) -> tuple[NolimitsUnitPart, list[Issue]]:
    costed = pricer.cost(unit)
    part = NolimitsUnitPart(
        role=role,
        name=name,
        count=count,
        points_each=costed.points,
        points=costed.points * count,
        derived=costed.derived,
    )
    return part, costed.issues


def _troopers(
    pricer: Pricer, entry: Any, path: str
) -> tuple[NolimitsUnitPart, NolimitsUnitBase, Formation | None, list[Issue]]:
    if entry.unit is not None:
        formation = pricer.catalogue.unit(entry.unit)
        name, unit = pricer.printed(formation.troopers.profile)
        part, issues = _part(pricer, "troupe", name, entry.count, unit)
        return part, unit, formation, placed(issues, f"{path}.unit")
    unit = entry.custom
    part, issues = _part(pricer, "troupe", entry.name or "Troupe", entry.count, unit)
    return part, unit, None, prefixed(issues, f"{path}.custom")


def _leader(
    pricer: Pricer, entry: Any, formation: Formation | None, path: str
) -> tuple[NolimitsUnitPart | None, list[Issue]]:
    issues: list[Issue] = []
    if entry.leader is None:
        if formation is not None and formation.leader is not None and formation.leader.min > 0:
            issues.append(
                error(
                    "leader_required",
                    f"« {formation.name} » doit avoir un chef d'unité.",
                    f"{path}.leader",
                )
            )
        return None, issues
    if isinstance(entry.leader, str):
        name, unit = pricer.printed(entry.leader)
        part, leader_issues = _part(pricer, "chef", name, 1, unit)
        leader_issues = placed(leader_issues, f"{path}.leader")
    else:
        name = "Chef d'unité"
        part, leader_issues = _part(pricer, "chef", name, 1, entry.leader)
        leader_issues = prefixed(leader_issues, f"{path}.leader")
    if formation is not None and (
        formation.leader is None or formation.leader.profile != entry.leader
    ):
        allowed = formation.leader.profile if formation.leader else None
        issues.append(
            error(
                "leader_not_allowed",
                f"« {formation.name} » ne prend pas « {name} » comme chef d'unité"
                + (f" (seulement « {pricer.printed(allowed)[0]} »)." if allowed else "."),
                f"{path}.leader",
            )
        )
    return part, issues + leader_issues


def _specialists(
    pricer: Pricer, entry: Any, troopers: NolimitsUnitBase, path: str
) -> tuple[list[NolimitsUnitPart], list[Issue]]:
    """Specialists keep the troopers' profile; weapons and rules change (L95)."""
    parts, issues = [], []
    for index, specialist in enumerate(entry.specialists):
        abilities = troopers.abilities if specialist.abilities is None else specialist.abilities
        unit = troopers.model_copy(update={"weapons": specialist.weapons, "abilities": abilities})
        name = specialist.name or "Spécialiste"
        part, own = _part(pricer, "specialiste", name, specialist.count, unit)
        parts.append(part)
        mine = ("weapons",) if specialist.abilities is None else ("weapons", "abilities")
        own = [issue for issue in own if issue.path.startswith(mine)]
        issues += prefixed(own, f"{path}.specialists[{index}]")
    return parts, issues


def entry_result(pricer: Pricer, entry: Any, index: int) -> EntryResult[NolimitsEntryDerived]:
    catalogue = pricer.catalogue
    path = f"entries[{index}]"
    troopers, unit, formation, issues = _troopers(pricer, entry, path)
    category: Category
    if formation is not None:
        category = formation.category
        if entry.category is not None and entry.category != category:
            issues.append(
                error(
                    "category_mismatch",
                    f"« {formation.name} » est de la catégorie "
                    f"« {catalogue.category(category).name} ».",
                    f"{path}.category",
                )
            )
    else:
        category = entry.category or default_category(unit, troopers.derived.size)
    leader, leader_issues = _leader(pricer, entry, formation, path)
    specialists, specialist_issues = _specialists(pricer, entry, unit, path)
    parts = [troopers, *([leader] if leader else []), *specialists]
    models = sum(part.count for part in parts)
    issues += leader_issues + specialist_issues
    issues += composition_issues(catalogue, entry, category, formation, troopers, models, path)
    name = entry.name or (formation.name if formation else troopers.name)
    return EntryResult[NolimitsEntryDerived](
        name=name,
        count=entry.count,
        unit_points=troopers.points_each,
        points=sum(part.points for part in parts),
        breakdown=[
            CostLine(
                id=f"{part.role}_{number}",
                label=f"{part.count} × {part.name} ({part.points_each} pts)",
                points=part.points,
            )
            for number, part in enumerate(parts)
        ],
        derived=NolimitsEntryDerived(
            category=category,
            placement=entry.placement,
            general=entry.general,
            battle_standard=entry.battle_standard,
            models=models,
            parts=parts,
        ),
        issues=issues,
    )


def validate_roster(
    pricer: Pricer, roster: Any
) -> RosterResult[NolimitsEntryDerived, NolimitsRosterDerived]:
    catalogue = pricer.catalogue
    entries = [entry_result(pricer, entry, i) for i, entry in enumerate(roster.entries)]
    roster_issues: list[Issue] = []
    generals = [i for i, entry in enumerate(roster.entries) if entry.general]
    for i in generals:
        if entries[i].derived.category not in GENERAL_CATEGORIES:
            entries[i].issues.append(
                error(
                    "general_not_character",
                    "Le général d'armée est un personnage ou un héros (L101-102).",
                    f"entries[{i}].general",
                )
            )
    for i in generals[1:]:
        entries[i].issues.append(
            error(
                "several_generals",
                "Une seule figurine est désignée comme général d'armée (L101-102).",
                f"entries[{i}].general",
            )
        )
    standards = [i for i, entry in enumerate(roster.entries) if entry.battle_standard]
    for i in standards[1:]:
        entries[i].issues.append(
            error(
                "several_battle_standards",
                "Une armée n'a qu'une bannière d'armée (L366).",
                f"entries[{i}].battle_standard",
            )
        )
    if roster.entries and not generals:
        roster_issues.append(
            error(
                "no_general",
                "Désignez le général d'armée : un personnage ou un héros (L101-102).",
                "entries",
            )
        )
    if roster.entries and not standards:
        roster_issues.append(
            warning(
                "no_battle_standard",
                "Aucune unité ne porte la bannière d'armée, qui rapporte "
                f"{catalogue.score.banner_points} points de victoire à l'adversaire qui la "
                "prend (L366).",
                "entries",
            )
        )
    points = sum(entry.points for entry in entries)
    if roster.points_limit is not None and points > roster.points_limit:
        roster_issues.append(
            error(
                "over_points_limit",
                f"{points} points pour une partie à {roster.points_limit} "
                f"({points - roster.points_limit} de trop, L42).",
                "points_limit",
            )
        )
    if not roster.entries:
        roster_issues.append(warning("empty_roster", "La liste ne contient aucune unité."))
    derived = NolimitsRosterDerived(
        models=sum(entry.derived.models for entry in entries),
        general=generals[0] if generals else None,
        battle_standard=standards[0] if standards else None,
        categories=[
            NolimitsCategoryPoints(
                category=category.id,
                name=category.name,
                points=sum(e.points for e in entries if e.derived.category == category.id),
            )
            for category in catalogue.categories
        ],
    )
    return RosterResult[NolimitsEntryDerived, NolimitsRosterDerived](
        points=points,
        points_limit=roster.points_limit,
        issues=[issue for entry in entries for issue in entry.issues] + roster_issues,
        entries=entries,
        derived=derived,
    )
