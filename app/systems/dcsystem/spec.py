"""DCSystem as Caserne serves it: the engine and its pages (no API extension)."""

from app.systems.dcsystem import build
from app.systems.dcsystem.web import DcsystemPages
from app.systems.spec import SystemSpec

SPEC = SystemSpec(id="dcsystem", build=build, pages=DcsystemPages)
