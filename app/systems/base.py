"""What every game system engine offers, and the plain data it exchanges.

Engines are pure: they take pydantic models built from JSON and return pydantic models.
No FastAPI, no SQL, no I/O here or in any engine module.
"""

from collections.abc import Sequence
from typing import Annotated, Any, Generic, Literal, Protocol, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    computed_field,
    model_validator,
)
from pydantic_core import PydanticCustomError

Severity = Literal["error", "warning"]

# Free text never holds U+0000: PostgreSQL cannot store it in a JSON document.
NO_NUL = r"^[^\x00]*$"


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
    """A validated roster. `issues` holds every issue, entries' included, with full paths."""

    points: int
    points_limit: int | None
    issues: list[Issue]
    entries: list[EntryResult[DerivedT]]
    derived: RosterDerivedT

    @computed_field  # type: ignore[prop-decorator]
    @property
    def valid(self) -> bool:
        return is_valid(self.issues)


class ScoreResult(BaseModel):
    points: int
    breakdown: list[CostLine]


class Badge(BaseModel):
    """A short coloured token shown beside an entry (a die colour, a SWC figure...)."""

    text: str
    kind: str = Field(description="A CSS-friendly class name, e.g. dice-red.")


class SummaryLine(BaseModel):
    """A roster entry as a reader sees it: the shape every export and the share page use."""

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


class RosterSummary(BaseModel):
    """A system-neutral, ready-to-print view of a validated roster."""

    system: str
    system_name: str
    name: str
    points: int
    points_limit: int | None
    valid: bool
    lines: list[SummaryLine]
    extras: list[SummaryExtra] = []
    issues: list[Issue] = []
    notes: list[str] = []


class PublishedProfile(BaseModel):
    """A profile printed in an army list: the book's cost next to the creation rules' cost."""

    id: str
    name: str
    points: int
    computed_points: int
    discrepancies: list[str]
    definition: dict[str, Any] = Field(description="The unit as POST .../cost takes it.")


class ExampleRoster(BaseModel):
    """A roster printed in the rule text, with the total the text gives."""

    id: str
    name: str
    printed_total: int
    expected_issue_codes: list[str] = []
    document: dict[str, Any]


def _integral(value: Any) -> Any:
    """JSON Schema counts 2.0 as an integer: read it as 2 (strict models refuse 2.5, "2", true)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integral = BeforeValidator(_integral)


def integer(ge: int, le: int) -> Any:
    """An integer between `ge` and `le` (bounds stated in the JSON schema), 2.0 read as 2."""
    return Annotated[int, Field(ge=ge, le=le), Integral]


def catalogue_id(ids: Sequence[str], what: str) -> Any:
    """A string type that only accepts the given ids (and says so in the JSON schema)."""
    known = frozenset(ids)

    def check(value: str) -> str:
        if value not in known:
            raise PydanticCustomError(
                "unknown_id", "unknown {what} id '{value}'", {"what": what, "value": value}
            )
        return value

    return Annotated[
        str, AfterValidator(check), WithJsonSchema({"type": "string", "enum": list(ids)})
    ]


def one_of_unit_or_custom(schema: dict[str, Any]) -> None:
    """JSON schema of an entry: exactly one of `unit` and `custom` is given and not null."""
    properties = schema.get("properties", {})
    branches = []
    for key in ("unit", "custom"):
        prop = properties.get(key, {})
        not_null = [v for v in prop.get("anyOf", [prop]) if v.get("type") != "null"]
        if not_null:
            branches.append({"required": [key], "properties": {key: not_null[0]}})
    schema["oneOf"] = branches


class EntryBase(BaseModel):
    """Fields every roster entry has; systems add `unit` and `custom` with their own types."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=one_of_unit_or_custom)

    name: str | None = Field(None, max_length=80, pattern=NO_NUL)
    count: integer(1, 100) = 1  # type: ignore[valid-type]

    @model_validator(mode="after")
    def _unit_or_custom(self) -> Self:
        given = [key for key in ("unit", "custom") if getattr(self, key, None) is not None]
        if len(given) != 1:
            raise ValueError("an entry names a catalogue unit ('unit') or a custom unit ('custom')")
        return self


class GameSystem(Protocol):
    """One rule set. Registering a system is one line in `registry.py`."""

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
    def roster_model(self) -> type[BaseModel]: ...
    @property
    def score_model(self) -> type[BaseModel]: ...
    @property
    def cost_response_model(self) -> type[BaseModel]: ...
    @property
    def validate_response_model(self) -> type[BaseModel]: ...
    @property
    def catalogue_model(self) -> type[BaseModel]: ...

    def catalogue(self) -> BaseModel: ...

    def cost(self, unit: Any) -> Costed[Any]: ...

    def validate(self, roster: Any) -> RosterResult[Any, Any]: ...

    def score(self, request: Any) -> ScoreResult: ...

    def summarize(self, roster: Any, result: RosterResult[Any, Any]) -> RosterSummary: ...

    def published_profiles(self) -> Sequence[PublishedProfile]: ...

    def example_rosters(self) -> Sequence[ExampleRoster]: ...
