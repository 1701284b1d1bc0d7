"""Every unsafe route of the app is counted by a limit, or stores nothing (issue 25, item 3:
18 POST routes were counted by none). The tests walk the real app's routes, not a list of
ours: a route added later that is neither in app/security/routes.py ROUTES nor in COMPUTE_ONLY fails
them, and every counted route meets 429 past its limit."""

import json
import re
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.security.ratelimit import Limits
from app.security.routes import COMPUTE_ONLY, ROUTES, Route, counted
from tests.api.test_campaigns import campaign_of, orlocks, stored
from tests.api.test_carnets import make_carnet
from tests.security.test_ratelimit import ADDRESS, from_addresses
from tests.web.test_routes import routes_in_order, sample_path

SAFE = {"GET", "HEAD", "OPTIONS"}
SAME = {"Sec-Fetch-Site": "same-origin"}
NO_LIMITS = {f"rate_limit_{kind.name}": "" for kind in fields(Limits)}


def unsafe_routes(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path template) of every route of the app that is not a read."""
    found = {
        (method, path_format)
        for _index, path_format, _regex, methods in routes_in_order(app)
        for method in methods - SAFE
    }
    return sorted(found, key=lambda found: (found[1], found[0]))


def counting(method: str, path: str, table: tuple[Route, ...] = ROUTES) -> list[Route]:
    return [route for route in table if route.method == method and route.path.fullmatch(path)]


def test_every_unsafe_route_is_counted_or_computes_only(app: FastAPI) -> None:
    routes = unsafe_routes(app)
    assert len(routes) >= 70  # every router was seen (79 on 4 December 2026)
    uncounted = [
        f"{method} {path}"
        for method, path in routes
        if not counting(method, sample_path(path))
        and not counting(method, sample_path(path), COMPUTE_ONLY)
    ]
    assert uncounted == [], "add these routes to app/security/routes.py's ROUTES"
    both = [
        f"{method} {path}"
        for method, path in routes
        if counting(method, sample_path(path)) and counting(method, sample_path(path), COMPUTE_ONLY)
    ]
    assert both == []


def test_the_middleware_finds_the_routes_a_request_counts_against(app: FastAPI) -> None:
    """`counted` (one pattern per method first, issue 29) finds what a match of every route
    of the table finds, in the table's order, for every route of the app."""
    requests = [
        (method, sample_path(path_format))
        for _index, path_format, _regex, methods in routes_in_order(app)
        for method in methods
    ]
    requests += [("POST", "/r/x/nombres/autre"), ("PATCH", "/r/x"), ("POST", "/")]
    assert len(requests) >= 100
    assert sum(bool(counting(method, path)) for method, path in requests) >= 60
    for method, path in requests:
        assert counted(method, path) == counting(method, path), (method, path)


def test_every_row_of_the_table_is_a_route_of_the_app(app: FastAPI) -> None:
    """No stale row: each names at least one route (a renamed route would leave the new
    path uncounted and the old row counting nothing)."""
    samples = [(method, sample_path(path)) for method, path in unsafe_routes(app)]
    for route in (*ROUTES, *COMPUTE_ONLY):
        assert any(
            method == route.method and route.path.fullmatch(path) for method, path in samples
        ), route


def test_the_readme_table_names_every_counted_route() -> None:
    from app.settings import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("<!-- limits table -->", 2)[1]
    for route in ROUTES:
        row = re.search(rf"^ *\| `{route.kind}` \|.*$", table, re.MULTILINE)
        assert row, route.kind
        assert f"`{route.method} {route.template}`" in row[0], route


def one_request(client: TestClient, method: str, path: str, route: Route, n: int) -> Any:
    headers = {**SAME, ADDRESS: f"203.0.113.{n}"}
    data = {"action": route.action} if route.action else {"x": "1"}
    return client.request(method, path, data=data, headers=headers)


@pytest.mark.parametrize("kind", sorted({route.kind for route in ROUTES}))
def test_each_counted_route_meets_429_past_its_limit(
    make_client: Callable[..., TestClient], app: FastAPI, kind: str
) -> None:
    """For each kind, its limit at 1 a minute and the others off: on every route of the app
    that kind counts, from an address of its own, the second request is refused."""
    client = make_client(wrap=from_addresses, **{**NO_LIMITS, f"rate_limit_{kind}": "1/minute"})
    met = []
    for n, (method, path_format) in enumerate(unsafe_routes(app)):
        path = sample_path(path_format)
        for route in counting(method, path):
            if route.kind != kind:
                continue
            first = one_request(client, method, path, route, n)
            assert first.status_code != 429, (method, path_format, first.text)
            second = one_request(client, method, path, route, n)
            assert second.status_code == 429, (method, path_format, second.status_code)
            assert 1 <= int(second.headers["retry-after"]) <= 60
            met.append(f"{method} {path_format}")
    assert met, kind


# Wrong secrets: each is a failed check, counted per client (20/minute by default).
def failed_checks(
    make_client: Callable[..., TestClient], attempt: Callable[[TestClient, int], Any]
) -> list[int]:
    client = make_client(rate_limit_failed_auth="3/minute", wrap=from_addresses)
    return [attempt(client, n).status_code for n in range(5)]


