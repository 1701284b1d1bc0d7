"""Infinity as Caserne serves it: the engine and its pages (no API extension, no score)."""

from app.systems.infinity import build
from app.systems.infinity.web import InfinityPages
from app.systems.spec import SystemSpec

SPEC = SystemSpec(id="infinity", build=build, pages=InfinityPages)
