"""No Limits as Caserne serves it: the engine, its pages and its building calculator route."""

from app.systems.books import BookTraits
from app.systems.nolimits import build
from app.systems.nolimits.api import nolimits_router
from app.systems.nolimits.web import NolimitsPages
from app.systems.spec import SystemSpec

SPEC = SystemSpec(
    id="nolimits",
    build=build,
    pages=NolimitsPages,
    api=nolimits_router,
    books=BookTraits(units_at="entries"),  # a book unit is an entry (its `custom` unit)
)
