"""Host header: only allowed hosts without PUBLIC_URL; never reflected with it (issue 10, 2)."""

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from tests.security.helpers import new_roster

EVIL = "evil.example"


def test_a_host_not_allowed_gets_400(client: TestClient) -> None:
    assert client.get("/healthz", headers={"Host": EVIL}).status_code == 400
    assert client.get("/", headers={"Host": f"{EVIL}:8000"}).status_code == 400


@pytest.mark.parametrize("host", ["testserver", "localhost", "127.0.0.1:443", "[::1]:80"])
def test_the_default_allowed_hosts(client: TestClient, host: str) -> None:
    assert client.get("/healthz", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize(
    "origin", ["http://localhost:8000", "http://127.0.0.1:5000", "http://[::1]:8000"]
)
def test_the_port_the_server_listens_on_is_answered(client: TestClient, origin: str) -> None:
    # The test client's scope has server = (host, the URL's port), as uvicorn's does.
    assert client.get(f"{origin}/healthz").status_code == 200


def test_any_other_port_of_an_allowed_host_gets_400(client: TestClient) -> None:
    """Issue 13, finding 5: each port was a new origin in links and a new key in the page
    memory (20,000 ports took a worker from 98 to 326 MB)."""
    for host in ("localhost:8001", "testserver:1", "127.0.0.1:65535", "[::1]:8000", "localhost:"):
        response = client.get("/healthz", headers={"Host": host})
        assert response.status_code == 400, host
    assert client.get("/healthz", headers={"Host": "localhost:80"}).status_code == 200


def test_a_port_allowed_hosts_gives(make_client: Callable[..., TestClient]) -> None:
    client = make_client(allowed_hosts="caserne.example:8443, *.caserne.example:8080, localhost")
    assert client.get("/healthz", headers={"Host": "caserne.example:8443"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "caserne.example"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "fr.caserne.example:8080"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "caserne.example:8080"}).status_code == 400
    assert client.get("/healthz", headers={"Host": "localhost:8443"}).status_code == 400


def test_allowed_hosts_setting(make_client: Callable[..., TestClient]) -> None:
    client = make_client(allowed_hosts="caserne.example, *.caserne.example")
    assert client.get("/healthz", headers={"Host": "caserne.example"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "fr.caserne.example"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "localhost"}).status_code == 400


def test_with_public_url_an_evil_host_appears_nowhere(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(public_url="https://caserne.example")
    client.headers["Host"] = EVIL
    roster_id, token = new_roster(client)
    auth = {"Authorization": f"Bearer {token}"}
    shared = client.post(f"/api/v1/rosters/{roster_id}/shares", headers=auth)
    assert shared.json()["url"].startswith("https://caserne.example/s/")
    code = shared.json()["code"]
    responses = [
        shared,
        client.get("/"),
        client.get("/listes"),
        client.get("/dcsystem/catalogue"),
        client.get("/dcsystem/createur"),
        client.get(f"/s/{code}"),
        client.get(f"/s/{code}"),  # from the page cache
        *(client.get(f"/s/{code}.{ext}") for ext in ("bbcode", "md", "txt", "json")),
        client.get(f"/api/v1/shares/{code}"),
        client.get(f"/api/v1/rosters/{roster_id}", headers=auth),
        client.get("/listes/"),  # a trailing-slash redirect builds an absolute URL
        client.get("/nowhere", headers={"Accept": "text/html"}),
        client.get("/api/docs"),
        client.get("/openapi.json"),
    ]
    for response in responses:
        assert response.status_code < 500
        assert EVIL not in response.text, response.url
        assert all(EVIL not in value for value in response.headers.values()), response.url
    assert f'content="https://caserne.example/s/{code}"' in client.get(f"/s/{code}").text
