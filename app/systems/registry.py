"""Game systems by id. Registering a system is one line in `SPECS` (docs/systems.md).

CASERNE_EXTRA_SYSTEMS names more modules holding a `SPEC`, separated by commas (the test
suite registers a system of its own this way: tests/conftest.py)."""

import os
from importlib import import_module

from app.systems.spec import SystemSpec, spec_of


def extra_specs(modules: str) -> tuple[SystemSpec, ...]:
    """The `SPEC` of each module named in `modules` (comma-separated)."""
    specs = []
    for name in filter(None, (part.strip() for part in modules.split(","))):
        spec = import_module(name).SPEC
        if not isinstance(spec, SystemSpec):
            raise TypeError(f"{name}.SPEC is not a SystemSpec")
        specs.append(spec)
    return tuple(specs)


SPECS: tuple[SystemSpec, ...] = (
    spec_of("dcsystem"),
    spec_of("nolimits"),
    spec_of("infinity"),
    spec_of("bastos"),
    spec_of("necrowarzone"),
    *extra_specs(os.environ.get("CASERNE_EXTRA_SYSTEMS", "")),
)


def registered(system_id: str) -> SystemSpec | None:
    """The registered spec of `system_id`, if any (read from `SPECS` at each call)."""
    return next((spec for spec in SPECS if spec.id == system_id), None)
