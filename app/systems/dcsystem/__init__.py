"""Dices & Colors System 1.0 with the Stargate's War army lists (`dcsystem`)."""

from collections.abc import Sequence
from functools import cached_property, lru_cache
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.systems.base import (
    Badge,
    CostLine,
    ExampleRoster,
    PublishedProfile,
    RosterResult,
    RosterSummary,
    ScoreResult,
    SummaryExtra,
    SummaryLine,
)
from app.systems.building import build_engine, example_rosters
from app.systems.dcsystem.catalogue import Catalogue, Dice, Level, cross_check
from app.systems.dcsystem.engine import (
    DICE_LABELS,
    FighterCost,
    FighterDefinition,
    FighterDerived,
    cost_fighter,
    discrepancies,
    unit_definition,
)
from app.systems.dcsystem.roster import (
    DcsystemResult,
    DcsystemRosterBase,
    ScoreRequest,
    roster_models,
    score,
    validate_roster,
)

__all__ = ["DcSystem", "FighterDefinition", "build"]


class LevelOut(BaseModel):
    level: int
    points: int
    dice: Dice
    slots: int
    handicaps: int


class ItemOut(BaseModel):
    id: str
    name: str
    kind: Literal["capacite", "equipement", "handicap"]
    points: int
    text: str
    source: str
    brings: str | None = None


class HiddenMoveOut(BaseModel):
    id: str
    name: str
    kind: Literal["coup_cache"] = "coup_cache"
    points: int
    text: str
    source: str


class UnitOut(BaseModel):
    id: str
    name: str
    kind: Literal["profil"] = "profil"
    army: str
    level: int
    points: int
    computed_points: int
    discrepancies: list[str]
    items: list[str]
    dice: Dice | None
    computed_dice: Dice
    breakdown: list[CostLine]
    variant_of: str | None
    note: str
    source: str


class ArmyOut(BaseModel):
    id: str
    name: str
    kind: Literal["armee"] = "armee"
    units: list[str]
    source: str


class ExampleOut(BaseModel):
    id: str
    name: str
    kind: Literal["exemple"] = "exemple"
    printed_total: int
    document: DcsystemRosterBase
    source: str


class NoteOut(BaseModel):
    id: str
    name: str
    kind: Literal["decision"] = "decision"
    text: str


class CatalogueOut(BaseModel):
    system: Literal["dcsystem"] = "dcsystem"
    name: str
    rules_version: str
    catalogue_version: str
    levels: list[LevelOut]
    items: list[ItemOut]
    hidden_moves: list[HiddenMoveOut]
    armies: list[ArmyOut]
    units: list[UnitOut]
    examples: list[ExampleOut]
    notes: list[NoteOut] = Field(description="Caserne's decisions where the rules are unclear.")


