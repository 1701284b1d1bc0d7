"""What every engine's `build(data)` does alike: check the catalogue, report every problem."""

from collections.abc import Callable, Hashable, Sequence
from functools import cached_property, partial
from typing import Any, Generic, TypeVar, cast, overload

from pydantic import BaseModel, ConfigDict, ValidationError

from app.systems.base import ExampleRoster

CatalogueT = TypeVar("CatalogueT", bound=BaseModel)


class CatalogueModel(BaseModel):
    """What catalogue data models share: unknown keys are errors, values never change, and
    one way to look an item up (`find`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # Plain dicts cached on the instance: pydantic private attributes are ~30x slower to read.
    @cached_property
    def indexes(self) -> dict[str, dict[Hashable, Any]]:
        return {}

    def find(self, kind: str, key: Hashable, by: str = "id") -> Any:
        """The item of the list `kind` whose `by` is `key`; KeyError when there is none.
        Each list is indexed once, on first use."""
        index = self.indexes.get(kind)
        if index is None:
            items = getattr(self, kind)
            index = self.indexes[kind] = {getattr(item, by): item for item in items}
        return index[key]

    def has(self, kind: str, key: Hashable, by: str = "id") -> bool:
        try:
            self.find(kind, key, by)
        except KeyError:
            return False
        return True


ItemT = TypeVar("ItemT")


class Lookup(Generic[ItemT]):
    """A catalogue's typed lookup of one of its lists, through `find`: in the catalogue's
    class, `weapon: ClassVar[Lookup[Weapon]] = Lookup("weapons")` gives
    `catalogue.weapon(weapon_id)`, the Weapon with that id (KeyError when there is none)."""

    def __init__(self, kind: str, by: str = "id") -> None:
        self.kind = kind
        self.by = by

    @overload
    def __get__(self, catalogue: None, owner: type) -> "Lookup[ItemT]": ...

    @overload
    def __get__(self, catalogue: CatalogueModel, owner: type) -> Callable[[Hashable], ItemT]: ...

    def __get__(
        self, catalogue: CatalogueModel | None, owner: type
    ) -> "Lookup[ItemT] | Callable[[Hashable], ItemT]":
        return self if catalogue is None else partial(self.find, catalogue)

    def find(self, catalogue: CatalogueModel, key: Hashable) -> ItemT:
        # Each list holds the model its field declares (pydantic checked it).
        return cast(ItemT, catalogue.find(self.kind, key, self.by))


class SystemInfo(CatalogueModel):
    """The `[system]` table of a catalogue; a system narrows `id` to its own Literal."""

    id: str
    name: str
    rules_version: str
    catalogue_version: str


class Note(CatalogueModel):
    """A decision Caserne took where the text is silent or contradicts itself (French)."""

    id: str
    title: str
    text: str


class ExampleData(CatalogueModel):
    """A list of the text (or Caserne's own), with the total and the errors it must give."""

    id: str
    name: str
    printed_total: int = 0
    expected_issue_codes: list[str] = []


class SystemCatalogue(CatalogueModel):
    """What every system's catalogue data holds: its identity, its example lists and
    Caserne's decisions (a system narrows `system` and `examples`, and adds its lists)."""

    system: SystemInfo
    examples: Sequence[ExampleData]
    notes: list[Note] = []


EngineT = TypeVar("EngineT")


def build_engine(
    data: dict[str, Any],
    catalogue_model: type[CatalogueT],
    cross_check: Callable[[CatalogueT], list[str]],
    engine: Callable[[CatalogueT], EngineT],
) -> EngineT | list[str]:
    """The engine, or every problem in the data: pydantic's, else the cross-checks'."""
    try:
        catalogue = catalogue_model.model_validate(data)
    except ValidationError as exc:
        return [
            f"{'.'.join(str(part) for part in err['loc'])}: {err['msg']}" for err in exc.errors()
        ]
    return cross_check(catalogue) or engine(catalogue)


def roster_document(
    system_id: str,
    example: Any,
    entries: list[dict[str, Any]],
    extras: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The roster document of a catalogue example, as POST .../validate takes it."""
    return {
        "system": system_id,
        "name": example.name,
        "points_limit": getattr(example, "points_limit", None),
        "entries": entries,
        "extras": extras or {},
    }


def duplicate_ids_in(catalogue: BaseModel, *kinds: str) -> list[str]:
    """One problem per id defined twice in any of the catalogue's lists `kinds`."""
    return [
        problem
        for kind in kinds
        for problem in duplicate_ids(kind, [item.id for item in getattr(catalogue, kind)])
    ]


def duplicate_ids(kind: str, ids: Sequence[str]) -> list[str]:
    """One problem per id defined twice in a list of the catalogue."""
    seen: set[str] = set()
    problems = []
    for index, value in enumerate(ids):
        if value in seen:
            problems.append(f"{kind}[{index}].id: duplicate id {value!r}")
        seen.add(value)
    return problems


def example_rosters(
    examples: Sequence[ExampleData], documents: Sequence[dict[str, Any]]
) -> list[ExampleRoster]:
    """The catalogue's example rosters, each with its roster document."""
    return [
        as_example(ExampleRoster, example, document)
        for example, document in zip(examples, documents, strict=True)
    ]


ModelT = TypeVar("ModelT", bound=BaseModel)


def as_example(
    model: type[ModelT], example: BaseModel, document: dict[str, Any], **more: Any
) -> ModelT:
    """A catalogue example as `model`: the example's fields that `model` has, its roster
    document, and `more`."""
    fields = example.model_dump(include=set(model.model_fields))
    return model.model_validate({**fields, "document": document, **more})
