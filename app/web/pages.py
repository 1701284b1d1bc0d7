"""All HTML routes: home, the per-system pages, rosters and shares."""

from fastapi import APIRouter, Request, Response

from app.systems.base import GameSystem
from app.web import rosters, shares
from app.web.dcsystem import DcsystemPages
from app.web.nolimits import NolimitsPages
from app.web.render import render
from app.web.system_pages import SystemPages

# System id -> its pages. A registered system without pages is served by the API only.
PAGES: dict[str, type[SystemPages]] = {
    "dcsystem": DcsystemPages,
    "nolimits": NolimitsPages,
}


def system_pages(systems: dict[str, GameSystem]) -> dict[str, SystemPages]:
    return {s.id: PAGES[s.id](s) for s in systems.values() if s.id in PAGES}


def routers(systems: dict[str, GameSystem]) -> tuple[APIRouter, list[APIRouter]]:
    """The share page's router, and the others; included side by side, as nesting routers
    slows every match."""
    router = APIRouter(include_in_schema=False)
    pages = system_pages(systems)

    @router.get("/")
    def home(request: Request) -> Response:
        return render(
            request,
            "home.html",
            {
                "systems": [s for s in systems.values() if s.id in pages],
                "examples": {s.id: s.example_rosters() for s in systems.values()},
            },
        )

    return shares.router(), [
        router,
        *(system_page.router() for system_page in pages.values()),
        rosters.router(systems, pages),
    ]
