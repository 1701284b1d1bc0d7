"""Necromunda–Warzone as Caserne serves it: the engine, its pages and its shooting helper."""

from app.systems.books import BookTraits
from app.systems.necrowarzone import build
from app.systems.necrowarzone.api import necrowarzone_router
from app.systems.necrowarzone.web import NecrowarzonePages
from app.systems.spec import SystemSpec

SPEC = SystemSpec(
    id="necrowarzone",
    build=build,
    pages=NecrowarzonePages,
    api=necrowarzone_router,
    figures_apart=True,  # each ganger has his own XP and injuries
    books=BookTraits(units_at="entries"),  # a book unit is an entry (its `custom` figure)
)
