"""A toy game system in the documented package shape (docs/systems.md), kept in tests/:
three units with a price, an end-of-game score, campaign stats, play traits, its catalogue
and creator pages (web.py, templates/). It is the starting point of a new system: copy
this folder to app/systems/<id>/, write <id> for "toy" (and <Id> for "Toy"), then add its
one line to app/systems/registry.py. tests/conftest.py registers it for the whole test
session (CASERNE_EXTRA_SYSTEMS), so every per-system test runs it; tests/systems/
test_seam_seventh.py makes a seventh system from it that way, which saves through the editor.
"""

from functools import partial
from typing import Any

from app.systems.base import PublishedProfile, ScoreResult, SummaryLine, Total
from app.systems.building import build_engine, roster_document
from app.systems.catalogued import CatalogueSystem, empty_roster, over_points_limit
from app.systems.memo import json_key

from .catalogue import ToyData, cross_check
from .models import ToyEntryBase, ToyFigure, ToyRosterBase, ToyScore
from .present import ToyCatalogue, ToyExampleOut, ToyUnitOut, line
from .rosters import ToyCost, ToyDerived, ToyResult, ToyRosterDerived, entry_result, figure_cost
from .rosters import score as toy_score


class ToySystem(CatalogueSystem[ToyData, ToyFigure, ToyRosterBase, ToyScore, ToyCost, ToyResult]):
    id = "toy"
    unit_list = "units"  # an entry's `unit` names one of the catalogue's units

    def cost(self, unit: ToyFigure, /) -> ToyCost:
        return figure_cost(unit.strength, self.data.pricing.per_strength)

    def entry(self, entry: ToyEntryBase, index: int) -> Any:
        if entry.unit is not None:
            unit = self.data.unit(entry.unit)
            costed = ToyCost(
                points=unit.points,
                breakdown=figure_cost(unit.strength, self.data.pricing.per_strength).breakdown,
                derived=ToyDerived(strength=unit.strength),
                issues=[],
            )
            name = entry.name or unit.name
        else:
            assert entry.custom is not None
            costed, name = self.cost(entry.custom), entry.name or "Figurine"
        return entry_result(name, entry.count, costed, f"entries[{index}].custom")

    def rules(self, entry: ToyEntryBase) -> list[str]:
        return list(self.data.unit(entry.unit).rules) if entry.unit is not None else []

    def validate(self, roster: ToyRosterBase, /) -> ToyResult:
        entries = [
            self._entries((json_key(entry), index), partial(self.entry, entry, index))
            for index, entry in enumerate(roster.entries)
        ]
        points = sum(e.points for e in entries)
        issues = over_points_limit(points, roster.points_limit) + empty_roster(
            roster.entries, "rien"
        )
        derived = ToyRosterDerived(figures=sum(e.count for e in roster.entries))
        return ToyResult.of(roster, points, issues, entries, derived)

    def score(self, request: ToyScore, /) -> ScoreResult:
        return toy_score(request)

    def build_catalogue(self) -> ToyCatalogue:
        units = [
            ToyUnitOut(id=u.id, name=u.name, strength=u.strength, points=u.points)
            for u in self.data.units
        ]
        examples = self.example_outputs(ToyExampleOut)
        return ToyCatalogue(**self.catalogue_header(), units=units, examples=examples)

    def published_profiles(self) -> list[PublishedProfile]:
        per_strength = self.data.pricing.per_strength
        return [
            PublishedProfile(
                id=u.id,
                name=u.name,
                points=u.points,
                computed_points=figure_cost(u.strength, per_strength).points,
                discrepancies=[],
                definition={"strength": u.strength},
            )
            for u in self.data.units
        ]

    def example_documents(self) -> list[dict[str, Any]]:
        return [roster_document(self.id, e, e.entries) for e in self.data.examples]

    def summary_lines(self, roster: ToyRosterBase, result: ToyResult) -> list[SummaryLine]:
        return [
            self._lines((json_key(entry), index), partial(line, entry_result_, self.rules(entry)))
            for index, (entry, entry_result_) in enumerate(
                zip(roster.entries, result.entries, strict=True)
            )
        ]

    def totals(self, roster: ToyRosterBase, result: ToyResult) -> list[Total]:
        return [Total(label="Figurines", value=str(result.derived.figures))]


def build(data: dict[str, Any]) -> ToySystem | list[str]:
    return build_engine(data, ToyData, cross_check, ToySystem)
