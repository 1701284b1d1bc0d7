"""All HTML routes: home, the per-system pages, rosters and shares."""

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter, Request, Response

from app.systems.base import AnySystem
from app.systems.spec import SystemSpec
from app.web import book_pages, books, campaigns, library, play, rosters, shares
from app.web.render import render
from app.web.system_pages import SystemPages


def system_pages(
    systems: Mapping[str, AnySystem], specs: Sequence[SystemSpec]
) -> dict[str, SystemPages[Any]]:
    """Each system's pages: its spec's, or the generic editor's fields alone."""
    pages_of = {spec.id: spec.pages for spec in specs}
    return {
        system_id: (pages_of.get(system_id) or SystemPages)(system)
        for system_id, system in systems.items()
    }


def routers(
    systems: Mapping[str, AnySystem], specs: Sequence[SystemSpec]
) -> tuple[APIRouter, APIRouter, list[APIRouter]]:
    """The share page's router, the list editor's, and the others; included side by side,
    as nesting routers slows every match."""
    router = APIRouter(include_in_schema=False)
    pages = system_pages(systems, specs)

    @router.get("/")
    def home(request: Request) -> Response:
        return render(
            request,
            "home.html",
            {
                "systems": list(systems.values()),
                "pages": pages,
                "examples": {s.id: s.example_rosters() for s in systems.values()},
            },
        )

    @router.get("/hors-ligne")
    def offline(request: Request) -> Response:
        """What the service worker shows offline for a page it did not keep (static/sw.js,
        docs/offline.md): public, the same for everyone, kept at its install."""
        response = render(request, "offline.html", {})
        response.headers["Cache-Control"] = "no-cache"
        return response

    return (
        shares.router(),
        rosters.router(dict(systems), pages),
        [
            router,
            play.router,
            *(system_page.router() for system_page in pages.values()),
            library.router(systems),
            books.router(),
            book_pages.router(systems, pages),
            campaigns.router,
        ],
    )
