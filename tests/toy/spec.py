"""The toy as Caserne serves it: its engine, its pages, its traits for books, campaigns and
the table."""

from pathlib import Path
from typing import Any

from app.systems.base import AnySystem
from app.systems.books import BookTraits
from app.systems.campaign_traits import CampaignTraits, model_defaults
from app.systems.spec import SystemSpec

from . import ToySystem, build
from .importing import IMPORTS
from .models import ToyProfile
from .play import PLAY
from .web import ToyPages

HERE = Path(__file__).parent


def catalogue_figures(system: AnySystem) -> dict[str, dict[str, Any]]:
    """Each catalogue figure as the player's own: the same strength."""
    assert isinstance(system, ToySystem)
    return {u.id: {"name": u.name, "custom": {"strength": u.strength}} for u in system.data.units}


CAMPAIGN = CampaignTraits(
    profile_stats=("courage",),
    stat_defaults=model_defaults(ToyProfile),
    has_xp=True,
    catalogue_figures=catalogue_figures,
    score_template="campaign_score.html",
)

# data_dir, templates_dir: a system of app/systems/ keeps its data in data/systems/<id>/
# and its templates in templates/systems/<id>/, and omits them.
SPEC = SystemSpec(
    id="toy",
    build=build,
    pages=ToyPages,
    data_dir=HERE / "data",
    templates_dir=HERE / "templates",
    campaign=CAMPAIGN,
    play=PLAY,
    books=BookTraits(units_at="entries"),  # a book unit is an entry (its `custom` figure)
    imports=IMPORTS,  # how its printed lists are read back
)
