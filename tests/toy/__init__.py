"""A toy game system in the documented package shape (docs/systems.md), kept in tests/:
one unit, no points, no pages. It is the starting point of a new system: copy this folder
to app/systems/<id>/, write <id> for "toy" (and <Id> for "Toy"), then add its one line to
app/systems/registry.py. tests/systems/test_seam.py registers it, and makes a seventh
system from it that way, which saves through the editor.
"""

from typing import Any

from pydantic import BaseModel

from app.systems.base import PublishedProfile, SummaryLine, Total
from app.systems.building import build_engine, roster_document
from app.systems.catalogued import CatalogueSystem, empty_roster, points_not_used

from .catalogue import ToyData, cross_check
from .models import ToyFigure, ToyRosterBase
from .present import ToyCatalogue, ToyUnitOut, lines
from .rosters import (
    ToyCost,
    ToyDerived,
    ToyResult,
    ToyRosterDerived,
    entry_result,
    figure_issues,
)


class ToySystem(CatalogueSystem[ToyData, ToyFigure, ToyRosterBase, BaseModel, ToyCost, ToyResult]):
    id = "toy"
    has_points = False
    unit_list = "units"  # an entry's `unit` names one of the catalogue's units

    def cost(self, unit: ToyFigure, /) -> ToyCost:
        derived = ToyDerived(strength=unit.strength)
        return ToyCost(points=0, breakdown=[], derived=derived, issues=figure_issues(unit.strength))

    def validate(self, roster: ToyRosterBase, /) -> ToyResult:
        entries = []
        for index, entry in enumerate(roster.entries):
            if entry.unit is not None:
                unit = self.data.unit(entry.unit)
                name, strength = entry.name or unit.name, unit.strength
            else:
                assert entry.custom is not None
                name, strength = entry.name or "Figurine", entry.custom.strength
            entries.append(entry_result(name, entry.count, strength, index))
        return ToyResult(
            points=0,
            points_limit=roster.points_limit,
            issues=points_not_used(roster.points_limit) + empty_roster(roster.entries, "rien"),
            entries=entries,
            derived=ToyRosterDerived(figures=sum(e.count for e in roster.entries)),
        )

    def build_catalogue(self) -> ToyCatalogue:
        units = [ToyUnitOut(id=u.id, name=u.name, strength=u.strength) for u in self.data.units]
        return ToyCatalogue(**self.catalogue_header(), units=units)

    def published_profiles(self) -> list[PublishedProfile]:
        return [
            PublishedProfile(
                id=u.id,
                name=u.name,
                points=0,
                computed_points=0,
                discrepancies=[],
                definition={"strength": u.strength},
            )
            for u in self.data.units
        ]

    def example_documents(self) -> list[dict[str, Any]]:
        return [roster_document(self.id, e, e.entries) for e in self.data.examples]

    def summary_lines(self, roster: ToyRosterBase, result: ToyResult) -> list[SummaryLine]:
        return lines(result)

    def totals(self, roster: ToyRosterBase, result: ToyResult) -> list[Total]:
        return [Total(label="Figurines", value=str(result.derived.figures))]


def build(data: dict[str, Any]) -> ToySystem | list[str]:
    return build_engine(data, ToyData, cross_check, ToySystem)
