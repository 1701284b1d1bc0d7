"""The conformance check holds each system's import traits (app/systems/import_conformance.py):
a system that declares none, a reader that loses an entry, names that read alike are said."""

from dataclasses import replace

from app.systems.base import AnySystem
from app.systems.conformance import check_system
from app.systems.import_conformance import MISSING
from app.systems.import_traits import ImportTraits, Named, PrintedList, Reading
from app.systems.registry import registered


def test_a_system_without_import_traits_is_told(systems: dict[str, AnySystem]) -> None:
    spec = registered("toy")
    assert spec is not None
    assert check_system(systems["toy"], replace(spec, imports=None)) == [MISSING]


def test_a_reader_that_loses_entries_is_told(systems: dict[str, AnySystem]) -> None:
    spec = registered("toy")
    assert spec is not None and spec.imports is not None

    def careless(system: AnySystem, printed: PrintedList) -> Reading:
        reading = spec.imports.read(system, printed)  # type: ignore[union-attr]
        return Reading(reading.entries[1:], reading.extras, reading.reads)

    broken = replace(spec, imports=ImportTraits(read=careless, names=spec.imports.names))
    assert check_system(systems["toy"], broken) == [
        "example escouade, read back from its printing: its lines differ"
    ]


def test_names_that_read_alike_are_told(systems: dict[str, AnySystem]) -> None:
    spec = registered("toy")
    assert spec is not None and spec.imports is not None
    names = spec.imports.names

    def doubled(system: AnySystem) -> list[Named]:
        found = list(names(system))
        return [*found, Named("tambour_bis", "Tambours", {"unit": "tambour"})]

    broken = replace(spec, imports=ImportTraits(read=spec.imports.read, names=doubled))
    assert check_system(systems["toy"], broken) == [
        "import names 'tambour' and 'tambour_bis' read alike ('Tambours')"
    ]
