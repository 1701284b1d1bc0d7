"""The shared base of catalogue-backed systems: identity, the cached catalogue, published
profiles, example rosters, the summary skeleton, the roster base model, and the checks
every list gets (points limit, empty list).

A system subclasses `CatalogueSystem[...]` with its own models and fills in what only it
knows (its catalogue output, its summary lines); see docs/systems.md.
"""

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Generic,
    TypeVar,
    get_args,
    get_origin,
    get_type_hints,
)

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from app.systems.base import (
    NO_NUL,
    Between,
    Budget,
    Costed,
    EntryResult,
    ExampleRoster,
    Issue,
    NoScore,
    PublishedProfile,
    RosterResult,
    RosterSummary,
    ScoreResult,
    SummaryExtra,
    SummaryLine,
    Total,
    catalogue_id,
    error,
    points_budget,
    prefixed,
    warning,
)
from app.systems.building import SystemCatalogue, as_example, example_rosters
from app.systems.memo import EntryMemo, LineCopies
from app.systems.outputs import (
    CatalogueOut,
    DecisionOut,
    DescribedOut,
    ExampleOut,
    ExampleOutT,
    ItemOut,
    PricedOut,
)

__all__ = [
    "CatalogueOut",
    "CatalogueSystem",
    "DescribedOut",
    "ExampleOut",
    "ItemOut",
    "PricedOut",
    "RosterBase",
    "empty_roster",
    "entry_line",
    "narrowed_models",
    "over_points_limit",
    "points_not_used",
    "unpriced_entry",
]

NO_NAME = "Liste sans nom"


class NoExtras(BaseModel):
    """The `extras` of a system that needs none: an empty object (what the editor sends)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class RosterBase(BaseModel):
    """Fields every roster document has; a system adds `system` (its id as a Literal) and
    `entries`, and overrides `extras` with its own model when it has options beyond its
    entries (api-v1.md, "Roster documents"). Without one, `extras` is `{}`."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field("", max_length=100, pattern=NO_NUL)
    points_limit: Annotated[int, Between(1, 100_000)] | None = None
    if TYPE_CHECKING:  # each system narrows it to its own model
        extras: Any = None
    else:
        extras: NoExtras = Field(default_factory=NoExtras)

    @model_validator(mode="after")
    def _entry_ids_unique(self) -> "RosterBase":
        """Two entries never share a stable id (the ledger would not know which fell)."""
        seen: set[str] = set()
        for entry in getattr(self, "entries", None) or []:
            given = getattr(entry, "id", None)
            if given is not None:
                if given in seen:
                    raise ValueError(f"two entries have the id {given!r}")
                seen.add(given)
        return self


CatalogueT = TypeVar("CatalogueT", bound=SystemCatalogue)
UnitT = TypeVar("UnitT", bound=BaseModel)
RosterT = TypeVar("RosterT", bound=RosterBase)
ScoreT = TypeVar("ScoreT", bound=BaseModel)
CostT = TypeVar("CostT", bound=Costed[Any])
ResultT = TypeVar("ResultT", bound=RosterResult[Any, Any])


EntryT = TypeVar("EntryT", bound=BaseModel)
DocumentT = TypeVar("DocumentT", bound=BaseModel)


def narrowed_models(
    entry_base: type[EntryT], roster_base: type[DocumentT], unit_ids: Sequence[str], what: str
) -> tuple[type[EntryT], type[DocumentT]]:
    """A system's entry and roster document models, refusing unit ids its catalogue lacks
    (code unknown_id; the JSON schema lists the known ones). `XEntryBase` gives `XEntry`."""
    unit = catalogue_id(list(unit_ids), what)
    entry = create_model(
        entry_base.__name__.removesuffix("Base"),
        __base__=entry_base,
        __doc__=entry_base.__doc__,
        unit=(unit | None, Field(None, description=f"Id of a catalogue {what}.")),
    )
    roster = create_model(
        roster_base.__name__.removesuffix("Base"),
        __base__=roster_base,
        __doc__=roster_base.__doc__,
        entries=(list[entry], Field(default_factory=list, max_length=200)),  # type: ignore[valid-type]
    )
    return entry, roster


EntryResultT = TypeVar("EntryResultT", bound=EntryResult[Any])


