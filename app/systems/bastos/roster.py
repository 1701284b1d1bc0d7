"""Bastos bands: entries, band totals and list-level issues (no points: api-v1.md).

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

from collections import Counter
from functools import partial
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, field_validator

from app.systems.base import (
    INPUT,
    NO_NUL,
    EntryBase,
    EntryResult,
    Issue,
    RosterResult,
    warning,
)
from app.systems.bastos.catalogue import Catalogue, Example
from app.systems.bastos.engine import BastosFigure, BastosFigureDerived, cost_figure
from app.systems.building import roster_document
from app.systems.catalogued import RosterBase, empty_roster, points_not_used, unpriced_entry
from app.systems.memo import EntryMemo, per_entry

# The optional rules of L282 and the zombie page (L289), as the players agree on them.
OptionalRule = Literal[
    "beaucoup_de_joueurs",
    "beaucoup_de_figurines",
    "porter_les_blesses",
    "abreger_les_tirs",
    "zombies",
]


class BastosExtras(BaseModel):
    """What a band holds beside its figures."""

    model_config = INPUT

    objective: str = Field(
        "", max_length=200, pattern=NO_NUL, description="« On se fixe un petit objectif » (L3)."
    )
    optional_rules: list[OptionalRule] = Field(
        default_factory=list,
        max_length=5,
        description="Optional rules in play (L282, L289), each once.",
        json_schema_extra={"uniqueItems": True},
    )

    @field_validator("optional_rules")
    @classmethod
    def _once_each(cls, rules: list[str]) -> list[str]:
        if len(set(rules)) != len(rules):
            raise ValueError("each optional rule is listed once")
        return rules


class BastosEntryBase(EntryBase):
    """A figure of the band: custom (`custom`) or one of the text's figures (`unit`)."""

    unit: str | None = None
    custom: BastosFigure | None = None


class BastosRosterBase(RosterBase):
    """A Bastos band (api-v1.md, "Roster documents" and "Systems without points")."""

    system: Literal["bastos"]
    entries: list[BastosEntryBase] = Field(default_factory=list, max_length=200)
    extras: BastosExtras = Field(default_factory=BastosExtras)


class EntryShape(Protocol):
    unit: str | None
    custom: BastosFigure | None
    name: str | None
    count: int


class RosterShape(Protocol):
    points_limit: int | None
    entries: list[Any]


class BastosBandDerived(BaseModel):
    """The band's totals, each figure counted `count` times (no points: api-v1.md)."""

    figures: int
    rep_total: int
    rep_distribution: dict[str, int] = Field(description="Figures by Rep, lowest Rep first.")
    leaders: int
    stars: int
    rep_average: float | None = Field(description="Rounded to 2 decimals; null for no figure.")
    weapons: dict[str, int] = Field(description="Figures by weapon id.")
    unarmed: int
    weapon_classes: dict[str, int] = Field(description="Figures by weapon class, highest first.")
    best_class: int | None = Field(description="Whoever has less is « surclassé » by it (L73).")
    shooting_dice: int = Field(description="Dice the band fires at full rate (Taux, L73).")


class BastosEntryResult(EntryResult[BastosFigureDerived]):
    """One figure of the band once validated (no points: 0 and an empty breakdown)."""


class BastosResult(RosterResult[BastosFigureDerived, BastosBandDerived]):
    """A validated band: its totals in `derived`."""

    entries: list[BastosEntryResult]  # type: ignore[assignment]


def entry_figure(catalogue: Catalogue, entry: EntryShape) -> tuple[BastosFigure, str]:
    """The entry's figure and the name it goes by."""
    if entry.unit is not None:
        sample = catalogue.figure(entry.unit)
        figure = BastosFigure(
            rep=sample.rep, leader=sample.leader, star=sample.star, weapon=sample.weapon
        )
        return figure, entry.name or sample.name
    assert entry.custom is not None
    return entry.custom, entry.name or f"Figurine de Rep {entry.custom.rep}"


