"""A toy game system defined entirely inside tests/: one unit, no points, no creator page.

It proves the seam: registering it is one line (`SPECS + (SPEC,)`), and its catalogue,
validate, stored rosters, share page and exports work with nothing else changed.
"""

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from app.systems.base import (
    Costed,
    EntryBase,
    EntryResult,
    PublishedProfile,
    RosterResult,
    SummaryLine,
    Total,
    catalogue_id,
    error,
    integer,
)
from app.systems.building import build_engine
from app.systems.catalogued import CatalogueSystem, RosterBase, empty_roster, points_not_used
from app.systems.spec import SystemSpec


class ToyInfo(BaseModel):
    name: str
    rules_version: str
    catalogue_version: str


class ToyUnitData(BaseModel):
    id: str
    name: str
    strength: int


class ToyExample(BaseModel):
    id: str
    name: str
    printed_total: int = 0
    expected_issue_codes: list[str] = []
    entries: list[dict[str, Any]]


class ToyData(BaseModel):
    model_config = ConfigDict(extra="forbid")

    system: ToyInfo
    units: list[ToyUnitData]
    examples: list[ToyExample]


class ToyFigure(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    strength: integer(-10, 10)  # type: ignore[valid-type]


class ToyDerived(BaseModel):
    strength: int


class ToyRosterDerived(BaseModel):
    figures: int


class ToyCatalogue(BaseModel):
    system: Literal["toy"] = "toy"
    name: str
    units: list[dict[str, Any]]


class ToyEntryBase(EntryBase):
    unit: str | None = None
    custom: ToyFigure | None = None


class ToyRosterBase(RosterBase):
    system: Literal["toy"]
    entries: list[ToyEntryBase] = Field(default_factory=list, max_length=50)


ToyCost = Costed[ToyDerived]
ToyResult = RosterResult[ToyDerived, ToyRosterDerived]


class ToySystem(CatalogueSystem[ToyData, ToyFigure, ToyRosterBase, BaseModel, ToyCost, ToyResult]):
    id = "toy"
    has_points = False
    catalogue_model = ToyCatalogue
    cost_response_model = ToyCost
    validate_response_model = ToyResult

    def __init__(self, data: ToyData) -> None:
        super().__init__(data)
        self.unit_model = ToyFigure
        unit_id = catalogue_id([unit.id for unit in data.units], "unit")
        entry = create_model("ToyEntry", __base__=ToyEntryBase, unit=(unit_id | None, None))
        self.roster_model = create_model(
            "ToyRoster", __base__=ToyRosterBase, entries=(list[entry], Field(default_factory=list))
        )

    def cost(self, unit: ToyFigure, /) -> ToyCost:
        issues = [] if unit.strength > 0 else [error("weak", "Trop faible.", "strength")]
        return ToyCost(
            points=0, breakdown=[], derived=ToyDerived(strength=unit.strength), issues=issues
        )

    def validate(self, roster: ToyRosterBase, /) -> ToyResult:
        entries = []
        for index, entry in enumerate(roster.entries):
            strength = (
                next(u.strength for u in self.data.units if u.id == entry.unit)
                if entry.unit is not None
                else entry.custom.strength  # type: ignore[union-attr]
            )
            costed = self.cost(ToyFigure(strength=strength))
            entries.append(
                EntryResult[ToyDerived](
                    name=entry.name
                    or next((u.name for u in self.data.units if u.id == entry.unit), "Figurine"),
                    count=entry.count,
                    unit_points=0,
                    points=0,
                    breakdown=[],
                    derived=costed.derived,
                    issues=[
                        i.model_copy(update={"path": f"entries[{index}].custom.{i.path}"})
                        for i in costed.issues
                    ],
                )
            )
        return ToyResult(
            points=0,
            points_limit=roster.points_limit,
            issues=points_not_used(roster.points_limit) + empty_roster(roster.entries, "rien"),
            entries=entries,
            derived=ToyRosterDerived(figures=sum(e.count for e in roster.entries)),
        )

    def build_catalogue(self) -> ToyCatalogue:
        return ToyCatalogue(
            name=self.name,
            units=[{"id": u.id, "name": u.name, "kind": "figurine"} for u in self.data.units],
        )

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
        return [{"system": "toy", "name": e.name, "entries": e.entries} for e in self.data.examples]

    def summary_lines(self, roster: ToyRosterBase, result: ToyResult) -> list[SummaryLine]:
        return [
            SummaryLine(
                name=e.name,
                count=e.count,
                points_each=0,
                points=0,
                details=[f"Force {e.derived.strength}"],
                issues=e.issues,
            )
            for e in result.entries
        ]

    def totals(self, roster: ToyRosterBase, result: ToyResult) -> list[Total]:
        return [Total(label="Figurines", value=str(result.derived.figures))]


def build(data: dict[str, Any]) -> ToySystem | list[str]:
    return build_engine(data, ToyData, lambda _data: [], ToySystem)


SPEC = SystemSpec(id="toy", build=build, data_dir=Path(__file__).parent / "data")
