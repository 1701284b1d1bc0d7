"""How a validated roster reads, whatever its system: lines, budgets, totals (the shape
every export, the share page and the editor use)."""

from typing import Any

from pydantic import BaseModel, Field, computed_field, model_validator

from app.systems.issues import Issue


class Badge(BaseModel):
    """A short coloured token shown beside an entry (a die colour, a SWC figure...)."""

    text: str
    kind: str = Field(description="A CSS-friendly class name, e.g. dice-red.")
    colour: str | None = Field(None, description="Forum-safe colour for BBCode, e.g. #c0392b.")

    @model_validator(mode="before")
    @classmethod
    def _colour_of_old_snapshots(cls, data: Any) -> Any:
        """Shares frozen before badges carried their colour named it by `kind` alone."""
        if isinstance(data, dict) and "colour" not in data:
            colour = _FROZEN_COLOURS.get(str(data.get("kind")))
            return {**data, "colour": colour} if colour else data
        return data


_FROZEN_COLOURS = {
    "dice-red": "#c0392b",
    "dice-blue": "#1f5fa8",
    "dice-white": "#7f8c8d",
    "dice-yellow": "#b7950b",
}


class EntryHeading(BaseModel):
    """What every view of an entry says of it first (a summary line, a play sheet's card):
    which entry, its names, how many, its points, its group and badges."""

    entry: int | None = Field(None, description="Index of the roster entry it shows.")
    name: str
    profile: str | None = Field(
        None, description="What the entry is, when the player renamed it (« Sgt Bob »)."
    )
    count: int
    points_each: int
    points: int
    counted: bool = True
    group: str | None = None
    badges: list[Badge] = []

    @property
    def title(self) -> str:
        """The name a reader sees: « Sgt Bob (Chef de groupe SG) » for a renamed entry."""
        return f"{self.name} ({self.profile})" if self.profile else self.name

    def heading(self) -> dict[str, Any]:
        """Its heading's fields, as another view of the entry takes them (not copied)."""
        return {field: getattr(self, field) for field in EntryHeading.model_fields}


class SummaryLine(EntryHeading):
    """A roster entry as a reader sees it: the shape every export and the share page use.
    An entry may show as several lines (a No Limits unit, then its leader): `entry` says
    which entry of the document a line belongs to."""

    details: list[str] = []
    house_rules: list[str] = []
    issues: list[Issue] = []


class SummaryExtra(BaseModel):
    """Something bought beside the entries (a hidden move, a battle standard...)."""

    label: str
    points: int
    text: str = ""


Amount = int | float  # SWC comes in halves: 6.5 is exact in binary floating point


class Budget(BaseModel):
    """Something a list spends against a limit: points, and for Infinity SWC."""

    id: str = Field(description="points, swc ...")
    label: str = Field(description="As players write it: points, SWC.")
    used: Amount
    limit: Amount | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def over(self) -> bool:
        return self.limit is not None and self.used > self.limit


class Total(BaseModel):
    """A figure of the whole list that is not a budget (figures, total Rep, actions...)."""

    label: str
    value: str


def points_budget(points: int, limit: int | None) -> Budget:
    return Budget(id="points", label="points", used=points, limit=limit)


class RosterSummary(BaseModel):
    """A system-neutral, ready-to-print view of a validated roster.

    `budgets` is what the list spends (none for systems without points): exports, the
    share page and the editor show those, and `totals` beside them."""

    system: str
    system_name: str
    name: str
    points: int
    points_limit: int | None
    valid: bool
    lines: list[SummaryLine]
    budgets: list[Budget] = []
    totals: list[Total] = []
    extras: list[SummaryExtra] = []
    issues: list[Issue] = Field(default=[], description="The list's own issues.")
    notes: list[str] = []

    @model_validator(mode="before")
    @classmethod
    def _budgets_of_old_snapshots(cls, data: Any) -> Any:
        """Shares frozen before budgets existed had points only."""
        if isinstance(data, dict) and "budgets" not in data and "points" in data:
            return {**data, "budgets": [points_budget(data["points"], data.get("points_limit"))]}
        return data

    @property
    def has_points(self) -> bool:
        return any(budget.id == "points" for budget in self.budgets)
