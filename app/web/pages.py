"""All HTML routes: home, the per-system pages, rosters and shares."""

from typing import Any

from fastapi import APIRouter, Request, Response

from app.systems.base import GameSystem
from app.systems.dcsystem import DcSystem
from app.web import rosters, shares
from app.web.dcsystem import DcsystemPages
from app.web.render import render


def system_pages(systems: dict[str, GameSystem]) -> dict[str, Any]:
    """Each registered system's pages; a system without pages gets none (API only)."""
    pages: dict[str, Any] = {}
    for system in systems.values():
        if isinstance(system, DcSystem):
            pages[system.id] = DcsystemPages(system)
    return pages


def routers(systems: dict[str, GameSystem]) -> list[APIRouter]:
    """The HTML routers, to include side by side (nesting routers slows every match)."""
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

    return [
        shares.router(),
        router,
        *(system_page.router() for system_page in pages.values()),
        rosters.router(systems, pages),
    ]
