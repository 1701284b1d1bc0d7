"""Pour quelques bastos de plus as Caserne serves it: the engine, its pages, its odds route."""

from app.systems.bastos import build
from app.systems.bastos.api import bastos_router
from app.systems.bastos.web import BastosPages
from app.systems.play_traits import FigureState, PlayTraits
from app.systems.spec import SystemSpec

# L370-382: stunned, out of the fight, dead.
PLAY = PlayTraits(
    states=(
        FigureState("En forme"),
        FigureState("Sonné"),
        FigureState("Hors de Combat", out=True),
        FigureState("Raide Mort", out=True),
    )
)

SPEC = SystemSpec(id="bastos", build=build, pages=BastosPages, api=bastos_router, play=PLAY)
