"""What a carnet file's restore has done so far (app/carnet_file/restore.py runs it): the
new rows by their index in the file, the book versions' new codes, what was skipped."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from sqlmodel import Session

from app.carnet_file.models import CarnetFile
from app.roster_service import TooLarge, UnstorableText, stored_json
from app.store.models import Campaign, Carnet, Roster
from app.systems.base import AnySystem

T = TypeVar("T")
ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(frozen=True)
class Skipped:
    """What did not come in: where in the file, why (a stable code), in words."""

    path: str
    code: str
    detail: str


@dataclass
class Restored:
    """What came in: (id, name) of each new list, book and campaign; what was skipped."""

    rosters: list[tuple[str, str]] = field(default_factory=list)
    books: list[tuple[str, str]] = field(default_factory=list)
    campaigns: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    battles: int = 0


def first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


@dataclass
class RestoreState:
    """One restore of `file` into `carnet`: what its steps share."""

    session: Session
    systems: Mapping[str, AnySystem]
    carnet: Carnet
    file: CarnetFile
    done: Restored = field(default_factory=Restored)
    codes: dict[str, str] = field(default_factory=dict)  # book versions: old code -> new
    rosters: dict[int, tuple[Roster, BaseModel]] = field(default_factory=dict)
    campaigns: dict[int, Campaign] = field(default_factory=dict)

    def skip(self, path: str, code: str, detail: str) -> None:
        self.done.skipped.append(Skipped(path, code, detail))

    def system(self, path: str, system_id: str) -> AnySystem | None:
        found = self.systems.get(system_id)
        if found is None:
            self.skip(path, "unknown_system", f"No game system {system_id!r} on this server.")
        return found

    def stored(
        self, path: str, model: type[ModelT], document: Any, what: str, limit: int
    ) -> tuple[ModelT, dict[str, Any]] | None:
        """`document` as `model` reads it and as it would be stored (its JSON within
        `limit` bytes), or None: skipped, as `parsed` says."""

        def parse() -> tuple[ModelT, dict[str, Any]]:
            parsed = model.model_validate(document)
            stored = parsed.model_dump(mode="json")
            stored_json(stored, what, limit)
            return parsed, stored

        return self.parsed(path, parse)

    def parsed(self, path: str, parse: Callable[[], T]) -> T | None:
        """What `parse` makes of a part of the file, or None: a document today's catalogue
        refuses, or no database stores (too heavy, an invalid character), is skipped."""
        try:
            return parse()
        except ValidationError as error:
            self.skip(path, "invalid_document", first_error(error))
        except (TooLarge, UnstorableText) as error:
            self.skip(path, "invalid_document", str(error))
        return None
