"""Army books: a player's own units of one system, kept, published and reused (api-v1.md
« Army books »). Pure: a book document in, its unit-by-unit validation out.

Each unit's `definition` is what the system's `cost` takes as a unit (for a system whose
cost body is `{"unit", "option"}` — Infinity — the trooper itself, with all its options).
It is validated by that system's own unit model: a definition the model refuses is kept and
reported as the unit's issues (`invalid_definition`), never dropped.
"""

from dataclasses import dataclass
from typing import Annotated, Any, Literal
from weakref import WeakKeyDictionary

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from app.systems.base import INPUT, NO_NUL, AnySystem, Issue, error, is_valid, prefixed
from app.systems.inputs import BOOK_UNIT_ID, BookSource, FreeObject
from app.validation_text import french_message

__all__ = [
    "BOOK_MAX_UNITS",
    "UNITS_IN_ENTRIES",
    "UNITS_IN_EXTRAS",
    "BookDocument",
    "BookSource",
    "BookTraits",
    "BookUnit",
    "BookValidation",
    "UnitCheck",
    "UnitOption",
    "book_definition",
    "book_traits",
    "declare_books",
    "definition_model",
    "unit_cost",
    "units_in_entries",
    "units_in_extras",
    "validate_book",
]

# A book holds at most this many units (the issue's « 200-unit book stays fast »).
BOOK_MAX_UNITS = 200

Text = Annotated[str, Field(max_length=2000, pattern=NO_NUL)]


class BookUnit(BaseModel):
    model_config = INPUT

    id: str = Field(pattern=BOOK_UNIT_ID, description="ASCII snake_case, unique in the book.")
    name: str = Field(min_length=1, max_length=80, pattern=NO_NUL)
    text: Text = ""
    definition: FreeObject = Field(
        description="What the system's cost endpoint takes as a unit (Infinity: the trooper)."
    )


class BookDocument(BaseModel):
    model_config = INPUT

    system: str = Field(min_length=1, max_length=32, pattern=r"^[a-z0-9_]+$")
    name: str = Field(min_length=1, max_length=100, pattern=NO_NUL)
    army: str = Field("", max_length=100, pattern=NO_NUL)
    description: Text = ""
    units: list[BookUnit] = Field(default_factory=list, max_length=BOOK_MAX_UNITS)

    @field_validator("units")
    @classmethod
    def _unique_ids(cls, units: list[BookUnit]) -> list[BookUnit]:
        seen: set[str] = set()
        for unit in units:
            if unit.id in seen:
                raise ValueError(f"unit id {unit.id!r} appears twice in the book")
            seen.add(unit.id)
        return units


class UnitOption(BaseModel):
    id: str
    points: int
    swc: float


class UnitCheck(BaseModel):
    id: str
    points: int = Field(description="What cost answers (Infinity: the cheapest option).")
    valid: bool
    issues: list[Issue]
    options: list[UnitOption] | None = Field(None, description="Infinity: per option.")


class BookValidation(BaseModel):
    model_config = ConfigDict(frozen=False)

    valid: bool
    units: list[UnitCheck]


@dataclass(frozen=True)
class BookTraits:
    """Where a system's lists keep a unit drawn from an army book: a system declares it on
    its spec (`SystemSpec.books`, docs/systems.md « Army books »), the conformance check
    holds it against the system's models.

    `units_at`: "entries" (the default) — a book unit is a list entry of its own, its
    definition the cost body, kept as the entry's `custom`; "extras.units" — a book unit is
    a trooper kept in the list's `extras.units`, whose entries name it with one of its
    options, the cost body being `{"unit": <trooper>, "option": <option id>}` (Infinity)."""

    units_at: Literal["entries", "extras.units"] = "entries"


# The two places a list may keep its book units, named once (a spec declares one; one that
# declares nothing gets the first).
UNITS_IN_ENTRIES = BookTraits(units_at="entries")
UNITS_IN_EXTRAS = BookTraits(units_at="extras.units")
_DECLARED: "WeakKeyDictionary[Any, BookTraits]" = WeakKeyDictionary()