def unpriced_entry(
    result: type[EntryResultT],
    entry: Any,
    name: str,
    costed: Costed[Any],
    where: str,
) -> EntryResultT:
    """The result of an entry of a system without points: its figures and issues (paths
    placed under `where`), never a point."""
    return result(
        name=name,
        count=entry.count,
        unit_points=0,
        points=0,
        breakdown=[],
        derived=costed.derived,
        issues=prefixed(costed.issues, where),
    )


def entry_line(result: EntryResult[Any], **shown: Any) -> SummaryLine:
    """An entry's summary line: its name, count, points, whether it counts and its issues
    as its result says them, and what the system shows of it (`shown`: badges, details,
    its group, another name)."""
    said = {
        "name": result.name,
        "count": result.count,
        "points_each": result.unit_points,
        "points": result.points,
        "counted": result.counted,
        "issues": result.issues,
    }
    return SummaryLine(**{**said, **shown})


def over_points_limit(points: int, limit: int | None, source: str = "") -> list[Issue]:
    """The list costs more than the game's format."""
    if limit is None or points <= limit:
        return []
    where = f", {source}" if source else ""
    return [
        error(
            "over_points_limit",
            f"{points} points pour un format de {limit} ({points - limit} de trop{where}).",
            "points_limit",
        )
    ]


def empty_roster(entries: Sequence[object], what: str) -> list[Issue]:
    """A list with nothing in it is allowed while it is built, and said."""
    return [] if entries else [warning("empty_roster", f"La liste ne contient {what}.")]


def points_not_used(limit: int | None) -> list[Issue]:
    """For systems without points: a format in points means nothing, and is said."""
    if limit is None:
        return []
    return [
        warning(
            "points_not_used",
            f"Ce jeu ne compte pas de points : le format de {limit} points est ignoré.",
            "points_limit",
        )
    ]