def _entry_result(
    catalogue: Catalogue, entry: EntryShape, index: int
) -> tuple[BastosEntryResult, BastosFigure]:
    """The entry's result, and its figure (what the band's totals count)."""
    figure, name = entry_figure(catalogue, entry)
    where = f"entries[{index}].{'unit' if entry.unit is not None else 'custom'}"
    costed = cost_figure(catalogue, figure)
    return unpriced_entry(BastosEntryResult, entry, name, costed, where), figure


def band_derived(
    figures: list[tuple[BastosFigure, int]], catalogue: Catalogue
) -> BastosBandDerived:
    """Totals over (figure, count) pairs."""
    reps: Counter[int] = Counter()
    weapons: Counter[str] = Counter()
    classes: Counter[int] = Counter()
    shooting_dice = 0
    for figure, count in figures:
        reps[figure.rep] += count
        if figure.weapon is not None:
            weapons[figure.weapon] += count
            weapon = catalogue.weapon(figure.weapon)
            if weapon.class_ is not None:
                classes[weapon.class_] += count
            shooting_dice += (weapon.rate or 0) * count
    total = sum(reps.values())
    rep_total = sum(rep * count for rep, count in reps.items())
    return BastosBandDerived(
        figures=total,
        rep_total=rep_total,
        rep_distribution={str(rep): reps[rep] for rep in sorted(reps)},
        leaders=sum(count for figure, count in figures if figure.leader),
        stars=sum(count for figure, count in figures if figure.star),
        rep_average=round(rep_total / total, 2) if total else None,
        weapons={w.id: weapons[w.id] for w in catalogue.weapons if weapons[w.id]},
        unarmed=total - sum(weapons.values()),
        weapon_classes={str(c): classes[c] for c in sorted(classes, reverse=True)},
        best_class=max(classes, default=None),
        shooting_dice=shooting_dice,
    )


def band_issues(derived: BastosBandDerived, roster: RosterShape) -> list[Issue]:
    """The list-level issues; each figure's own are in its entry."""
    issues = empty_roster(roster.entries, "aucune figurine")
    if derived.figures and not derived.leaders:
        issues.append(
            warning(
                "no_leader",
                "Aucun leader : sans lui, pas d'activation de groupe ni de dé de leader "
                "(L73, L80). L'exemple de jeu a pourtant un camp sans leader (L255).",
                "entries",
            )
        )
    if derived.stars > 1:
        issues.append(
            warning(
                "several_stars",
                f"{derived.stars} stars : « La star représente le joueur » (L11), une par joueur.",
                "entries",
            )
        )
    return issues + points_not_used(roster.points_limit)


def validate_roster(
    catalogue: Catalogue,
    roster: RosterShape,
    memo: "EntryMemo[tuple[BastosEntryResult, BastosFigure]] | None" = None,
) -> BastosResult:
    """Band totals and issues: `issues` holds the list's own, each entry holds its own.
    `memo`: a memory of entry results, each a function of the entry and its index
    (app/systems/memo.py)."""
    results = per_entry(memo, roster.entries, partial(_entry_result, catalogue))
    entries = [result for result, _ in results]
    counted = [
        (figure, entry.count) for entry, (_, figure) in zip(roster.entries, results, strict=True)
    ]
    derived = band_derived(counted, catalogue)
    return BastosResult.of(roster, 0, band_issues(derived, roster), entries, derived)


def example_document(catalogue: Catalogue, example: Example) -> dict[str, Any]:
    """An example band as a roster document, each figure written out as `custom`."""
    entries = []
    for entry in example.entries:
        sample = catalogue.figure(entry.unit)
        figure = {"rep": sample.rep, "leader": sample.leader, "star": sample.star}
        entries.append(
            {
                "custom": {**figure, "weapon": sample.weapon},
                "name": sample.name,
                "count": entry.count,
            }
        )
    return roster_document("bastos", example, entries, {"objective": "", "optional_rules": []})
