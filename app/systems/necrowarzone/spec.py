"""Necromunda–Warzone as Caserne serves it: the engine, its pages and its shooting helper,
and what its campaigns keep (XP L7-11, light wounds L78, each ganger apart)."""

from app.systems.books import BookTraits
from app.systems.campaign_traits import CampaignTraits, FigureStat, sample_figures
from app.systems.necrowarzone import build
from app.systems.necrowarzone.api import necrowarzone_router
from app.systems.necrowarzone.importing import IMPORTS
from app.systems.necrowarzone.models import CHARACTERISTICS
from app.systems.necrowarzone.play import PLAY
from app.systems.necrowarzone.web import NecrowarzonePages
from app.systems.spec import SystemSpec

SPEC = SystemSpec(
    id="necrowarzone",
    build=build,
    pages=NecrowarzonePages,
    api=necrowarzone_router,
    campaign=CampaignTraits(
        # The Necromunda profile, and « Blessure légère -1CC/-1CT/-1 Action » (L78).
        profile_stats=CHARACTERISTICS,
        figure_stats=(FigureStat("light_wounds", "BL", "Blessures légères"),),
        has_xp=True,
        # A sample figure a battle changes becomes the player's own, same numbers.
        catalogue_figures=sample_figures(lambda sample: sample.figure.model_dump(mode="json")),
        totals_template="campaign_totals.html",
        figures_apart=True,  # each ganger has his own XP and injuries
    ),
    play=PLAY,
    books=BookTraits(units_at="entries"),  # a book unit is an entry (its `custom` figure)
    imports=IMPORTS,
)
