"""Game systems by id. Registering a system is one line in `SPECS` (docs/systems.md)."""

from app.systems.bastos.spec import SPEC as BASTOS
from app.systems.dcsystem.spec import SPEC as DCSYSTEM
from app.systems.infinity.spec import SPEC as INFINITY
from app.systems.necrowarzone.spec import SPEC as NECROWARZONE
from app.systems.nolimits.spec import SPEC as NOLIMITS
from app.systems.spec import SystemSpec

SPECS: tuple[SystemSpec, ...] = (
    DCSYSTEM,
    NOLIMITS,
    INFINITY,
    BASTOS,
    NECROWARZONE,
)
