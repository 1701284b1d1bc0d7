"""Infinity N2 rosters: resolve each entry, then check the list as a whole (L76-L85).

`result.issues` holds the list's own issues; each entry's issues are in its
`entries[i].issues`, with paths such as "entries[2].option".
Line numbers (Lnn) refer to shared/rules/infinity-n2.fr.txt.
"""

from functools import partial

from app.systems.base import EntryResult, Issue, RosterResult, error
from app.systems.catalogued import over_points_limit
from app.systems.infinity.catalogue import Catalogue, Rules
from app.systems.infinity.checks import (
    Placed,
    ava_issues,
    availability,
    duplicate_unit_issues,
    group_issues,
    group_orders,
    irregular_lieutenant_issues,
    lieutenant_issues,
    medic_issues,
    reserve_issues,
    swc_issues,
    swc_used,
)
from app.systems.infinity.engine import (
    InfinityEntryDerived,
    InfinityRosterDerived,
    InfinitySwcTotals,
    cost_line,
    swc_available,
    trooper_derived,
    unknown_option,
)
from app.systems.infinity.models import InfinityEntry, InfinityRoster, InfinityTrooper, swc_fraction
from app.systems.memo import EntryMemo, entry_keys, json_key


class InfinityEntryResult(EntryResult[InfinityEntryDerived]):
    """One entry of a validated list."""


class InfinityResult(RosterResult[InfinityEntryDerived, InfinityRosterDerived]):
    """The `validate` answer (api-v1.md, "### infinity")."""

    # Named after the system in OpenAPI (a list is invariant, hence the ignore).
    entries: list[InfinityEntryResult]  # type: ignore[assignment]


def resolve_unit(
    catalogue: Catalogue, roster: InfinityRoster, unit_id: str
) -> InfinityTrooper | None:
    """`unit` names a trooper of extras.units, else of the catalogue (api-v1.md)."""
    for unit in roster.extras.units:
        if unit.id == unit_id:
            return unit
    return catalogue.unit(unit_id)


def _placed_result(rules: Rules, p: Placed, issues: list[Issue]) -> InfinityEntryResult:
    one = trooper_derived(rules, p.trooper, p.option, p.option.id)
    derived = InfinityEntryDerived(
        **dict(one),
        group=p.entry.group,
        reserve=p.entry.reserve,
        swc_total=float(swc_fraction(p.option.swc) * p.count),
    )
    return InfinityEntryResult(
        name=p.name,
        count=p.count,
        unit_points=p.option.points,
        points=p.option.points * p.count,
        breakdown=[cost_line(p.trooper, p.option)],
        derived=derived,
        issues=issues,
    )


def _unresolved_result(
    rules: Rules, index: int, entry: InfinityEntry, trooper: InfinityTrooper | None
) -> InfinityEntryResult:
    """An entry naming an unknown unit or option: listed, counted nowhere, an error."""
    if trooper is None:
        issue = error(
            "unknown_unit",
            f"Profil inconnu « {entry.unit} » : ni dans extras.units, ni dans le catalogue.",
            f"entries[{index}].unit",
        )
        derived = InfinityEntryDerived(
            unit=entry.unit,
            option=entry.option,
            orders=None,
            impetuous=False,
            ava=None,
            swc=0.0,
            lieutenant=False,
            airborne=False,
            medic=False,
            hacker=False,
            mines=0,
            repeaters=0,
            group=entry.group,
            reserve=entry.reserve,
            swc_total=0.0,
        )
    else:
        issue = unknown_option(trooper, entry.option, f"entries[{index}].option")
        one = trooper_derived(rules, trooper, None, entry.option)
        derived = InfinityEntryDerived(
            **dict(one), group=entry.group, reserve=entry.reserve, swc_total=0.0
        )
    return InfinityEntryResult(
        name=entry.name or (trooper.name if trooper else entry.unit),
        count=entry.count,
        unit_points=0,
        points=0,
        counted=False,
        breakdown=[],
        derived=derived,
        issues=[issue],
    )


