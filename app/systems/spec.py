"""What a game system brings to Caserne: its engine, and optionally its pages and API routes.

A system is one package `app/systems/<id>/` whose `spec.py` holds a `SPEC`; registering it
is one line in `app/systems/registry.py`. See docs/systems.md for the package shape.
"""

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from app.settings import ROOT
from app.systems.base import AnySystem
from app.systems.books import BookTraits
from app.systems.campaign_traits import CampaignTraits
from app.systems.import_traits import ImportTraits
from app.systems.play_traits import PlayTraits

if TYPE_CHECKING:
    from fastapi import APIRouter

    from app.web.system_pages import SystemPages

DATA_DIR = ROOT / "data" / "systems"
TEMPLATES_DIR = ROOT / "templates"

# The engine from the system's catalogue data, or every problem found in that data.
Builder = Callable[[dict[str, Any]], AnySystem | list[str]]
# Routes only this system has (under /api/v1/systems/<id>/), and the request bodies they
# parse themselves (documented by reference in the OpenAPI document).
ApiExtension = Callable[[Any], "tuple[APIRouter, list[type[BaseModel]]]"]


@dataclass(frozen=True)
class SystemSpec:
    """One registered game system.

    `pages`: the class serving its pages under /<id>/ (catalogue, creator, score helper,
    the fields the roster editor adds); None serves it through the generic editor and
    share page only. `api`: its own API routes, if any. Its data is read from `data_dir`
    (default data/systems/<id>/), its templates from `templates_dir` (default
    templates/systems/<id>/; the pages name them « systems/<id>/<file> » either way).
    `campaign`: what campaigns need of it (app/systems/campaign_traits.py), if anything."""

    id: str
    build: Builder
    pages: "type[SystemPages[Any]] | None" = None
    api: ApiExtension | None = None
    data_dir: Path | None = None
    templates_dir: Path | None = None
    campaign: CampaignTraits | None = None
    # What the play sheet and the mode partie need of it (app/systems/play_traits.py);
    # None: they show the cards alone.
    play: PlayTraits | None = None
    # Where its lists keep a unit drawn from an army book (app/systems/books.py
    # `BookTraits`); None: as entries of their own (docs/systems.md « Army books »).
    books: BookTraits | None = None
    # How the list import reads its printed lists back (app/systems/import_traits.py);
    # None: its lists are imported from JSON and share links only.
    imports: ImportTraits | None = None

    @property
    def data(self) -> Path:
        return self.data_dir or DATA_DIR / self.id

    @property
    def templates(self) -> Path:
        return self.templates_dir or TEMPLATES_DIR / "systems" / self.id


def spec_of(system_id: str) -> SystemSpec:
    """The `SPEC` of app/systems/<system_id>/spec.py (what a registry line names)."""
    spec = import_module(f"app.systems.{system_id}.spec").SPEC
    if not isinstance(spec, SystemSpec) or spec.id != system_id:
        raise TypeError(f"app.systems.{system_id}.spec.SPEC is not the spec of {system_id!r}")
    return spec
