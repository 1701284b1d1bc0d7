"""Pour quelques bastos de plus as Caserne serves it: the engine, its pages, its odds route,
and its campaigns' Rep (« Chaque figurine possède une réputation », L11)."""

from app.systems.bastos import build
from app.systems.bastos.api import bastos_router
from app.systems.bastos.importing import IMPORTS
from app.systems.bastos.web import BastosPages
from app.systems.books import BookTraits
from app.systems.campaign_traits import CampaignTraits, sample_figures
from app.systems.play_traits import FigureState, PlayTraits
from app.systems.spec import SystemSpec

# What makes a sample figure the player's own (its sheet is a function of these).
FIGURE_FIELDS = ("rep", "leader", "star", "weapon")

# L370-382: stunned, out of the fight, dead.
PLAY = PlayTraits(
    states=(
        FigureState("En forme"),
        FigureState("Sonné"),
        FigureState("Hors de Combat", out=True),
        FigureState("Raide Mort", out=True),
    )
)


SPEC = SystemSpec(
    id="bastos",
    build=build,
    pages=BastosPages,
    api=bastos_router,
    campaign=CampaignTraits(
        has_rep=True,
        catalogue_figures=sample_figures(lambda s: {k: getattr(s, k) for k in FIGURE_FIELDS}),
        totals_template="campaign_totals.html",
    ),
    play=PLAY,
    books=BookTraits(units_at="entries"),  # a book unit is an entry (its `custom` figure)
    imports=IMPORTS,
)
