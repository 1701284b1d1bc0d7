"""The toy's checks and list validation: a figure of strength 0 or less is too weak."""

from pydantic import BaseModel

from app.systems.base import Costed, EntryResult, Issue, RosterResult, error, prefixed


class ToyDerived(BaseModel):
    strength: int


class ToyRosterDerived(BaseModel):
    figures: int


ToyCost = Costed[ToyDerived]
ToyResult = RosterResult[ToyDerived, ToyRosterDerived]


def figure_issues(strength: int) -> list[Issue]:
    return [] if strength > 0 else [error("weak", "Trop faible.", "strength")]


def entry_result(name: str, count: int, strength: int, index: int) -> EntryResult[ToyDerived]:
    return EntryResult[ToyDerived](
        name=name,
        count=count,
        unit_points=0,
        points=0,
        breakdown=[],
        derived=ToyDerived(strength=strength),
        issues=prefixed(figure_issues(strength), f"entries[{index}].custom"),
    )
