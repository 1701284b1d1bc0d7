"""Every calculator POST is taken by one plain route tried early (issue 29,
app/api/v1/systems.py `calculations_router`): it answers exactly as the documented routes
behind it do (they stay in the OpenAPI document), refusals included."""

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app import problems
from app.api.v1 import api_routers
from app.systems import registry
from app.systems.base import GameSystem
from app.web.render import html_error


def calculator_app(systems: dict[str, GameSystem], at_once: bool) -> FastAPI:
    (calculations, *routers), _stored, _bodies = api_routers(systems, registry.SPECS)
    app = FastAPI()
    problems.install(app, html_error)
    if at_once:
        app.include_router(calculations)
    for router in routers:
        app.include_router(router)
    return app


def requests(systems: dict[str, GameSystem]) -> list[tuple[str, str, Any]]:
    """(path, content type, body): every system's validate of each example and of a wrong
    body, its cost and score refused, the extensions' routes, and what no route takes."""
    out: list[tuple[str, str, Any]] = []
    json = "application/json"
    for system in systems.values():
        base = f"/api/v1/systems/{system.id}"
        out += [
            (f"{base}/validate", json, example.document) for example in system.example_rosters()
        ]
        out += [(f"{base}/validate", json, {"entries": "none"}), (f"{base}/cost", json, {})]
        out += [(f"{base}/score", json, {}), (f"{base}/validate", "text/plain", "{}")]
        out += [(f"{base}/catalogue", json, {}), (f"{base}/nowhere", json, {})]
    out += [
        ("/api/v1/systems/dcsystem/odds", json, {}),
        ("/api/v1/systems/nolimits/building", json, {}),
    ]
    out += [
        ("/api/v1/systems/bastos/odds", json, {}),
        ("/api/v1/systems/necrowarzone/shooting", json, {}),
    ]
    out += [
        ("/api/v1/systems/chess/validate", json, {}),
        ("/api/v1/systems/dcsystem/cost", json, "["),
    ]
    return out


def answer(client: TestClient, path: str, content_type: str, body: Any) -> tuple[Any, ...]:
    import json

    content = body if isinstance(body, str) else json.dumps(body)
    found = client.post(path, content=content, headers={"Content-Type": content_type})
    headers = {k: v for k, v in found.headers.items() if k in ("content-type", "allow")}
    return found.status_code, headers, found.content


def test_the_calculations_route_answers_as_the_routes_behind_it(
    systems: dict[str, GameSystem],
) -> None:
    asked = requests(systems)
    with (
        TestClient(calculator_app(systems, at_once=False)) as routes,
        TestClient(calculator_app(systems, at_once=True)) as at_once,
    ):
        expected = [answer(routes, *request) for request in asked]
        assert [answer(at_once, *request) for request in asked] == expected
    statuses = {status for status, _headers, _body in expected}
    assert {200, 404, 405, 415, 422} <= statuses
    assert sum(status == 200 for status, _headers, _body in expected) >= len(systems)


@pytest.mark.parametrize("path", ["/api/v1/systems/dcsystem/validate", "/api/v1/systems/x/y"])
def test_the_calculations_route_is_tried_before_the_others(app: FastAPI, path: str) -> None:
    from starlette.routing import Match

    scope = {"type": "http", "method": "POST", "path": path, "root_path": "", "headers": []}
    matched = [
        i for i, route in enumerate(app.router.routes) if route.matches(scope)[0] == Match.FULL
    ]
    assert matched and matched[0] <= 2  # the OpenAPI document's route, the site's, then it
