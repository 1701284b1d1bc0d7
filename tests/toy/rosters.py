"""The toy's prices, checks and list validation: a figure costs its catalogue price (a
created one two points per point of strength); one of strength 0 or less is too weak."""

from pydantic import BaseModel

from app.systems.base import (
    Costed,
    CostLine,
    EntryResult,
    Issue,
    RosterResult,
    ScoreResult,
    error,
    prefixed,
)

from .models import ToyScore


class ToyDerived(BaseModel):
    strength: int


class ToyRosterDerived(BaseModel):
    figures: int


ToyCost = Costed[ToyDerived]
ToyResult = RosterResult[ToyDerived, ToyRosterDerived]
FLAG_POINTS = 3


def figure_issues(strength: int) -> list[Issue]:
    return [] if strength > 0 else [error("weak", "Trop faible.", "strength")]


def figure_cost(strength: int, per_strength: int) -> ToyCost:
    points = max(strength, 0) * per_strength
    line = CostLine(id="strength", label=f"Force {strength} × {per_strength}", points=points)
    return ToyCost(
        points=points,
        breakdown=[line],
        derived=ToyDerived(strength=strength),
        issues=figure_issues(strength),
    )


def entry_result(name: str, count: int, costed: ToyCost, where: str) -> EntryResult[ToyDerived]:
    return EntryResult[ToyDerived](
        name=name,
        count=count,
        unit_points=costed.points,
        points=costed.points * count,
        breakdown=costed.breakdown,
        derived=costed.derived,
        issues=prefixed(costed.issues, where),
    )


def score(request: ToyScore) -> ScoreResult:
    lines = [CostLine(id="knocked_over", label="Figurines renversées", points=request.knocked_over)]
    if request.flag:
        lines.append(CostLine(id="flag", label="Drapeau pris", points=FLAG_POINTS))
    return ScoreResult(points=sum(line.points for line in lines), breakdown=lines)