def test_wrong_join_codes_on_the_page(make_client: Callable[..., TestClient]) -> None:
    def attempt(client: TestClient, n: int) -> Any:
        if n == 0:
            attempt.campaign = campaign_of(client)  # type: ignore[attr-defined]
            attempt.gang = stored(client, orlocks())  # type: ignore[attr-defined]
        campaign = attempt.campaign  # type: ignore[attr-defined]
        return client.post(
            f"/c/{campaign['id']}/rejoindre",
            data={"code": f"faux{n}", "roster": attempt.gang["id"]},  # type: ignore[attr-defined]
            headers={**SAME, ADDRESS: "203.0.113.9"},
        )

    assert failed_checks(make_client, attempt) == [403, 403, 403, 429, 429]


def test_wrong_join_codes_and_edit_tokens_on_the_api(
    make_client: Callable[..., TestClient],
) -> None:
    """The probe's: 30 joins with wrong edit tokens were 30 × 403, never 429."""
    client = make_client(wrap=from_addresses)
    campaign = campaign_of(client)
    gang = stored(client, orlocks())
    url = f"/api/v1/campaigns/{campaign['id']}/gangs"
    statuses = []
    for n in range(30):
        body = {"roster": gang["id"], "edit_token": f"wrong{n}", "join_code": campaign["join_code"]}
        statuses.append(client.post(url, json=body, headers={ADDRESS: "203.0.113.7"}).status_code)
    assert statuses == [403] * 20 + [429] * 10
    wrong_code = {"roster": gang["id"], "edit_token": gang["edit_token"], "join_code": "x"}
    assert client.post(url, json=wrong_code, headers={ADDRESS: "203.0.113.8"}).status_code == 403


def test_a_wrong_carnet_key_in_a_form_body(make_client: Callable[..., TestClient]) -> None:
    """The carnet link's form (POST /carnet/{id}) sends the key as `t` in its body."""

    def attempt(client: TestClient, n: int) -> Any:
        if n == 0:
            attempt.carnet = make_carnet(client)  # type: ignore[attr-defined]
        return client.post(
            f"/carnet/{attempt.carnet['id']}",  # type: ignore[attr-defined]
            data={"t": f"wrong{n}", "choix": "changer"},
            headers={**SAME, ADDRESS: "203.0.113.9"},
        )

    assert failed_checks(make_client, attempt) == [403, 403, 403, 429, 429]


def test_a_wrong_carnet_key_on_campaign_creation(make_client: Callable[..., TestClient]) -> None:
    def attempt(client: TestClient, n: int) -> Any:
        return client.post(
            "/api/v1/campaigns",
            json={"system": "necrowarzone", "name": "La Ruche"},
            headers={"Authorization": f"Bearer wrong{n}", ADDRESS: "203.0.113.9"},
        )

    assert failed_checks(make_client, attempt) == [403, 403, 403, 429, 429]


def test_campaign_creation_is_counted(make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limit_create="2/minute")
    body = {"system": "necrowarzone", "name": "La Ruche"}
    assert [client.post("/api/v1/campaigns", json=body).status_code for _ in range(3)] == [
        201,
        201,
        429,
    ]


def big_book(client: TestClient) -> str:
    """A published book of ~440 KB (200 units, each with a 2,000-character text): its code."""
    from tests.api.test_books import BOOK, create_book, publish

    units = [
        {**BOOK["units"][0], "id": f"unite_{n}", "name": f"Unité {n}", "text": "x" * 2000}
        for n in range(200)
    ]
    created = create_book(client, {**BOOK, "units": units})
    published = publish(client, created)
    assert published.status_code == 201, published.text
    return str(published.json()["code"])


def test_copies_of_a_big_book_spend_the_byte_budget(
    make_client: Callable[..., TestClient],
) -> None:
    """The probe's: empty POSTs to /a/{code}/dupliquer of a ~500 KB book each stored ~490 KB,
    counted by no limit. Copies are now `create` requests, and what they store is charged
    to the client's `stored` budget (here 800 KiB a minute, the create limit off). The book
    is ~425 KB of JSON; its published version is stored compressed since revision 0008
    (~3 KB, issue 29), so the budget is the book, its version and one copy."""
    client = make_client(rate_limit_create="", rate_limit_stored="800/minute")
    code = big_book(client)  # the API's own writes are charged too (book, then its share)
    copies = [client.post(f"/a/{code}/dupliquer", headers=SAME).status_code for _ in range(4)]
    assert copies == [303, 429, 429, 429]
    refused = client.post(f"/a/{code}/dupliquer", headers={**SAME, "Accept": "text/html"})
    assert "Trop de requêtes" in refused.text


def test_a_roster_save_is_charged_what_it_stores(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save gives the database the document as JSON text (app/store/rosters.py), not
    through the engine's serializer: it is counted all the same (160 bytes were, the card)."""
    from app.security import ratelimit

    charged: list[int] = []
    charge = ratelimit.RateLimits._charge_stored

    async def spy(self: ratelimit.RateLimits, client: str, written: int) -> None:
        charged.append(written)
        await charge(self, client, written)

    monkeypatch.setattr(ratelimit.RateLimits, "_charge_stored", spy)
    client = make_client()
    document = {"system": "dcsystem", "name": "x", "entries": [{"unit": "jaffa", "count": 2}] * 50}
    created = client.post("/api/v1/rosters", json=document).json()
    charged.clear()
    headers = {"Authorization": f"Bearer {created['edit_token']}", "If-Match": "1"}
    saved = client.put(f"/api/v1/rosters/{created['id']}", json=document, headers=headers)
    assert saved.status_code == 200
    stored = client.get(f"/api/v1/rosters/{created['id']}", headers=headers).json()
    entries = len(json.dumps(stored["roster"]["entries"], ensure_ascii=False))
    assert entries < charged[0] < entries + 2000, (entries, charged)
