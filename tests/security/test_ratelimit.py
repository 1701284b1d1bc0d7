"""Rate limits: 429 + Retry-After + a problem once over a limit (issue 10, finding 1)."""

import html
import os
import secrets
from collections.abc import Callable

import pytest
import redis
from fastapi.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from tests.security.helpers import html_roster, new_roster

REDIS_URL = os.environ.get("CASERNE_TEST_REDIS", "redis://127.0.0.1:6379/0")
SAME = {"Sec-Fetch-Site": "same-origin"}


def redis_available() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=0.5).ping())
    except redis.RedisError:
        return False


@pytest.fixture(params=["memory", "redis"])
def storage(request: pytest.FixtureRequest) -> dict[str, str]:
    """Settings naming a storage; Redis counters under a prefix of this test's own."""
    if request.param == "memory":
        return {"rate_limit_storage": "memory://"}
    if not redis_available():
        pytest.skip(f"no Redis server at {REDIS_URL}")
    return {
        "rate_limit_storage": REDIS_URL,
        "rate_limit_key_prefix": f"caserne-test-{secrets.token_hex(6)}",
    }


def assert_limited(response: object) -> None:
    assert response.status_code == 429  # type: ignore[attr-defined]
    retry_after = int(response.headers["retry-after"])  # type: ignore[attr-defined]
    assert 1 <= retry_after <= 60
    problem = response.json()  # type: ignore[attr-defined]
    assert response.headers["content-type"] == "application/problem+json"  # type: ignore[attr-defined]
    assert problem["status"] == 429 and problem["title"] == "Too Many Requests"
    assert problem["errors"][0]["code"] == "rate_limited"


def test_roster_creation(make_client: Callable[..., TestClient], storage: dict[str, str]) -> None:
    client = make_client(rate_limit_create="3/minute", **storage)
    body = {"system": "dcsystem", "name": "x"}
    assert [client.post("/api/v1/rosters", json=body).status_code for _ in range(3)] == [201] * 3
    assert_limited(client.post("/api/v1/rosters", json=body))
    # The HTML routes that create a roster count in the same budget.
    assert_limited(client.post("/listes", data={"system": "dcsystem"}, headers=SAME))
    assert client.get("/api/v1/systems").status_code == 200  # reads are not limited


def test_html_creation_gets_a_french_page(make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limit_create="1/minute")
    headers = {**SAME, "Accept": "text/html"}
    assert client.post("/listes", data={"system": "dcsystem"}, headers=headers).status_code == 303
    refused = client.post("/listes", data={"system": "dcsystem"}, headers=headers)
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1
    assert "Trop de requêtes" in html.unescape(refused.text)


def test_share_creation(make_client: Callable[..., TestClient], storage: dict[str, str]) -> None:
    client = make_client(rate_limit_share="2/minute", **storage)
    roster_id, token = new_roster(client)
    auth = {"Authorization": f"Bearer {token}"}
    url = f"/api/v1/rosters/{roster_id}/shares"
    # An unchanged roster keeps its share (200): the limit counts share requests all the same.
    assert [client.post(url, headers=auth).status_code for _ in range(2)] == [201, 200]
    assert_limited(client.post(url, headers=auth))


def test_html_share_counts_as_a_share(make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limit_share="1/minute")
    roster_id = html_roster(client)

    def save(action: str) -> int:
        page = client.get(f"/r/{roster_id}").text
        version = page.split('name="version" value="', 1)[1].split('"', 1)[0]
        form = {"name": "x", "version": version, "action": action}
        return client.post(f"/r/{roster_id}", data=form, headers=SAME).status_code

    assert save("share") == 303
    assert save("share") == 429
    assert save("") == 200  # a plain save is a write, not a share


def test_writes(make_client: Callable[..., TestClient], storage: dict[str, str]) -> None:
    client = make_client(rate_limit_write="3/minute", **storage)
    roster_id, token = new_roster(client)
    headers = {"Authorization": f"Bearer {token}"}
    document = {"system": "dcsystem", "name": "y"}
    for version in (1, 2, 3):
        response = client.put(
            f"/api/v1/rosters/{roster_id}",
            json=document,
            headers={**headers, "If-Match": str(version)},
        )
        assert response.status_code == 200
    assert_limited(
        client.put(
            f"/api/v1/rosters/{roster_id}", json=document, headers={**headers, "If-Match": "4"}
        )
    )
    assert_limited(client.delete(f"/api/v1/rosters/{roster_id}", headers=headers))
    assert_limited(client.post(f"/r/{roster_id}", data={"name": "z"}, headers=SAME))


def test_failed_token_checks_per_client(
    make_client: Callable[..., TestClient], storage: dict[str, str]
) -> None:
    client = make_client(rate_limit_failed_auth="3/minute", **storage)
    roster_id, _token = new_roster(client)
    other_id, other_token = new_roster(client)
    wrong = {"Authorization": "Bearer wrong"}
    assert client.get(f"/api/v1/rosters/{roster_id}", headers=wrong).status_code == 403
    # A request without a token fails no check (issue 13, finding 6): not counted.
    for _ in range(5):
        assert client.get(f"/api/v1/rosters/{roster_id}").status_code == 401
    assert client.get(f"/r/{other_id}/modifier", params={"t": "wrong"}).status_code == 403
    assert client.get(f"/api/v1/rosters/{other_id}", headers=wrong).status_code == 403
    # Over the limit: refused before the token is even looked at, the right one included.
    assert_limited(client.get(f"/api/v1/rosters/{roster_id}", headers=wrong))
    right = {"Authorization": f"Bearer {other_token}"}
    assert_limited(client.get(f"/api/v1/rosters/{other_id}", headers=right))
    assert client.get("/api/v1/systems").status_code == 200


