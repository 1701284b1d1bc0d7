"""The app includes its routers hottest first (app/main.py: the share page, the calculator
API, the list editor, then the rest), because FastAPI tries routes in turn (issue 19: a
count save passed 93 routes, 0.3 ms, before its own). That order may change no answer:
routes of two different routers never match the same path and method, except the
calculator's catch-all, which comes after the routes it stands behind."""

import re
from typing import Any

from fastapi import FastAPI

from app.api.v1.systems import CALCULATION

# GET/POST /api/v1/systems/{system_id}/{rest}: 404 or 405 for what no calculator route
# takes (app/api/v1/systems.py); every system's own routes come before it.
CATCH_ALL = "/api/v1/systems/{system_id}/{rest}"


def routes_in_order(app: FastAPI) -> list[tuple[int, str, Any, set[str]]]:
    """(index of its router in the app, path format, path regex, methods) of every route
    that has a path and methods, in matching order."""
    found = []
    for index, route in enumerate(app.router.routes):
        inner = (
            list(route.effective_route_contexts())
            if hasattr(route, "effective_route_contexts")
            else [route]
        )
        for context in inner:
            target = getattr(context, "starlette_route", None) or context
            regex, methods = getattr(target, "path_regex", None), getattr(target, "methods", None)
            if regex is not None and methods:
                found.append((index, target.path_format, regex, set(methods)))
    return found


def sample_path(path_format: str) -> str:
    """A path that `path_format` matches: its parameters filled in."""
    return re.sub(r"\{[^}]+\}", "x1", path_format)


def cross_router_overlaps(app: FastAPI) -> list[tuple[str, str]]:
    routes = routes_in_order(app)
    overlaps = []
    for index, path_format, _regex, methods in routes:
        sample = sample_path(path_format)
        for other_index, other_format, other_regex, other_methods in routes:
            if other_index == index or not methods & other_methods:
                continue
            # The catch-all refuses what no calculator route takes; the calculations route
            # takes every calculator POST first (tests/api/test_calculations_route.py).
            if other_regex.match(sample) and other_format not in (CATCH_ALL, CALCULATION):
                overlaps.append((path_format, other_format))
    return overlaps


def test_no_two_routers_answer_the_same_path_and_method(app: FastAPI) -> None:
    routes = routes_in_order(app)
    assert len(routes) > 100  # every router was seen (133 routes on 3 December 2026)
    assert cross_router_overlaps(app) == []


def test_the_catch_all_comes_after_every_calculator_route(app: FastAPI) -> None:
    routes = routes_in_order(app)
    position = [i for i, (_, path, _, _) in enumerate(routes) if path == CATCH_ALL]
    assert len(position) == 1
    under = [i for i, (_, path, _, _) in enumerate(routes) if path.startswith("/api/v1/systems/")]
    assert max(under) == position[0]


def test_the_check_sees_an_overlap(app: FastAPI) -> None:
    """The check itself: a page route added in another router, on the editor's path."""
    from fastapi import APIRouter

    extra = APIRouter()

    @extra.post("/r/{other}/nombres")
    def shadow() -> None:  # pragma: no cover - never called
        return None

    app.include_router(extra)
    assert ("/r/{roster_id}/nombres", "/r/{other}/nombres") in cross_router_overlaps(app)


def test_the_editor_comes_right_after_the_calculator(app: FastAPI) -> None:
    """A count save is matched after the share page's and the calculator's routes only."""
    routes = routes_in_order(app)
    first = next(i for i, (_, path, _, _) in enumerate(routes) if path == "/r/{roster_id}/nombres")
    before = {path.split("/")[1] for _, path, _, _ in routes[:first]}
    assert before <= {
        "openapi.json",
        "api",
        "sw.js",
        "manifest.webmanifest",
        "healthz",
        "s",
        "listes",
        "r",
    }
