"""Bodies typed by the systems an app serves, so that the OpenAPI document names no bare
object (issue 28, item 3): a book unit's definition is its system's unit, a published book's
units the same, a catalogue example's document what create_roster takes, a battle's score and
recruits the systems' own.

Two ways a field is typed by a model it does not become:
* `checked(model)`: the value must fit `model`, and is kept as it was sent (a book unit's
  definition is stored without the defaults the model would fill in);
* `described(model)`: the document says `model`; the value is read as bounded free JSON and
  checked later by the roster's own system, which answers its own codes (a battle's score
  and recruits: the ledger's `invalid_score`, `invalid_result`, ...).
"""

from typing import Annotated, Any, Literal, NamedTuple, Union, get_args, get_origin

from pydantic import BaseModel, Field, ValidatorFunctionWrapHandler, WrapValidator, create_model
from pydantic_core import PydanticCustomError

from app.systems.base import AnySystem
from app.systems.books import BOOK_MAX_UNITS, BookDocument, BookUnit, definition_model
from app.systems.inputs import free_json_refusal

__all__ = [
    "TypedBooks",
    "checked",
    "described",
    "example_typed",
    "prefix",
    "system_union",
    "typed_books",
]


def prefix(system_id: str) -> str:
    """A system's prefix in the document's names, as its own models have it (Dcsystem...)."""
    return system_id.capitalize()


def _free(value: Any) -> Any:
    """A JSON object within free JSON's bounds (app/systems/inputs.py), as FreeObject reads it."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise PydanticCustomError("dict_type", "Input should be a valid dictionary")
    refusal = free_json_refusal(value)
    if refusal is not None:
        raise PydanticCustomError(refusal[0], "{reason}", {"reason": refusal[1]})
    return value


def _checked(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    handler(_free(value))
    return value


def _described(value: Any, _handler: ValidatorFunctionWrapHandler) -> Any:
    return _free(value)


def _described_object(value: Any, _handler: ValidatorFunctionWrapHandler) -> Any:
    if value is None:
        raise PydanticCustomError("dict_type", "Input should be a valid dictionary")
    return _free(value)


def _nullable(model: Any) -> bool:
    """Whether `model` (a type, a union, an Annotated one) lets null through."""
    if get_origin(model) is Annotated:
        return _nullable(get_args(model)[0])
    return model is None or type(None) in get_args(model)


def checked(model: Any) -> Any:
    """`model` in the document; the value must fit it and is kept as sent."""
    return Annotated[model, WrapValidator(_checked)]


def described(model: Any) -> Any:
    """`model` in the document; the value is bounded free JSON (checked later), null only
    where `model` allows it."""
    read = _described if _nullable(model) else _described_object
    return Annotated[model, WrapValidator(read)]


def system_union(models: list[Any]) -> Any:
    """One of `models`, told apart by their `system`."""
    if len(models) == 1:
        return models[0]
    return Annotated[Union[tuple(models)], Field(discriminator="system")]  # noqa: UP007


class TypedBooks(NamedTuple):
    """The books of the systems served: `document` a union discriminated by `system`,
    `share` the published versions' union, `units` each system's book unit."""

    document: Any
    share: Any
    units: tuple[Any, ...]


def typed_books(systems: dict[str, AnySystem], share_base: type[BaseModel]) -> TypedBooks:
    """The book documents of the systems served (a union discriminated by `system`, each
    unit's definition checked by its system's unit model) and their published versions
    (`share_base` with the system's units)."""
    books: list[Any] = []
    shares: list[Any] = []
    unit_models: list[Any] = []
    for system in systems.values():
        name = prefix(system.id)
        own_system: Any = Literal[system.id]
        unit: Any = create_model(
            f"{name}BookUnit",
            __base__=BookUnit,
            definition=(
                checked(definition_model(system)),
                Field(description=BookUnit.model_fields["definition"].description),
            ),
        )
        unit_models.append(unit)
        units: Any = (list[unit], Field(default_factory=list, max_length=BOOK_MAX_UNITS))
        books.append(
            create_model(f"{name}Book", __base__=BookDocument, system=own_system, units=units)
        )
        shares.append(
            create_model(f"{name}BookShare", __base__=share_base, system=own_system, units=units)
        )
    return TypedBooks(system_union(books), system_union(shares), tuple(unit_models))


def example_typed(system: AnySystem) -> type[BaseModel]:
    """The system's catalogue model, its examples' `document` typed as the system's roster
    model (what create_roster takes), for the document (the route answers the catalogue's
    own JSON)."""
    model = system.catalogue_model
    examples = model.model_fields.get("examples")
    if examples is None:
        return model
    (example,) = get_args(examples.annotation) or (None,)
    if not isinstance(example, type) or "document" not in getattr(example, "model_fields", {}):
        return model
    typed_example: Any = create_model(
        example.__name__, __base__=example, document=(system.roster_model, ...)
    )
    described_as = Field(description=examples.description)
    return create_model(
        model.__name__, __base__=model, examples=(list[typed_example], described_as)
    )
