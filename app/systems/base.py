"""What every game system engine offers, and the plain data it exchanges.

Engines are pure: they take pydantic models built from JSON and return pydantic models.
No FastAPI, no SQL, no I/O here or in any engine module.
"""

from collections.abc import Sequence
from typing import Any, Generic, Literal, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from app.systems.inputs import (
    INPUT,
    NO_NUL,
    EntryBase,
    Integral,
    catalogue_id,
    integer,
    one_of_unit_or_custom,
)

__all__ = [
    "INPUT",
    "NO_NUL",
    "EntryBase",
    "Integral",
    "catalogue_id",
    "integer",
    "one_of_unit_or_custom",
]

Severity = Literal["error", "warning"]


class Issue(BaseModel):
    """A problem found in a unit or a roster; `error` makes it invalid, `warning` does not."""

    model_config = ConfigDict(frozen=True)

    severity: Severity
    code: str = Field(description="Stable snake_case identifier of the problem.")
    message: str = Field(description="Human text, in French.")
    path: str = Field(
        "", description="Where in the request the problem is, e.g. entries[2].items[1]."
    )


def error(code: str, message: str, path: str = "") -> Issue:
    return Issue(severity="error", code=code, message=message, path=path)


def warning(code: str, message: str, path: str = "") -> Issue:
    return Issue(severity="warning", code=code, message=message, path=path)