def trooper_key(catalogue: Catalogue, trooper: InfinityTrooper | None) -> str | None:
    """What identifies a trooper in a memory's key (app/systems/memo.py): a catalogue
    trooper its id, a list's own (extras.units) all it says."""
    if trooper is None or catalogue.unit(trooper.id) is trooper:
        return None if trooper is None else trooper.id
    return trooper.model_dump_json()


def validate_roster(
    catalogue: Catalogue,
    roster: InfinityRoster,
    memo: "EntryMemo[InfinityEntryResult] | None" = None,
) -> InfinityResult:
    """Points, SWC, Lieutenant, AVA, combat groups and orders of a list, with its issues.
    `memo`: a memory of placed entries' results, each a function of the entry, its index,
    its trooper and the issues the list gives it (app/systems/memo.py)."""
    rules = catalogue.rules
    placed, entries = _entry_results(catalogue, roster, memo)
    points = sum(entry.points for entry in entries)
    used = swc_used(placed)
    # L81: the game size gives the SWC; with none, the army's own points do (decision).
    game_points = roster.points_limit if roster.points_limit is not None else points
    available = swc_available(rules, game_points)
    groups = group_orders(placed)
    lines = availability(placed)
    counted = [entry for entry in entries if entry.counted]
    medics = sum(entry.count for entry in counted if entry.derived.medic)
    lieutenants = [p for p in placed if p.option.lieutenant]
    derived = InfinityRosterDerived(
        swc=InfinitySwcTotals(used=float(used), available=available),
        troopers=sum(p.count for p in placed),
        groups=groups,
        lieutenant=(
            lieutenants[0].name if len(lieutenants) == 1 and lieutenants[0].count == 1 else None
        ),
        ava_enforced=roster.extras.ava,
        availability=lines,
        mines=sum(entry.derived.mines * entry.count for entry in counted),
        repeaters=sum(entry.derived.repeaters * entry.count for entry in counted),
        hackers=sum(entry.count for entry in counted if entry.derived.hacker),
        medics=medics,
    )
    issues = (
        duplicate_unit_issues(roster.extras.units)
        + over_points_limit(points, roster.points_limit)
        + swc_issues(used, available, roster.points_limit, points)
        + lieutenant_issues(placed)
        + ava_issues(lines, roster.extras.ava)
        + group_issues(groups, rules.max_group_size)
        + medic_issues(medics)
    )
    return InfinityResult.of(roster, points, issues, entries, derived)


def _entry_results(
    catalogue: Catalogue,
    roster: InfinityRoster,
    memo: "EntryMemo[InfinityEntryResult] | None",
) -> tuple[list[Placed], list[InfinityEntryResult]]:
    """The entries whose trooper and option resolve, and every entry's result in order."""
    rules = catalogue.rules
    placed: list[Placed] = []
    results: dict[int, InfinityEntryResult] = {}
    for index, entry in enumerate(roster.entries):
        trooper = resolve_unit(catalogue, roster, entry.unit)
        option = trooper.option(entry.option) if trooper is not None else None
        if trooper is None or option is None:
            results[index] = _unresolved_result(rules, index, entry, trooper)
        else:
            placed.append(Placed(index=index, entry=entry, trooper=trooper, option=option))

    irregular = irregular_lieutenant_issues(placed)
    keys = entry_keys(roster.entries) if memo is not None else []
    for p in placed:
        issues = reserve_issues(p) + irregular.get(p.index, [])
        if memo is None:
            results[p.index] = _placed_result(rules, p, issues)
            continue
        key = (
            keys[p.index],
            p.index,
            trooper_key(catalogue, p.trooper),
            tuple(json_key(issue) for issue in issues),
        )
        results[p.index] = memo(key, partial(_placed_result, rules, p, issues))
    return placed, [results[index] for index in range(len(roster.entries))]
