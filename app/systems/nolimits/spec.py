"""No Limits as Caserne serves it: the engine, its pages and its building calculator route."""

from app.systems.nolimits import build
from app.systems.nolimits.api import nolimits_router
from app.systems.nolimits.play import PLAY
from app.systems.nolimits.web import NolimitsPages
from app.systems.spec import SystemSpec

SPEC = SystemSpec(id="nolimits", build=build, pages=NolimitsPages, api=nolimits_router, play=PLAY)