ADDRESS = "x-test-client-address"


def from_addresses(app: ASGIApp) -> ASGIApp:
    """`app` seen from the client address a test puts in a header (one loop, many clients)."""

    async def shim(scope: Scope, receive: Receive, send: Send) -> None:
        address = dict(scope.get("headers", [])).get(ADDRESS.encode())
        if address is not None:
            scope = {**scope, "client": (address.decode(), 40000)}
        await app(scope, receive, send)

    return shim


def test_failed_token_checks_per_roster(
    make_client: Callable[..., TestClient], storage: dict[str, str]
) -> None:
    client = make_client(rate_limit_failed_auth_roster="2/minute", wrap=from_addresses, **storage)
    roster_id, token = new_roster(client)
    other_id, other_token = new_roster(client)
    for address in ("203.0.113.1", "203.0.113.2"):
        guess = {"Authorization": "Bearer x", ADDRESS: address}
        assert client.get(f"/api/v1/rosters/{roster_id}", headers=guess).status_code == 403
    # Locked for the guessers, whatever their address...
    assert_limited(
        client.get(
            f"/api/v1/rosters/{roster_id}",
            headers={"Authorization": "Bearer x", ADDRESS: "203.0.113.3"},
        )
    )
    page = client.get(
        f"/r/{roster_id}/modifier", params={"t": "x"}, headers={"Accept": "text/html"}
    )
    assert page.status_code == 429
    assert "Réessayez dans" in html.unescape(page.text)
    # ... not for the owner: the right token still opens it (issue 13, finding 6).
    right = {"Authorization": f"Bearer {token}", ADDRESS: "198.51.100.7"}
    assert client.get(f"/api/v1/rosters/{roster_id}", headers=right).status_code == 200
    # Another roster is not concerned.
    right = {"Authorization": f"Bearer {other_token}"}
    assert client.get(f"/api/v1/rosters/{other_id}", headers=right).status_code == 200


def test_strangers_cannot_lock_an_owner_out(make_client: Callable[..., TestClient]) -> None:
    """Issue 13, finding 6, as reproduced: twenty wrong tokens and ten plain visits to a
    posted /r/{id} locked the roster for its owner too."""
    client = make_client(wrap=from_addresses)
    roster_id = html_roster(client)
    owner_cookies = dict(client.cookies)
    client.cookies.clear()  # the strangers hold no cookie
    for n in range(20):
        stranger = {"Authorization": "Bearer wrong", ADDRESS: f"203.0.113.{n}"}
        assert client.get(f"/api/v1/rosters/{roster_id}", headers=stranger).status_code == 403
    for n in range(10):
        visit = {"Accept": "text/html", ADDRESS: f"198.51.100.{n}"}
        assert client.get(f"/r/{roster_id}", headers=visit).status_code == 403
    for n in range(20, 30):  # the thirtieth wrong token reaches the roster's limit (30/min)
        stranger = {"Authorization": "Bearer wrong", ADDRESS: f"203.0.113.{n}"}
        assert client.get(f"/api/v1/rosters/{roster_id}", headers=stranger).status_code == 403
    stranger = {"Authorization": "Bearer wrong", ADDRESS: "203.0.113.99"}
    assert client.get(f"/api/v1/rosters/{roster_id}", headers=stranger).status_code == 429
    client.cookies.update(owner_cookies)
    opened = client.get(f"/r/{roster_id}", headers={"Accept": "text/html"})
    assert opened.status_code == 200
    assert "Too many failed" not in opened.text


def test_successful_token_checks_are_not_counted(make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limit_failed_auth="2/minute")
    roster_id, token = new_roster(client)
    right = {"Authorization": f"Bearer {token}"}
    for _ in range(5):
        assert client.get(f"/api/v1/rosters/{roster_id}", headers=right).status_code == 200


def test_an_empty_limit_is_no_limit(make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limit_create="")
    body = {"system": "dcsystem", "name": "x"}
    assert all(client.post("/api/v1/rosters", json=body).status_code == 201 for _ in range(40))


def test_an_unreachable_storage_lets_requests_through(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    client = make_client(rate_limit_storage="redis://127.0.0.1:1/0", rate_limit_create="1/hour")
    body = {"system": "dcsystem", "name": "x"}
    assert [client.post("/api/v1/rosters", json=body).status_code for _ in range(3)] == [201] * 3
    assert "rate limit storage unreachable" in caplog.text


def test_the_defaults_hold_a_script_within_a_few_hundred_requests(client: TestClient) -> None:
    body = {"system": "dcsystem", "name": "x"}
    statuses = [client.post("/api/v1/rosters", json=body).status_code for _ in range(60)]
    assert 20 <= statuses.index(429) <= 300
