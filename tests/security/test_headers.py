"""Security headers on every response (issue 10, finding 4)."""

import re

import pytest
from fastapi.testclient import TestClient

from app.security.headers import script_hashes
from tests.conftest import SYSTEMS
from tests.security.helpers import html_roster, new_roster


def csp(response: object) -> dict[str, str]:
    header: str = response.headers["content-security-policy"]  # type: ignore[attr-defined]
    return dict(
        [*part.strip().split(" ", 1), ""][:2]  # type: ignore[misc]
        for part in header.split(";")
        if part.strip()
    )


@pytest.mark.parametrize(
    "path",
    ["/", "/listes", "/dcsystem/catalogue", "/healthz", "/api/v1/systems", "/static/caserne.css",
     "/nowhere", "/openapi.json"],
)  # fmt: skip
def test_every_response_has_the_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "same-origin"
    policy = csp(response)
    assert policy["frame-ancestors"] == "'none'"
    assert policy["script-src"] == "'self'"
    assert "unsafe-inline" not in policy["script-src"] + policy["style-src"]
    assert policy["default-src"] == "'self'"


def test_errors_and_refusals_have_them_too(client: TestClient) -> None:
    for response in (
        client.post("/api/v1/systems/dcsystem/cost", content=b"x" * 2_000_000),  # 413
        client.get("/", headers={"Host": "evil.example"}),  # 400
        client.post("/r/x", headers={"Sec-Fetch-Site": "cross-site"}),  # 403
    ):
        assert response.headers["x-content-type-options"] == "nosniff", response.status_code
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_a_500_has_them(client: TestClient) -> None:
    @client.app.get("/boom")  # type: ignore[attr-defined]
    def boom() -> None:
        raise RuntimeError("boom")

    client.app.router.routes.insert(0, client.app.router.routes.pop())  # type: ignore[attr-defined]
    response = TestClient(client.app, raise_server_exceptions=False).get("/boom")  # type: ignore[arg-type]
    assert response.status_code == 500
    assert response.headers["x-frame-options"] == "DENY"


def test_no_referrer_where_a_token_can_be_in_the_url(client: TestClient) -> None:
    client.follow_redirects = False
    roster_id, token = new_roster(client)
    claim = client.get(f"/r/{roster_id}/modifier?t={token}", headers={"Sec-Fetch-Site": "none"})
    assert claim.status_code == 303
    assert claim.headers["referrer-policy"] == "no-referrer"
    wrong = client.get(f"/r/{roster_id}/modifier", params={"t": "wrong"})
    assert wrong.headers["referrer-policy"] == "no-referrer"
    for query in ("t=x", "%74=x", "T=x", "a=1&token=x", "x=1;t=y"):
        response = client.get(f"/?{query}")
        assert response.headers["referrer-policy"] == "no-referrer", query
    assert client.get("/?tt=1").headers["referrer-policy"] == "same-origin"


def test_the_editor_is_not_cached(client: TestClient) -> None:
    client.follow_redirects = False
    roster_id = html_roster(client)
    for response in (client.get(f"/r/{roster_id}"), client.get("/listes")):
        assert response.status_code == 200
        assert response.headers["cache-control"] == "private, no-store"
    saved = client.post(
        f"/r/{roster_id}", data={"name": "X"}, headers={"Sec-Fetch-Site": "same-origin"}
    )
    assert saved.headers["cache-control"] == "private, no-store"


def test_a_route_cache_control_wins(client: TestClient) -> None:
    roster_id, token = new_roster(client)
    code = client.post(
        f"/api/v1/rosters/{roster_id}/shares", headers={"Authorization": f"Bearer {token}"}
    ).json()["code"]
    assert client.get(f"/s/{code}").headers["cache-control"].startswith("public, max-age=")


def test_api_docs_allow_exactly_their_inline_script(client: TestClient) -> None:
    response = client.get("/api/docs")
    assert response.status_code == 200
    [inline] = re.findall(r"<script>(.*?)</script>", response.text, re.DOTALL)
    policy = csp(response)
    assert script_hashes(f"<script>{inline}</script>".encode()) in policy["script-src"]
    assert "unsafe-inline" not in policy["script-src"]
    assert policy["frame-ancestors"] == "'none'"


@pytest.mark.parametrize("system", SYSTEMS)
def test_pages_that_list_the_browsers_lists_are_private(client: TestClient, system: str) -> None:
    """Issue 13, finding 8: the catalogue and the creator offer « add to » the browser's
    own lists, and were sent with no Cache-Control (a shared cache could keep them)."""
    client.post("/listes", data={"system": system}, headers={"Sec-Fetch-Site": "same-origin"})
    for page in ("catalogue", "createur"):
        response = client.get(f"/{system}/{page}", headers={"Accept": "text/html"})
        if response.status_code == 404:  # a system without that page
            continue
        assert response.status_code == 200, page
        assert response.headers["cache-control"] == "private, no-store", (system, page)
    assert "private" not in client.get("/").headers.get("cache-control", "")
