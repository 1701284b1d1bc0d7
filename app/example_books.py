"""Caserne's own example army books: one per system, in `data/systems/<id>/book.toml`,
read and validated at start-up like the catalogues (app/catalogues.py). Each is marked as
Caserne's own on its page; every unit must be valid by its system's own engine."""

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from app.systems.base import AnySystem
from app.systems.books import BookDocument, BookValidation, validate_book
from app.systems.spec import SystemSpec

__all__ = ["BOOK_FILE", "ExampleBook", "load_example_books"]

BOOK_FILE = "book.toml"


@dataclass(frozen=True)
class ExampleBook:
    document: BookDocument
    validation: BookValidation


def load_example_books(
    systems: Mapping[str, AnySystem], specs: Sequence[SystemSpec]
) -> tuple[dict[str, ExampleBook], list[str]]:
    """Each system's example book, and every problem found (file, unit, issue)."""
    books: dict[str, ExampleBook] = {}
    problems: list[str] = []
    for spec in specs:
        if spec.id not in systems:
            continue
        path = spec.data / BOOK_FILE
        where = f"{spec.id}/{BOOK_FILE}"
        if not path.is_file():  # a system may ship none (tests/store: every registered one does)
            continue
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8")).get("book")
            document = BookDocument.model_validate({"system": spec.id, **(raw or {})})
        except tomllib.TOMLDecodeError as exc:
            problems.append(f"{where}: {exc}")
            continue
        except (ValidationError, TypeError) as exc:
            problems.append(f"{where}: {exc}")
            continue
        validation = validate_book(systems[spec.id], document)
        for unit in validation.units:
            problems += [f"{where}: unit {unit.id!r}: {issue.message}" for issue in unit.issues]
        if not document.units:
            problems.append(f"{where}: an example book has units")
        books[spec.id] = ExampleBook(document, validation)
    return books, problems