class DcSystem:
    """The DCSystem engine, built from its checked catalogue."""

    id = "dcsystem"
    has_points = True
    unit_model = FighterDefinition
    score_model = ScoreRequest
    cost_response_model = FighterCost
    validate_response_model = DcsystemResult
    catalogue_model = CatalogueOut

    def __init__(self, catalogue: Catalogue) -> None:
        self.data = catalogue
        self.name = catalogue.system.name
        self.rules_version = catalogue.system.rules_version
        self.catalogue_version = catalogue.system.catalogue_version
        self.entry_model, self.roster_model = roster_models(catalogue)
        # Costs are pure functions of (level, items): a bounded cache serves rosters' repeats.
        self._cached_cost = lru_cache(maxsize=4096)(self._cost)

    def cost(self, unit: FighterDefinition) -> FighterCost:
        return self._cached_cost(unit.level, tuple(unit.items))

    def _cost(self, level: Level, items: tuple[str, ...]) -> FighterCost:
        return cost_fighter(self.data, FighterDefinition(level=level, items=list(items)))

    def validate(self, roster: Any) -> DcsystemResult:
        return validate_roster(self.data, roster, self.cost)

    def score(self, request: ScoreRequest) -> ScoreResult:
        return score(self.data, request)

    @cached_property
    def _catalogue(self) -> CatalogueOut:
        data = self.data
        units = []
        for unit in data.units:
            costed = cost_fighter(data, unit_definition(unit))
            units.append(
                UnitOut(
                    **unit.model_dump(
                        include={
                            "id",
                            "name",
                            "army",
                            "level",
                            "points",
                            "variant_of",
                            "note",
                            "source",
                            "dice",
                        }
                    ),
                    items=list(unit.items),
                    computed_points=costed.points,
                    discrepancies=discrepancies(data, unit),
                    computed_dice=costed.derived.dice,
                    breakdown=costed.breakdown,
                )
            )
        return CatalogueOut(
            name=self.name,
            rules_version=self.rules_version,
            catalogue_version=self.catalogue_version,
            levels=[
                LevelOut(
                    level=rule.level,
                    points=rule.points,
                    dice=Dice(red=rule.red, blue=rule.blue),
                    slots=rule.slots,
                    handicaps=rule.handicaps,
                )
                for rule in data.levels
            ],
            items=[
                ItemOut(
                    **item.model_dump(
                        include={"id", "name", "kind", "points", "text", "source", "brings"}
                    )
                )
                for item in data.items
            ],
            hidden_moves=[
                HiddenMoveOut(**move.model_dump(include={"id", "name", "points", "text", "source"}))
                for move in data.hidden_moves
            ],
            armies=[
                ArmyOut(
                    id=army.id,
                    name=army.name,
                    source=army.source,
                    units=[unit.id for unit in data.units if unit.army == army.id],
                )
                for army in data.armies
            ],
            units=units,
            examples=[
                ExampleOut(
                    id=example.id,
                    name=example.name,
                    printed_total=example.printed_total,
                    document=document,
                    source=example.source,
                )
                for example, document in zip(data.examples, self._example_documents(), strict=True)
            ],
            notes=[NoteOut(id=note.id, name=note.title, text=note.text) for note in data.notes],
        )

    def catalogue(self) -> CatalogueOut:
        return self._catalogue

    def published_profiles(self) -> Sequence[PublishedProfile]:
        return [
            PublishedProfile(
                id=unit.id,
                name=unit.name,
                points=unit.points,
                computed_points=unit.computed_points,
                discrepancies=unit.discrepancies,
                definition={"level": unit.level, "items": unit.items},
            )
            for unit in self._catalogue.units
        ]

    def _example_documents(self) -> list[dict[str, Any]]:
        return [
            {
                "system": self.id,
                "name": example.name,
                "points_limit": example.points_limit,
                "entries": [entry.model_dump(exclude_none=True) for entry in example.entries],
                "extras": {"hidden_moves": list(example.hidden_moves)},
            }
            for example in self.data.examples
        ]

    def example_rosters(self) -> Sequence[ExampleRoster]:
        return example_rosters(self.data.examples, self._example_documents())

    def summarize(self, roster: Any, result: RosterResult[Any, Any]) -> RosterSummary:
        lines = []
        for entry, entry_result in zip(roster.entries, result.entries, strict=True):
            derived: FighterDerived = FighterDerived.model_validate(entry_result.derived)
            if entry.unit is not None:
                item_ids = self.data.unit(entry.unit).items
            else:
                item_ids = entry.custom.items
            lines.append(
                SummaryLine(
                    name=entry_result.name,
                    count=entry_result.count,
                    points_each=entry_result.unit_points,
                    points=entry_result.points,
                    counted=entry_result.counted,
                    group="Renfort (non compté)" if not entry_result.counted else None,
                    badges=dice_badges(derived.dice),
                    details=[
                        f"Niveau {derived.level}",
                        ", ".join(
                            self.data.item(item_id).name for item_id in dict.fromkeys(item_ids)
                        ),
                    ],
                    issues=entry_result.issues,
                )
            )
        extras = [
            SummaryExtra(
                label=f"Coup caché : {self.data.hidden_move(move.id).name}",
                points=move.points,
                text=self.data.hidden_move(move.id).text,
            )
            for move in result.derived.hidden_moves
        ]
        costing = result.derived.costing
        notes = [
            "Coûts des profils publiés : tels qu'imprimés dans les listes d'armée."
            if costing == "printed"
            else "Coûts des profils publiés : recalculés selon les règles de création (partie F)."
        ]
        return RosterSummary(
            system=self.id,
            system_name=self.name,
            name=roster.name or "Liste sans nom",
            points=result.points,
            points_limit=result.points_limit,
            valid=result.valid,
            lines=lines,
            extras=extras,
            issues=[issue for issue in result.issues if not issue.path.startswith("entries[")],
            notes=notes,
        )


def dice_badges(dice: Dice) -> list[Badge]:
    badges = []
    for colour, plural in DICE_LABELS.items():
        count = getattr(dice, colour)
        if count:
            label = plural if count > 1 else plural.removesuffix("s")
            badges.append(Badge(text=f"{count} {label}", kind=f"dice-{colour}"))
    return badges


def build(data: dict[str, Any]) -> DcSystem | list[str]:
    """The engine, or every problem found in the catalogue data."""
    return build_engine(data, Catalogue, cross_check, DcSystem)
