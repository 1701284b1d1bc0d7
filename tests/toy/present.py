"""What the toy's API shows: its catalogue output and the lines of a list."""

from typing import Literal

from app.systems.base import SummaryLine
from app.systems.catalogued import CatalogueOut, ItemOut

from .rosters import ToyResult


class ToyUnitOut(ItemOut):
    kind: Literal["figurine"] = "figurine"
    strength: int


class ToyCatalogue(CatalogueOut):
    system: Literal["toy"] = "toy"
    units: list[ToyUnitOut]


def lines(result: ToyResult) -> list[SummaryLine]:
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
