"""Necromunda–Warzone gangs: the roster models and what validating a gang gives.

The text has no points and no gang-building rules; what it implies of a gang is one chef
(always singular: L13, L31, L32, L54, L84), and what it gives the table is each figure's
actions, the chef's XP for initiative (L13) and the rout threshold (L84).
Lnn = line of shared/rules/necromunda-warzone.fr.txt.
"""

from functools import partial
from typing import Any

from pydantic import BaseModel, Field

from app.systems.base import EntryResult, Issue, RosterResult, error
from app.systems.building import roster_document
from app.systems.catalogued import empty_roster, points_not_used, unpriced_entry
from app.systems.memo import EntryMemo, per_entry
from app.systems.necrowarzone.catalogue import Catalogue, Example
from app.systems.necrowarzone.models import (
    NecrowarzoneEntryBase,
    NecrowarzoneFigure,
    NecrowarzoneRosterBase,
)
from app.systems.necrowarzone.rules import NecrowarzoneFigureDerived, cost_figure


class NecrowarzoneGangDerived(BaseModel):
    """What the table needs to know of a gang (api-v1.md: the first five are the contract)."""

    figures: int = Field(description="Figures in the gang, each entry's count included.")
    actions_total: int = Field(description="Actions of the whole gang per turn (L9-11, L78).")
    xp_total: int = Field(description="Experience of the whole gang.")
    initiative_xp: int | None = Field(
        description="The chef's XP, compared for the initiative (L13); null without a chef."
    )
    rout_threshold: int = Field(
        description="Figures au tapis or hors de combat that call for a rout test: "
        "25 % of the gang or more (L84), i.e. n/4 rounded up."
    )
    leaders: int = Field(description="Chefs de gang, counts included (exactly one is valid).")


class NecrowarzoneEntryResult(EntryResult[NecrowarzoneFigureDerived]):
    """One figure line of a gang: 0 points, its numbers in `derived`."""


class NecrowarzoneResult(RosterResult[NecrowarzoneFigureDerived, NecrowarzoneGangDerived]):
    """A validated gang: 0 points, the gang's numbers in `derived`."""

    # Named after the system in OpenAPI (a list is invariant, hence the ignore).
    entries: list[NecrowarzoneEntryResult]  # type: ignore[assignment]


# Short name for the engine's own modules and tests.


def example_document(example: Example) -> dict[str, Any]:
    """The roster document of one of the catalogue's example gangs."""
    entries = [entry.model_dump(exclude_none=True) for entry in example.entries]
    return roster_document("necrowarzone", example, entries)


def rout_threshold(catalogue: Catalogue, figures: int) -> int:
    """The fewest figures down or out that make "25% ou plus d’un gang" (L84)."""
    return -(-figures * catalogue.rout.percent // 100)


def entry_figure(
    catalogue: Catalogue, entry: NecrowarzoneEntryBase
) -> tuple[NecrowarzoneFigure, str, str]:
    """The entry's figure, its default name, and the path its issues sit under."""
    if entry.custom is not None:
        default = "Chef de gang" if entry.custom.leader else "Ganger"
        return entry.custom, default, "custom"
    assert entry.unit is not None
    # The roster model (`roster_models`) only lets catalogue ids through.
    sample = catalogue.find("figures", entry.unit)
    return sample.figure, sample.name, "unit"


def _gang_issues(roster: NecrowarzoneRosterBase, leaders: int) -> list[Issue]:
    issues = []
    if leaders == 0:
        issues.append(
            error(
                "no_leader",
                "Le gang n’a pas de chef de gang : les règles supposent un chef, et un seul "
                "(initiative L13, ordres L31, test de déroute L84).",
                "entries",
            )
        )
    elif leaders > 1:
        issues.append(
            error(
                "several_leaders",
                f"{leaders} chefs de gang : un gang n’a qu’un chef (L13, L31, L84).",
                "entries",
            )
        )
    return (
        issues
        + empty_roster(roster.entries, "aucune figurine")
        + points_not_used(roster.points_limit)
    )


def _entry_result(
    catalogue: Catalogue, entry: Any, index: int
) -> tuple[NecrowarzoneEntryResult, NecrowarzoneFigure]:
    figure, default_name, key = entry_figure(catalogue, entry)
    costed = cost_figure(catalogue, figure)
    where = f"entries[{index}].{key}"
    name = entry.name or default_name
    return unpriced_entry(NecrowarzoneEntryResult, entry, name, costed, where), figure


def validate_roster(
    catalogue: Catalogue,
    roster: NecrowarzoneRosterBase,
    memo: "EntryMemo[tuple[NecrowarzoneEntryResult, NecrowarzoneFigure]] | None" = None,
) -> NecrowarzoneResult:
    """Each figure's numbers and issues, the gang's totals, and the gang's own issues.

    `result.issues` holds the gang's issues only; each entry's are in `entries[i].issues`.
    `memo`: a memory of entry results, each a function of the entry and its index
    (app/systems/memo.py)."""
    entries: list[NecrowarzoneEntryResult] = []
    figures: list[tuple[NecrowarzoneFigure, int]] = []
    results = per_entry(memo, roster.entries, partial(_entry_result, catalogue))
    for entry, (result, figure) in zip(roster.entries, results, strict=True):
        figures.append((figure, entry.count))
        entries.append(result)
    leaders = sum(count for figure, count in figures if figure.leader)
    total = sum(count for _, count in figures)
    derived = NecrowarzoneGangDerived(
        figures=total,
        actions_total=sum(e.derived.actions * e.count for e in entries),
        xp_total=sum(figure.xp * count for figure, count in figures),
        # With several chefs (an error) the most experienced one is shown.
        initiative_xp=max((figure.xp for figure, _ in figures if figure.leader), default=None),
        rout_threshold=rout_threshold(catalogue, total),
        leaders=leaders,
    )
    return NecrowarzoneResult.of(roster, 0, _gang_issues(roster, leaders), entries, derived)
