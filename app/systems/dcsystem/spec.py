"""DCSystem as Caserne serves it: the engine, its pages, and its odds route; its campaigns
count the E.3 score."""

from app.systems.books import BookTraits
from app.systems.campaign_traits import CampaignTraits
from app.systems.dcsystem import build
from app.systems.dcsystem.api import dcsystem_router
from app.systems.dcsystem.importing import IMPORTS
from app.systems.dcsystem.play import PLAY
from app.systems.dcsystem.web import DcsystemPages
from app.systems.spec import SystemSpec

SPEC = SystemSpec(
    id="dcsystem",
    build=build,
    pages=DcsystemPages,
    api=dcsystem_router,
    campaign=CampaignTraits(score_template="campaign_score.html"),
    play=PLAY,
    books=BookTraits(units_at="entries"),  # a book unit is an entry (its `custom` fighter)
    imports=IMPORTS,
)