def join_path(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if not path:
        return prefix
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


def prefixed(issues: Sequence[Issue], prefix: str) -> list[Issue]:
    """The same issues, with their paths placed under `prefix`."""
    return [issue.model_copy(update={"path": join_path(prefix, issue.path)}) for issue in issues]


def is_valid(issues: Sequence[Issue]) -> bool:
    return not any(issue.severity == "error" for issue in issues)


class CostLine(BaseModel):
    """One line of a cost breakdown, as a player would check it against the book."""

    id: str
    label: str
    points: int


DerivedT = TypeVar("DerivedT", bound=BaseModel)
RosterDerivedT = TypeVar("RosterDerivedT", bound=BaseModel)


class Costed(BaseModel, Generic[DerivedT]):
    """The cost of one unit: the breakdown's points add up to `points`."""

    points: int
    breakdown: list[CostLine]
    derived: DerivedT
    issues: list[Issue]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def valid(self) -> bool:
        return is_valid(self.issues)

    @model_validator(mode="after")
    def _breakdown_adds_up(self) -> Self:
        total = sum(line.points for line in self.breakdown)
        if total != self.points:
            raise ValueError(f"breakdown adds up to {total}, not {self.points}")
        return self


class EntryResult(BaseModel, Generic[DerivedT]):
    """One roster entry once validated."""

    name: str
    count: int
    unit_points: int = Field(description="Points of one model of the entry.")
    points: int = Field(description="What the entry adds to the roster total.")
    counted: bool = Field(True, description="False when the entry is listed but not counted.")
    breakdown: list[CostLine]
    derived: DerivedT
    issues: list[Issue]


class RosterResult(BaseModel, Generic[DerivedT, RosterDerivedT]):
    """A validated roster. `issues` holds the list's own issues; each entry holds its own
    (paths are full: `entries[2].items[1]`). Valid when neither has an error."""

    points: int
    points_limit: int | None
    issues: list[Issue]
    entries: list[EntryResult[DerivedT]]
    derived: RosterDerivedT

    @computed_field  # type: ignore[prop-decorator]
    @property
    def valid(self) -> bool:
        return is_valid(self.issues) and all(is_valid(entry.issues) for entry in self.entries)

    @classmethod
    def of(
        cls,
        roster: "HasPointsLimit",
        points: int,
        issues: list[Issue],
        entries: Sequence[EntryResult[DerivedT]],
        derived: RosterDerivedT,
    ) -> Self:
        """The result of `roster`: its total, its own issues, its entries, what it derives."""
        return cls(
            points=points,
            points_limit=roster.points_limit,
            issues=issues,
            entries=list(entries),
            derived=derived,
        )


class HasPointsLimit(Protocol):
    @property
    def points_limit(self) -> int | None: ...


class ScoreResult(BaseModel):
    points: int
    breakdown: list[CostLine]


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


class SummaryLine(BaseModel):
    """A roster entry as a reader sees it: the shape every export and the share page use.
    An entry may show as several lines (a No Limits unit, then its leader): `entry` says
    which entry of the document a line belongs to."""

    entry: int | None = Field(None, description="Index of the roster entry it shows.")
    name: str
    count: int
    points_each: int
    points: int
    counted: bool = True
    group: str | None = None
    badges: list[Badge] = []
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


class PublishedProfile(BaseModel):
    """A profile printed in an army list: the book's cost next to the creation rules' cost."""

    id: str
    name: str
    points: int
    computed_points: int
    discrepancies: list[str]
    definition: dict[str, Any] = Field(description="The unit as POST .../cost takes it.")

    @classmethod
    def agreeing(
        cls, profile_id: str, name: str, points: int, definition: dict[str, Any]
    ) -> "PublishedProfile":
        """A profile whose printed and computed costs agree (0 and 0 for a sample figure
        of a system without points)."""
        return cls(
            id=profile_id,
            name=name,
            points=points,
            computed_points=points,
            discrepancies=[],
            definition=definition,
        )


# The fields a catalogue's own profile output shares with PublishedProfile.
PROFILE_FIELDS = {"id", "name", "points", "computed_points", "discrepancies"}


class ExampleRoster(BaseModel):
    """A roster printed in the rule text, with the total the text gives."""

    id: str
    name: str
    printed_total: int
    expected_issue_codes: list[str] = []
    document: dict[str, Any]


UnitT = TypeVar("UnitT", bound=BaseModel, contravariant=True)
RosterT = TypeVar("RosterT", bound=BaseModel)
ScoreT = TypeVar("ScoreT", bound=BaseModel, contravariant=True)
CostT = TypeVar("CostT", bound=Costed[Any], covariant=True)
ResultT = TypeVar("ResultT", bound=RosterResult[Any, Any])


class NoScore(BaseModel):
    """The score request of a system without an end-of-game score (never parsed)."""

    model_config = ConfigDict(extra="forbid")


class GameSystem(Protocol[UnitT, RosterT, ScoreT, CostT, ResultT]):
    """One rule set, typed by its models: the unit it costs, the roster document it
    validates, its score request, its cost and roster results.

    Points and score are capabilities: `has_points` false (Bastos, Necromunda–Warzone)
    means every total is 0 and the pages show figures instead; `score_model` None means
    no score endpoint and no score helper. Registering a system is one line in
    `registry.py` (see docs/systems.md)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def rules_version(self) -> str: ...
    @property
    def has_points(self) -> bool: ...
    @property
    def catalogue_version(self) -> str: ...
    @property
    def unit_model(self) -> type[BaseModel]: ...
    @property
    def roster_model(self) -> type[RosterT]: ...
    @property
    def score_model(self) -> type[BaseModel] | None: ...
    @property
    def cost_response_model(self) -> type[BaseModel]: ...
    @property
    def validate_response_model(self) -> type[BaseModel]: ...
    @property
    def catalogue_model(self) -> type[BaseModel]: ...

    def catalogue(self) -> BaseModel: ...

    def cost(self, unit: UnitT, /) -> CostT: ...

    def validate(self, roster: RosterT, /) -> ResultT: ...

    def score(self, request: ScoreT, /) -> ScoreResult: ...

    def summarize(self, roster: RosterT, result: ResultT, /) -> RosterSummary: ...

    def published_profiles(self) -> Sequence[PublishedProfile]: ...

    def example_rosters(self) -> Sequence[ExampleRoster]: ...


# What the registry, the API and the pages hold: any system, whatever its models.
AnySystem = GameSystem[Any, Any, Any, Any, Any]