class CatalogueSystem(Generic[CatalogueT, UnitT, RosterT, ScoreT, CostT, ResultT]):
    """A game system built from a checked catalogue. Subclasses set the class attributes,
    the models in `__init__` when they depend on the catalogue, and the methods marked
    below; the rest is the same for every system."""

    id: ClassVar[str]
    has_points: ClassVar[bool] = True
    catalogue_model: ClassVar[type[BaseModel]]
    # Read from the class's own type arguments (see __init_subclass__); a system whose
    # models depend on its catalogue (narrowed unit ids) replaces them in __init__.
    cost_response_model: ClassVar[type[BaseModel]]
    validate_response_model: ClassVar[type[BaseModel]]
    unit_model: type[UnitT]
    roster_model: type[RosterT]
    score_model: type[ScoreT] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is CatalogueSystem:
                _data, unit, roster, score, cost, result = get_args(base)
                cls.unit_model = unit
                cls.roster_model = roster
                scores = isinstance(score, type) and issubclass(score, BaseModel)
                cls.score_model = score if scores and score not in (BaseModel, NoScore) else None
                cls.cost_response_model = cost
                cls.validate_response_model = result
        # The catalogue output is what build_catalogue says it returns.
        if "build_catalogue" in vars(cls):
            cls.catalogue_model = get_type_hints(cls.build_catalogue)["return"]

    # The catalogue list whose ids an entry's `unit` may name ("units", "figures"): the
    # entry and roster models are then narrowed to those ids (code unknown_id otherwise).
    unit_list: ClassVar[str | None] = None

    def __init__(self, data: CatalogueT) -> None:
        self.data = data
        # The engine's memories of per-entry work, one per kind (app/systems/memo.py): its
        # entries' results (`validate`) and their summary lines (`summary_lines`).
        self._entries: EntryMemo[Any] = EntryMemo()
        self._lines: EntryMemo[Any] = EntryMemo()
        self._copies = LineCopies()
        self.name = data.system.name
        self.rules_version = data.system.rules_version
        self.catalogue_version = data.system.catalogue_version
        if self.unit_list is not None:
            entry_base = get_args(self.roster_model.model_fields["entries"].annotation)[0]
            ids = [item.id for item in getattr(data, self.unit_list)]
            self.entry_model, self.roster_model = narrowed_models(
                entry_base, self.roster_model, ids, self.unit_list.removesuffix("s")
            )

    # --- what a subclass says ----------------------------------------------------------

    def cost(self, unit: UnitT, /) -> CostT:
        raise NotImplementedError

    def validate(self, roster: RosterT, /) -> ResultT:
        raise NotImplementedError

    def score(self, request: ScoreT, /) -> ScoreResult:
        raise NotImplementedError(f"{self.id} has no end-of-game score")

    def build_catalogue(self) -> BaseModel:
        """The catalogue as the API shows it (built once)."""
        raise NotImplementedError

    def example_documents(self) -> list[dict[str, Any]]:
        """The roster documents of the catalogue's examples, in their order."""
        raise NotImplementedError

    def summary_lines(self, roster: RosterT, result: ResultT) -> list[SummaryLine]:
        """The lines readers see; one per entry gets `entry` set here, else set it."""
        raise NotImplementedError

    def summary_extras(self, roster: RosterT, result: ResultT) -> list[SummaryExtra]:
        return []

    def summary_notes(self, roster: RosterT, result: ResultT) -> list[str]:
        return []

    def budgets(self, roster: RosterT, result: ResultT) -> list[Budget]:
        return [points_budget(result.points, result.points_limit)] if self.has_points else []

    def totals(self, roster: RosterT, result: ResultT) -> list[Total]:
        return []

    def published_profiles(self) -> Sequence[PublishedProfile]:
        return []

    # --- the same for every system -----------------------------------------------------

    def catalogue_header(self) -> dict[str, Any]:
        """The fields every catalogue output starts with (see `CatalogueOut`)."""
        return {
            "name": self.name,
            "rules_version": self.rules_version,
            "catalogue_version": self.catalogue_version,
            "notes": [DecisionOut(id=n.id, name=n.title, text=n.text) for n in self.data.notes],
        }

    def example_outputs(
        self, model: type[ExampleOutT], more: Callable[[BaseModel], dict[str, Any]] | None = None
    ) -> list[ExampleOutT]:
        """Each example as `model`: the catalogue fields `model` has, its document, and what
        `more` computes from the parsed document."""
        outputs = []
        for example, document in zip(self.data.examples, self.example_documents(), strict=True):
            extra = more(self.roster_model.model_validate(document)) if more else {}
            outputs.append(as_example(model, example, document, **extra))
        return outputs

    @cached_property
    def _catalogue(self) -> BaseModel:
        return self.build_catalogue()

    def catalogue(self) -> BaseModel:
        return self._catalogue

    def example_rosters(self) -> Sequence[ExampleRoster]:
        return example_rosters(self.data.examples, self.example_documents())

    def unit_name(self, roster: RosterT, entry: Any) -> str | None:
        """The name `entry` (an entry naming a unit) would have unnamed. By default its
        validation in a one-entry list; each system says it from its catalogue instead
        (one lookup, not one validation per renamed entry at every save: issue 19), and
        tests/systems/test_unit_names.py holds them to this default."""
        unnamed = roster.model_copy(update={"entries": [entry.model_copy(update={"name": None})]})
        name: str | None = self.validate(unnamed).entries[0].name
        return name

    def _with_profiles(self, roster: RosterT, lines: list[SummaryLine]) -> list[SummaryLine]:
        """A renamed entry's first line says what it is (« Sgt Bob », a Chef de groupe SG):
        the name the system gives the same entry unnamed. Only for an entry naming a unit (a
        player's own figure, `custom`, is what its name says)."""
        entries = list(getattr(roster, "entries", []))
        seen: set[int] = set()
        out = []
        for line in lines:
            index = line.entry
            entry = entries[index] if index is not None and index < len(entries) else None
            named = entry is not None and entry.name and getattr(entry, "unit", None) is not None
            if index is not None and entry is not None and index not in seen and named:
                seen.add(index)
                profile = self.unit_name(roster, entry)
                if profile and profile != line.name:
                    line = self._copies(line, "profile", profile)
            out.append(line)
        return out

    def summarize(self, roster: RosterT, result: ResultT, /) -> RosterSummary:
        lines = self.summary_lines(roster, result)
        if len(lines) == len(result.entries) and all(line.entry is None for line in lines):
            lines = [self._copies(line, "entry", i) for i, line in enumerate(lines)]
        lines = self._with_profiles(roster, lines)
        # Readers see each group once (a combat group, the Renfort), in the order groups
        # first appear, entries keeping their order inside it.
        groups = list(dict.fromkeys(line.group for line in lines))
        lines.sort(key=lambda line: groups.index(line.group))
        return RosterSummary(
            system=self.id,
            system_name=self.name,
            name=roster.name or NO_NAME,
            points=result.points,
            points_limit=result.points_limit,
            valid=result.valid,
            lines=lines,
            budgets=self.budgets(roster, result),
            totals=self.totals(roster, result),
            extras=self.summary_extras(roster, result),
            issues=result.issues,
            notes=self.summary_notes(roster, result),
        )
