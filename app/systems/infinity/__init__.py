"""Infinity, N2-era army building (`infinity`): troopers as data, SWC, AVA, the Lieutenant,
combat groups and their orders. The engine is pure; `spec.py` registers it with its pages."""

from collections.abc import Sequence
from typing import Any

from app.systems.base import Budget, PublishedProfile, SummaryLine, Total
from app.systems.catalogued import CatalogueSystem
from app.systems.infinity.catalogue import (
    Catalogue,
    CatalogueTrooper,
    build_catalogue,
    cross_check,
    example_documents,
)
from app.systems.infinity.engine import (
    InfinityEntryDerived,
    InfinityRosterDerived,
    InfinityTrooperCost,
    InfinityTrooperDerived,
    cost_trooper,
    swc_available,
)
from app.systems.infinity.models import (
    InfinityCostRequest,
    InfinityEntry,
    InfinityExtras,
    InfinityRoster,
    InfinityTrooper,
    InfinityTrooperOption,
)
from app.systems.infinity.present import (
    InfinityCatalogue,
    InfinityExampleOut,
    Presenter,
    catalogue_output,
    option_label,
    unit_definition,
)
from app.systems.infinity.roster import (
    InfinityEntryResult,
    InfinityResult,
    resolve_unit,
    validate_roster,
)

__all__ = [
    "Catalogue",
    "CatalogueTrooper",
    "InfinityCostRequest",
    "InfinityEntry",
    "InfinityEntryDerived",
    "InfinityEntryResult",
    "InfinityExtras",
    "InfinityResult",
    "InfinityRoster",
    "InfinityRosterDerived",
    "InfinitySystem",
    "InfinityTrooper",
    "InfinityTrooperCost",
    "InfinityTrooperDerived",
    "InfinityTrooperOption",
    "build",
    "build_catalogue",
    "cost_trooper",
    "cross_check",
    "example_documents",
    "swc_available",
    "validate_roster",
]


class InfinitySystem(
    CatalogueSystem[
        Catalogue,
        InfinityCostRequest,
        InfinityRoster,
        Any,
        InfinityTrooperCost,
        InfinityResult,
    ]
):
    """Infinity N2 army building, built from its checked catalogue. No end-of-game score:
    the text gives none."""

    id = "infinity"

    def __init__(self, data: Catalogue) -> None:
        super().__init__(data)
        self.presenter = Presenter(data)

    def cost(self, unit: InfinityCostRequest, /) -> InfinityTrooperCost:
        return cost_trooper(self.data, unit)

    def validate(self, roster: InfinityRoster, /) -> InfinityResult:
        return validate_roster(self.data, roster, self._entries)

    def unit_name(self, roster: InfinityRoster, entry: Any) -> str | None:
        trooper = resolve_unit(self.data, roster, entry.unit)
        return trooper.name if trooper is not None else entry.unit

    def build_catalogue(self) -> InfinityCatalogue:
        examples = self.example_outputs(InfinityExampleOut)
        return catalogue_output(self.data, examples, self.catalogue_header())

    def published_profiles(self) -> Sequence[PublishedProfile]:
        """One per option of each catalogue trooper: the cost body and its printed points."""
        return [
            PublishedProfile.agreeing(
                f"{unit.id}/{option.id}",
                option_label(unit.name, option, option.id),
                option.points,
                {"unit": unit_definition(unit), "option": option.id},
            )
            for unit in self.data.units
            for option in unit.options
        ]

    def example_documents(self) -> list[dict[str, Any]]:
        return example_documents(self.data)

    def summary_lines(self, roster: InfinityRoster, result: InfinityResult) -> list[SummaryLine]:
        return self.presenter.lines(roster, result, self._lines, self._copies)

    def budgets(self, roster: InfinityRoster, result: InfinityResult) -> list[Budget]:
        return self.presenter.budgets(result)

    def totals(self, roster: InfinityRoster, result: InfinityResult) -> list[Total]:
        return self.presenter.totals(result)

    def summary_notes(self, roster: InfinityRoster, result: InfinityResult) -> list[str]:
        return self.presenter.notes(roster, result)


def build(data: dict[str, Any]) -> InfinitySystem | list[str]:
    """The engine, or every problem found in the catalogue data."""
    built = build_catalogue(data)
    return built if isinstance(built, list) else InfinitySystem(built)
