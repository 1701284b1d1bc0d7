"""All HTML routes, included in one place: home, the per-system pages, lists, books, shares.

Each page module holds a module-level `router` (as full-stack-fastapi-template's
app/api/routes/*.py); a system's own pages come from its `SystemPages`. `routers()` gives
them to create_app in the order it includes them."""

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter, Request, Response

from app.systems.base import AnySystem
from app.systems.spec import SystemSpec
from app.web import (
    book_edits,
    book_pages,
    book_panels,
    books,
    campaigns,
    carnet_file_pages,
    carnet_pages,
    counts,
    editor,
    history_pages,
    imports,
    library,
    list_links,
    new_list,
    play,
    shares,
)
from app.web.render import render
from app.web.system_pages import SystemPages, pages_of
from app.web.toolkit import systems_of

router = APIRouter(include_in_schema=False)


def system_pages(
    systems: Mapping[str, AnySystem], specs: Sequence[SystemSpec]
) -> dict[str, SystemPages[Any]]:
    """Each system's pages: its spec's, or the generic editor's fields alone."""
    pages_of = {spec.id: spec.pages for spec in specs}
    return {
        system_id: (pages_of.get(system_id) or SystemPages)(system)
        for system_id, system in systems.items()
    }


@router.get("/")
def home(request: Request) -> Response:
    systems = systems_of(request)
    return render(
        request,
        "home.html",
        {
            "systems": list(systems.values()),
            "pages": pages_of(request),
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


def routers(
    pages: Mapping[str, SystemPages[Any]],
) -> tuple[APIRouter, list[APIRouter], list[APIRouter]]:
    """The share page's router, the list editor's two saves (a count change, the whole form),
    and the others; included side by side, as nesting routers slows every match. `pages`:
    each system's (`system_pages()`), also kept on app.state for the routes (`pages_of`)."""
    return (
        shares.router,
        [counts.router, editor.router],
        [
            # A club's public pages (standings, gang pages) first: forum visitors read them.
            campaigns.router,
            book_panels.router,
            list_links.router,
            router,
            play.router,
            history_pages.router,
            *(system_page.router() for system_page in pages.values()),
            library.router,
            imports.router,
            carnet_pages.router,
            carnet_file_pages.router,
            new_list.router,
            books.router,
            book_pages.router,
            book_edits.router,
        ],
    )
