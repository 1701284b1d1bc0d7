"""The catalogue's cross-checks: what pydantic cannot see, all reported at once.

Lnn = line of shared/rules/necromunda-warzone.fr.txt.
"""

from collections.abc import Sequence
from itertools import pairwise

from app.systems.building import duplicate_ids
from app.systems.necrowarzone.catalogue import (
    MODIFIER_KINDS,
    TO_HIT_CT,
    ActionBand,
    Catalogue,
    ShootingModifier,
    ToHitTable,
)
from app.systems.necrowarzone.rules import figure_issues


def _band_problems(bands: Sequence[ActionBand]) -> list[str]:
    """The bands must tile 0..∞ in order: "0-100", "101-400", "401+" (L9-11)."""
    problems = []
    if bands[0].xp_min != 0:
        problems.append("action_bands[0].xp_min: the first band starts at 0 XP (L9)")
    for index, band in enumerate(bands):
        last = index == len(bands) - 1
        if band.xp_max is None and not last:
            problems.append(f"action_bands[{index}].xp_max: only the last band is open-ended")
        if band.xp_max is not None and last:
            problems.append(f"action_bands[{index}].xp_max: the last band is open-ended (L11)")
        if band.xp_max is not None and band.xp_max < band.xp_min:
            problems.append(f"action_bands[{index}].xp_max: below xp_min")
        if not last and band.xp_max is not None and bands[index + 1].xp_min != band.xp_max + 1:
            problems.append(
                f"action_bands[{index + 1}].xp_min: should be {band.xp_max + 1}, "
                "right after the previous band"
            )
    return problems


def _to_hit_problems(table: ToHitTable) -> list[str]:
    cts = [row.ct for row in table.scores]
    problems = [
        f"to_hit.scores[{index}].ct: CT {ct} is already in the table"
        for index, ct in enumerate(cts)
        if ct in cts[:index]
    ]
    missing = sorted(set(TO_HIT_CT) - set(cts))
    extra = sorted(set(cts) - set(TO_HIT_CT))
    if missing:
        problems.append(f"to_hit.scores: missing CT {missing} (L38 covers 1 to 10)")
    if extra:
        problems.append(f"to_hit.scores: CT {extra} is not in the table (L38 covers 1 to 10)")
    ordered = [row.score for row in sorted(table.scores, key=lambda row: row.ct)]
    if any(later >= earlier for earlier, later in pairwise(ordered)):
        problems.append("to_hit.scores: a better CT must need a lower score (L39)")
    return problems


def _modifier_problems(modifiers: Sequence[ShootingModifier]) -> list[str]:
    problems = duplicate_ids("shooting.modifiers", [m.id for m in modifiers])
    missing = sorted(set(MODIFIER_KINDS) - {m.id for m in modifiers})
    problems += [f"shooting.modifiers: missing {m!r} (L41-49)" for m in missing]
    for index, modifier in enumerate(modifiers):
        kind = MODIFIER_KINDS[modifier.id]
        if modifier.kind != kind:
            problems.append(
                f"shooting.modifiers[{index}].kind: {modifier.id!r} is a {kind!r} modifier"
            )
        if (modifier.took_cover_value is None) == (kind == "couvert"):
            problems.append(
                f"shooting.modifiers[{index}].took_cover_value: cover rows, and they only, "
                "give the value once the target took cover (L41-42)"
            )
    return problems


def _figure_problems(catalogue: Catalogue) -> list[str]:
    """Sample figures must be valid figures; examples must name sample figures."""
    problems = duplicate_ids("figures", [f.id for f in catalogue.figures])
    for index, sample in enumerate(catalogue.figures):
        problems += [
            f"figures[{index}].figure.{issue.path}: {issue.code}: {issue.message}"
            for issue in figure_issues(catalogue, sample.figure)
        ]
    problems += duplicate_ids("examples", [e.id for e in catalogue.examples])
    for index, example in enumerate(catalogue.examples):
        for entry_index, entry in enumerate(example.entries):
            where = f"examples[{index}].entries[{entry_index}]"
            if (entry.unit is None) == (entry.custom is None):
                problems.append(f"{where}: give either unit or custom")
            elif entry.unit is not None and catalogue.figure(entry.unit) is None:
                problems.append(f"{where}.unit: unknown figure {entry.unit!r}")
    return problems


def cross_check(catalogue: Catalogue) -> list[str]:
    """What pydantic cannot see: the tables' coverage, duplicates, unknown references."""
    problems = _band_problems(catalogue.action_bands)
    problems += _to_hit_problems(catalogue.to_hit)
    problems += _modifier_problems(catalogue.shooting.modifiers)
    if catalogue.light_wound.minimum < 1:
        problems.append("light_wound.minimum: a figure keeps at least 1 action (L78)")
    problems += _figure_problems(catalogue)
    problems += duplicate_ids("notes", [n.id for n in catalogue.notes])
    return problems
