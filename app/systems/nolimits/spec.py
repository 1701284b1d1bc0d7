"""No Limits as Caserne serves it: the engine, its pages and its building calculator route;
its campaigns change a unit's profile and count its victory points."""

from app.systems.books import BookTraits
from app.systems.campaign_traits import CampaignTraits
from app.systems.nolimits import build
from app.systems.nolimits.api import nolimits_router
from app.systems.nolimits.importing import IMPORTS
from app.systems.nolimits.models import CHARACTERISTICS
from app.systems.nolimits.play import PLAY
from app.systems.nolimits.web import NolimitsPages
from app.systems.spec import SystemSpec

SPEC = SystemSpec(
    id="nolimits",
    build=build,
    pages=NolimitsPages,
    api=nolimits_router,
    campaign=CampaignTraits(profile_stats=CHARACTERISTICS, score_template="campaign_score.html"),
    play=PLAY,
    books=BookTraits(units_at="entries"),  # a book unit is an entry (its `custom` unit)
    imports=IMPORTS,
)
