"""Infinity as Caserne serves it: the engine and its pages (no API extension, no score)."""

from app.systems.books import BookTraits
from app.systems.infinity import build
from app.systems.infinity.web import InfinityPages
from app.systems.spec import SystemSpec

SPEC = SystemSpec(
    id="infinity",
    build=build,
    pages=InfinityPages,
    # A book unit is a trooper of the list's `extras.units`; entries name one of its options.
    books=BookTraits(units_at="extras.units"),
)
