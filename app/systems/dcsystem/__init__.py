"""Dices & Colors System 1.0 with the Stargate's War army lists (`dcsystem`)."""

from collections.abc import Sequence
from functools import lru_cache, partial
from typing import Any

from app.systems.base import (
    PROFILE_FIELDS,
    PublishedProfile,
    ScoreResult,
    SummaryExtra,
    SummaryLine,
)
from app.systems.building import build_engine, roster_document
from app.systems.catalogued import CatalogueSystem, entry_line
from app.systems.dcsystem.catalogue import Catalogue, DcsystemDice, Level, cross_check
from app.systems.dcsystem.engine import (
    DcsystemFighter,
    DcsystemFighterCost,
    cost_fighter,
    discrepancies,
    unit_definition,
)
from app.systems.dcsystem.present import (
    DcsystemArmyOut,
    DcsystemCatalogue,
    DcsystemExampleOut,
    DcsystemHiddenMoveOut,
    DcsystemItemOut,
    DcsystemLevelOut,
    DcsystemUnitOut,
    dice_badges,
)
from app.systems.dcsystem.roster import (
    DcsystemEntryResult,
    DcsystemResult,
    DcsystemRosterBase,
    DcsystemScoreRequest,
    score,
    validate_roster,
)
from app.systems.memo import entry_keys, issues_key

__all__ = ["DcSystem", "FighterDefinition", "build"]

UNIT_FIELDS = {"id", "name", "army", "level", "points", "variant_of", "note", "source", "dice"}
# How the exports print a hidden move and the costing, and how the list import reads them
# back (app/systems/dcsystem/importing.py).
HIDDEN_MOVE = "Coup caché : "
COSTING_NOTE = "Coûts des profils publiés : "


class DcSystem(
    CatalogueSystem[
        Catalogue,
        DcsystemFighter,
        DcsystemRosterBase,
        DcsystemScoreRequest,
        DcsystemFighterCost,
        DcsystemResult,
    ]
):
    """The DCSystem engine, built from its checked catalogue."""

    id = "dcsystem"
    unit_list = "units"

    def __init__(self, catalogue: Catalogue) -> None:
        super().__init__(catalogue)
        # Costs are pure functions of (level, items): a bounded cache serves rosters' repeats.
        self._cached_cost = lru_cache(maxsize=4096)(self._cost)

    def cost(self, unit: DcsystemFighter, /) -> DcsystemFighterCost:
        return self._cached_cost(unit.level, tuple(unit.items))

    def _cost(self, level: Level, items: tuple[str, ...]) -> DcsystemFighterCost:
        return cost_fighter(self.data, DcsystemFighter(level=level, items=list(items)))

    def validate(self, roster: DcsystemRosterBase, /) -> DcsystemResult:
        return validate_roster(self.data, roster, self.cost, self._entries)

    def unit_name(self, roster: DcsystemRosterBase, entry: Any) -> str | None:
        return self.data.unit(entry.unit).name

    def score(self, request: DcsystemScoreRequest, /) -> ScoreResult:
        return score(self.data, request)

    def build_catalogue(self) -> DcsystemCatalogue:
        data = self.data
        units = []
        for unit in data.units:
            costed = cost_fighter(data, unit_definition(unit))
            units.append(
                DcsystemUnitOut(
                    **unit.model_dump(include=UNIT_FIELDS),
                    items=list(unit.items),
                    computed_points=costed.points,
                    discrepancies=discrepancies(data, unit),
                    computed_dice=costed.derived.dice,
                    breakdown=costed.breakdown,
                )
            )
        item_fields = {"id", "name", "kind", "points", "text", "source", "brings"}
        return DcsystemCatalogue(
            **self.catalogue_header(),
            levels=[
                DcsystemLevelOut(
                    level=rule.level,
                    points=rule.points,
                    dice=DcsystemDice(red=rule.red, blue=rule.blue),
                    slots=rule.slots,
                    handicaps=rule.handicaps,
                )
                for rule in data.levels
            ],
            items=[DcsystemItemOut(**item.model_dump(include=item_fields)) for item in data.items],
            hidden_moves=[
                DcsystemHiddenMoveOut(
                    **move.model_dump(include={"id", "name", "points", "text", "source"})
                )
                for move in data.hidden_moves
            ],
            armies=[
                DcsystemArmyOut(
                    id=army.id,
                    name=army.name,
                    source=army.source,
                    units=[unit.id for unit in data.units if unit.army == army.id],
                )
                for army in data.armies
            ],
            units=units,
            examples=self.example_outputs(DcsystemExampleOut),
        )

    def published_profiles(self) -> Sequence[PublishedProfile]:
        catalogue: Any = self.catalogue()
        return [
            PublishedProfile(
                **unit.model_dump(include=PROFILE_FIELDS),
                definition={"level": unit.level, "items": unit.items},
            )
            for unit in catalogue.units
        ]

    def example_documents(self) -> list[dict[str, Any]]:
        return [
            roster_document(
                self.id,
                example,
                [entry.model_dump(exclude_none=True) for entry in example.entries],
                {"hidden_moves": list(example.hidden_moves)},
            )
            for example in self.data.examples
        ]

    def summary_lines(
        self, roster: DcsystemRosterBase, result: DcsystemResult
    ) -> list[SummaryLine]:
        # An entry's result is a function of the entry, its index, the costing and the
        # issues the list adds (validate_roster), and so is its line (app/systems/memo.py).
        costing = roster.extras.costing
        keys = entry_keys(roster.entries)
        return [
            self._lines(
                (keys[index], index, costing, issues_key(entry_result.issues)),
                partial(self._line, entry, entry_result),
            )
            for index, (entry, entry_result) in enumerate(
                zip(roster.entries, result.entries, strict=True)
            )
        ]

    def _line(self, entry: Any, entry_result: DcsystemEntryResult) -> SummaryLine:
        derived = entry_result.derived
        if entry.unit is not None:
            item_ids = self.data.unit(entry.unit).items
        else:
            assert entry.custom is not None
            item_ids = entry.custom.items
        return entry_line(
            entry_result,
            group="Renfort (non compté)" if not entry_result.counted else None,
            badges=dice_badges(derived.dice),
            details=[
                f"Niveau {derived.level}",
                ", ".join(self.data.item(item_id).name for item_id in dict.fromkeys(item_ids)),
            ],
        )

    def summary_extras(
        self, roster: DcsystemRosterBase, result: DcsystemResult
    ) -> list[SummaryExtra]:
        return [
            SummaryExtra(
                label=f"{HIDDEN_MOVE}{self.data.hidden_move(move.id).name}",
                points=move.points,
                text=self.data.hidden_move(move.id).text,
            )
            for move in result.derived.hidden_moves
        ]

    def summary_notes(self, roster: DcsystemRosterBase, result: DcsystemResult) -> list[str]:
        if result.derived.costing == "printed":
            return [f"{COSTING_NOTE}tels qu'imprimés dans les listes d'armée."]
        return [f"{COSTING_NOTE}recalculés selon les règles de création (partie F)."]


def build(data: dict[str, Any]) -> DcSystem | list[str]:
    """The engine, or every problem found in the catalogue data."""
    return build_engine(data, Catalogue, cross_check, DcSystem)
