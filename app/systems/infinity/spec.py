"""Infinity as Caserne serves it: the engine and its pages (no API extension, no score)."""

from app.systems.books import BookTraits
from app.systems.infinity import build
from app.systems.infinity.importing import IMPORTS
from app.systems.infinity.web import InfinityPages
from app.systems.play_traits import FigureState, PlayTraits
from app.systems.spec import SystemSpec

# L128-132: unconscious, dead.
PLAY = PlayTraits(
    states=(FigureState("Normal"), FigureState("Inconscient"), FigureState("Mort", out=True))
)

SPEC = SystemSpec(
    id="infinity",
    build=build,
    pages=InfinityPages,
    play=PLAY,
    books=BookTraits(units_at="extras.units"),
    imports=IMPORTS,
)
