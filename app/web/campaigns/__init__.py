"""Campaign pages: a gang's (« Après la bataille », its public page, the « Rapport de
bataille » BBCode) and a club's campaign (creation, standings, joining). Every route is
one of the module-level routers below, gathered in `router`."""

from fastapi import APIRouter

from app.web.campaigns import gang, standings

router = APIRouter(include_in_schema=False)
router.include_router(gang.router)
router.include_router(standings.router)
