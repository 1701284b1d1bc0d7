"""Game systems by id. Registering a system is one line in `SPECS` (docs/systems.md)."""

from app.systems.spec import SystemSpec, spec_of

SPECS: tuple[SystemSpec, ...] = (
    spec_of("dcsystem"),
    spec_of("nolimits"),
    spec_of("infinity"),
    spec_of("bastos"),
    spec_of("necrowarzone"),
)


def registered(system_id: str) -> SystemSpec | None:
    """The registered spec of `system_id`, if any (read from `SPECS` at each call)."""
    return next((spec for spec in SPECS if spec.id == system_id), None)