def declare_books(system: AnySystem, traits: BookTraits | None) -> None:
    """Records the traits a system's spec declares (app/catalogues.py, when it is built)."""
    _DECLARED[system] = traits or UNITS_IN_ENTRIES


def book_traits(system: AnySystem) -> BookTraits:
    """The book traits `system`'s spec declared (units in entries when it declared none)."""
    return _DECLARED.get(system, UNITS_IN_ENTRIES)


def units_in_extras(system: AnySystem) -> bool:
    """Whether the system keeps book units in `extras.units`, entries naming an option."""
    return book_traits(system).units_at == "extras.units"


def units_in_entries(system: AnySystem) -> bool:
    """Whether a book unit is a list entry by itself (the editor's « Ajouter » offers it)."""
    return not units_in_extras(system)


def book_definition(system: AnySystem, definition: Any, unit_id: str) -> Any:
    """What a creator's unit becomes as a book unit's definition: for a system whose cost
    body holds a trooper and its option, the trooper, carrying the book unit's id."""
    if not units_in_extras(system) or not isinstance(definition, dict):
        return definition
    if "unit" in definition:
        definition = definition["unit"]
    return {**definition, "id": unit_id} if isinstance(definition, dict) else definition


def definition_model(system: AnySystem) -> type[BaseModel]:
    """The model a book unit's definition must fit: the cost body, or its trooper."""
    if units_in_extras(system):
        annotation = system.unit_model.model_fields["unit"].annotation
        assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
        return annotation
    return system.unit_model


def _refused(exc: ValidationError, path: str) -> list[Issue]:
    issues = []
    for detail in exc.errors()[:10]:
        where = ".".join(str(part) for part in detail["loc"])
        issues.append(
            error(
                "invalid_definition",
                f"Définition refusée ({where or 'unité'}) : "
                + french_message(detail["type"], detail["msg"], detail.get("ctx") or {}),
                f"{path}.{where}" if where else path,
            )
        )
    return issues


def unit_cost(system: AnySystem, unit: BookUnit, path: str = "") -> UnitCheck:
    """One unit's check: the system's own `cost` answer, its issues under `path`."""
    definition_path = f"{path}.definition" if path else "definition"
    if not units_in_extras(system):
        try:
            parsed = system.unit_model.model_validate(unit.definition)
        except ValidationError as exc:
            issues = _refused(exc, definition_path)
            return UnitCheck(id=unit.id, points=0, valid=False, issues=issues)
        costed = system.cost(parsed)
        issues = prefixed(costed.issues, definition_path)
        return UnitCheck(id=unit.id, points=costed.points, valid=is_valid(issues), issues=issues)
    issues = []
    options: list[UnitOption] = []
    try:
        trooper = definition_model(system).model_validate(unit.definition)
    except ValidationError as exc:
        issues = _refused(exc, definition_path)
        return UnitCheck(id=unit.id, points=0, valid=False, issues=issues, options=[])
    if getattr(trooper, "id", unit.id) != unit.id:
        issues.append(
            error(
                "definition_id_mismatch",
                f"Le profil a l'identifiant « {getattr(trooper, 'id', '')} », "
                f"l'unité du livre « {unit.id} » : ils doivent être égaux.",
                f"{definition_path}.id",
            )
        )
    for option in getattr(trooper, "options", []):
        costed = system.cost(
            system.unit_model.model_validate({"unit": trooper, "option": option.id})
        )
        swc = float(getattr(costed.derived, "swc", 0) or 0)
        options.append(UnitOption(id=option.id, points=costed.points, swc=swc))
        for issue in prefixed(costed.issues, definition_path):
            if issue not in issues:
                issues.append(issue)
    points = min((option.points for option in options), default=0)
    return UnitCheck(
        id=unit.id, points=points, valid=is_valid(issues), issues=issues, options=options
    )


def validate_book(system: AnySystem, book: BookDocument) -> BookValidation:
    """Every unit checked by the system's own engine; the book is valid when each is."""
    units = [unit_cost(system, unit, f"units[{i}]") for i, unit in enumerate(book.units)]
    return BookValidation(valid=all(unit.valid for unit in units), units=units)
