"""No Limits rosters validated: each entry priced part by part (troopers, leader,
specialists), its composition checked, the totals and what the table needs.

Issues stay where they belong: an entry's in `entries[i].issues`, the list's own (no
general, no banner, points limit, empty list) in `issues`. Lnnn = line of
shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.systems.base import CostLine, EntryResult, Issue, RosterResult, prefixed
from app.systems.memo import EntryMemo, issues_key, json_key, per_entry, remembered
from app.systems.nolimits.catalogue import Formation
from app.systems.nolimits.checks import (
    category_issues,
    command_issues,
    composition_issues,
    leader_issues,
    roster_issues,
)
from app.systems.nolimits.models import Category, NolimitsUnitBase, Placement
from app.systems.nolimits.pricing import NolimitsUnitDerived, Pricer

Role = Literal["troupe", "chef", "specialiste"]


class NolimitsUnitPart(BaseModel):
    """Troopers, the leader, or a group of specialists, with their price."""

    role: Role
    name: str
    count: int
    points_each: int
    points: int
    derived: NolimitsUnitDerived


class NolimitsEntryDerived(BaseModel):
    category: Category
    placement: Placement | None
    general: bool
    battle_standard: bool
    models: int = Field(description="Troopers, specialists and leader.")
    parts: list[NolimitsUnitPart]


class NolimitsCategoryPoints(BaseModel):
    category: Category
    name: str
    points: int


class NolimitsRosterDerived(BaseModel):
    models: int
    general: int | None = Field(description="Index of the general's entry.")
    battle_standard: int | None = Field(description="Index of the entry with the army banner.")
    categories: list[NolimitsCategoryPoints]


class NolimitsEntryResult(EntryResult[NolimitsEntryDerived]):
    """One roster entry once validated."""


class NolimitsResult(RosterResult[NolimitsEntryDerived, NolimitsRosterDerived]):
    """A validated No Limits roster."""

    entries: list[NolimitsEntryResult]  # type: ignore[assignment]


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
    part, issues, name = None, [], ""
    if isinstance(entry.leader, str):
        name, unit = pricer.printed(entry.leader)
        part, own = _part(pricer, "chef", name, 1, unit)
        issues = placed(own, f"{path}.leader")
    elif entry.leader is not None:
        name = "Chef d'unité"
        part, own = _part(pricer, "chef", name, 1, entry.leader)
        issues = prefixed(own, f"{path}.leader")
    if formation is None:
        return part, issues
    return part, leader_issues(pricer.catalogue, formation, entry.leader, name, path) + issues


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


def entry_result(pricer: Pricer, entry: Any, index: int) -> NolimitsEntryResult:
    catalogue = pricer.catalogue
    path = f"entries[{index}]"
    troopers, unit, formation, issues = _troopers(pricer, entry, path)
    category: Category
    if formation is not None:
        category = formation.category
        issues += category_issues(catalogue, formation, entry.category, path)
    else:
        category = entry.category or default_category(unit, troopers.derived.size)
    leader, from_leader = _leader(pricer, entry, formation, path)
    specialists, from_specialists = _specialists(pricer, entry, unit, path)
    parts = [troopers, *([leader] if leader else []), *specialists]
    models = sum(part.count for part in parts)
    issues += from_leader + from_specialists
    issues += composition_issues(
        catalogue,
        entry,
        category,
        formation,
        size=troopers.derived.size,
        vehicle=troopers.derived.vehicle,
        models=models,
        path=path,
    )
    return NolimitsEntryResult(
        name=entry.name or (formation.name if formation else troopers.name),
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
    pricer: Pricer, roster: Any, memo: "EntryMemo[NolimitsEntryResult] | None" = None
) -> NolimitsResult:
    """`memo`: a memory of entry results, each a function of the entry and its index
    (app/systems/memo.py); the command rules (one general, one banner) run here."""
    catalogue = pricer.catalogue

    def with_issues(
        index: int, entry: Any, result: NolimitsEntryResult, more: list[Issue]
    ) -> NolimitsEntryResult:
        def copy() -> NolimitsEntryResult:
            return result.model_copy(update={"issues": [*result.issues, *more]})

        # Remembered too (a second general's copy is the same at every save), so that its
        # JSON is too (app/systems/result_json.py).
        return remembered(memo, (json_key(entry), index, issues_key(more)), copy)

    entries = per_entry(memo, roster.entries, partial(entry_result, pricer))
    general = next((i for i, entry in enumerate(roster.entries) if entry.general), None)
    standard = next((i for i, entry in enumerate(roster.entries) if entry.battle_standard), None)
    for i, (entry, result) in enumerate(zip(roster.entries, entries, strict=True)):
        more = command_issues(
            entry,
            result.derived.category,
            f"entries[{i}]",
            first_general=i == general,
            first_standard=i == standard,
        )
        if more:  # on a copy: the entry's own result may be the memory's
            entries[i] = with_issues(i, entry, result, more)
    points = sum(entry.points for entry in entries)
    return NolimitsResult(
        points=points,
        points_limit=roster.points_limit,
        issues=roster_issues(
            catalogue, roster, points, general=general is not None, standard=standard is not None
        ),
        entries=entries,
        derived=NolimitsRosterDerived(
            models=sum(entry.derived.models for entry in entries),
            general=general,
            battle_standard=standard,
            categories=[
                NolimitsCategoryPoints(
                    category=category.id,
                    name=category.name,
                    points=sum(e.points for e in entries if e.derived.category == category.id),
                )
                for category in catalogue.categories
            ],
        ),
    )
