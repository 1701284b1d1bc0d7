"""Reads every registered system's catalogue from `data/systems/<id>/*.toml` at start-up."""

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.example_books import BOOK_FILE, ExampleBook, load_example_books
from app.systems import registry
from app.systems.base import AnySystem
from app.systems.books import declare_books
from app.systems.import_traits import declare_imports
from app.systems.sheet import SHEET_FILE, SheetData, load_sheets
from app.systems.spec import DATA_DIR, SystemSpec

__all__ = [
    "DATA_DIR",
    "CatalogueError",
    "load_books",
    "load_play_sheets",
    "load_systems",
    "read_system_data",
]


class CatalogueError(Exception):
    """Every problem found in the catalogues, one per line, with file and key."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid catalogue data:\n" + "\n".join(f"  {p}" for p in problems))


def read_system_data(directory: Path) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """Merges the TOML files of one system; returns data, where each key came from, problems."""
    data: dict[str, Any] = {}
    origin: dict[str, str] = {}
    problems: list[str] = []
    # sheet.toml is the play sheet's (app/systems/sheet.py), not the engine's catalogue.
    # book.toml is Caserne's example army book (app/example_books.py).
    files = sorted(
        path for path in directory.glob("*.toml") if path.name not in (SHEET_FILE, BOOK_FILE)
    )
    if not files:
        problems.append(f"{directory}: no catalogue file (*.toml)")
    for path in files:
        try:
            content = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            problems.append(f"{path.name}: {exc}")
            continue
        for key, value in content.items():
            if key in data:
                problems.append(f"{path.name}: key {key!r} already defined in {origin[key]}")
                continue
            data[key] = value
            origin[key] = path.name
    return data, origin, problems


def load_systems(
    data_dir: Path | None = None, specs: Sequence[SystemSpec] | None = None
) -> dict[str, AnySystem]:
    """Every registered engine, or CatalogueError listing all problems of all systems.
    `data_dir` replaces data/systems/ for every system (tests of broken data)."""
    systems: dict[str, AnySystem] = {}
    problems: list[str] = []
    for spec in registry.SPECS if specs is None else specs:
        system_id = spec.id
        folder = data_dir / system_id if data_dir is not None else spec.data
        data, origin, read_problems = read_system_data(folder)
        problems += [f"{system_id}/{problem}" for problem in read_problems]
        if read_problems:
            continue
        built = spec.build(data)
        if isinstance(built, list):
            for problem in built:
                top = problem.split(".", 1)[0].split("[", 1)[0].split(":", 1)[0]
                problems.append(f"{system_id}/{origin.get(top, '?')}: {problem}")
        else:
            declare_books(built, spec.books)
            declare_imports(built, spec.imports)
            systems[system_id] = built
    if problems:
        raise CatalogueError(problems)
    return systems


def load_play_sheets(specs: Sequence[SystemSpec] | None = None) -> dict[str, SheetData]:
    """Every registered system's sheet.toml, validated at start-up like the catalogues."""
    specs = registry.SPECS if specs is None else specs
    sheets, problems = load_sheets({spec.id: spec.data for spec in specs})
    if problems:
        raise CatalogueError(problems)
    return sheets


def load_books(
    systems: dict[str, AnySystem], specs: Sequence[SystemSpec] | None = None
) -> dict[str, ExampleBook]:
    """Every registered system's example army book, validated at start-up: a unit that
    its system's engine finds invalid is a CatalogueError, like a broken catalogue."""
    books, problems = load_example_books(systems, registry.SPECS if specs is None else specs)
    if problems:
        raise CatalogueError(problems)
    return books
