"""The toy as Caserne serves it: its engine only (no pages of its own: the generic editor
and share page serve it)."""

from pathlib import Path

from app.systems.spec import SystemSpec

from . import build
from .play import PLAY

# data_dir: a system of app/systems/ keeps its data in data/systems/<id>/ and omits it.
SPEC = SystemSpec(id="toy", build=build, data_dir=Path(__file__).parent / "data", play=PLAY)
