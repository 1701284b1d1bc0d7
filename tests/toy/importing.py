"""How the toy's printed lists are read back (app/systems/import_traits.py): an entry
names a catalogue unit, or is a figure rebuilt from its printed « Force N »."""

import re
from typing import Any

from app.systems.base import AnySystem
from app.systems.entry_reading import read_all
from app.systems.import_traits import (
    ImportTraits,
    Named,
    PrintedEntry,
    PrintedList,
    Reading,
    by_names,
)

STRENGTH = re.compile(r"^Force (-?\d{1,3})$")
# What a printed figure does not say (its campaign figures).
LOST = "Figurines créées : leur courage et leur XP ne sont pas imprimés (remis à 0)."


def names(system: AnySystem) -> list[Named]:
    """Every catalogue unit by its name."""
    return by_names(system.data.units)


def figure(system: AnySystem, printed: PrintedEntry) -> dict[str, Any] | None:
    """A created figure from its details: « Force 3 »."""
    for part in printed.details:
        if found := STRENGTH.match(part):
            return {"strength": int(found[1])}
    return None


def read(system: AnySystem, printed: PrintedList) -> Reading:
    reading = read_all(system, printed, figure)
    if any(read.status == "custom" for read in reading.reads):
        reading.lost.append(LOST)
    return reading


IMPORTS = ImportTraits(read=read, names=names)
