"""What every game system engine offers, and the plain data it exchanges.

Engines are pure: they take pydantic models built from JSON and return pydantic models.
No FastAPI, no SQL, no I/O here or in any engine module.
"""

from collections.abc import Sequence
from typing import Any, Generic, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from app.systems.inputs import (
    INPUT,
    NO_NUL,
    Between,
    CatalogueId,
    EntryBase,
    Integral,
    catalogue_id,
    integer,
    one_of_unit_or_custom,
)
from app.systems.issues import Issue, Severity, error, is_valid, join_path, prefixed, warning
from app.systems.summary import (
    Amount,
    Badge,
    Budget,
    RosterSummary,
    SummaryExtra,
    SummaryLine,
    Total,
    points_budget,
)

__all__ = [
    "INPUT",
    "NO_NUL",
    "Amount",
    "Badge",
    "Between",
    "Budget",
    "CatalogueId",
    "EntryBase",
    "Integral",
    "Issue",
    "RosterSummary",
    "Severity",
    "SummaryExtra",
    "SummaryLine",
    "Total",
    "catalogue_id",
    "error",
    "integer",
    "is_valid",
    "join_path",
    "one_of_unit_or_custom",
    "points_budget",
    "prefixed",
    "warning",
]


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
        # Plain loops (a page asks it several times, over 50 entries: issue 29).
        for issue in self.issues:
            if issue.severity == "error":
                return False
        for entry in self.entries:
            for issue in entry.issues:
                if issue.severity == "error":
                    return False
        return True

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
