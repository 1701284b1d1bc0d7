"""Game systems by id. Registering a system is one line in `BUILDERS`."""

from collections.abc import Callable
from typing import Any

from app.systems import dcsystem, nolimits
from app.systems.base import GameSystem

Builder = Callable[[dict[str, Any]], "GameSystem | list[str]"]

# id -> function that builds the engine from its catalogue data (or lists what is wrong).
BUILDERS: dict[str, Builder] = {
    "dcsystem": dcsystem.build,
    "nolimits": nolimits.build,
}
