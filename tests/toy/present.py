"""What the toy's API shows: its catalogue output and the lines of a list."""

from typing import Any, Literal

from app.systems.base import SummaryLine
from app.systems.catalogued import CatalogueOut, ExampleOut, ItemOut, entry_line

from .models import ToyRosterBase


class ToyUnitOut(ItemOut):
    kind: Literal["figurine"] = "figurine"
    strength: int
    points: int


class ToyExampleOut(ExampleOut[ToyRosterBase]):
    """A list of Caserne's own for the toy."""


class ToyCatalogue(CatalogueOut):
    system: Literal["toy"] = "toy"
    units: list[ToyUnitOut]
    examples: list[ToyExampleOut]


def line(result: Any, rules: list[str]) -> SummaryLine:
    """The summary line of one entry's result (an EntryResult[ToyDerived]) and its unit's
    rules."""
    return entry_line(
        result, details=[f"Force {result.derived.strength}", *([", ".join(rules)] if rules else [])]
    )
