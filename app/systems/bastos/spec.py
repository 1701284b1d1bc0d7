"""Pour quelques bastos de plus as Caserne serves it: the engine, its pages, its odds route."""

from app.systems.bastos import build
from app.systems.bastos.api import bastos_router
from app.systems.bastos.web import BastosPages
from app.systems.books import BookTraits
from app.systems.spec import SystemSpec

SPEC = SystemSpec(
    id="bastos",
    build=build,
    pages=BastosPages,
    api=bastos_router,
    books=BookTraits(units_at="entries"),  # a book unit is an entry (its `custom` figure)
)
