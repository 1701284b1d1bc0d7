"""api-v1.md « Carnets »: failed key checks are rate limited like edit tokens, on the API
and on the carnet link alike."""

from collections.abc import Callable

from fastapi.testclient import TestClient

from tests.api.test_carnets import key, make_carnet


def test_failed_key_checks_are_rate_limited(make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limit_failed_auth="3/minute")
    carnet = make_carnet(client)
    base = f"/api/v1/carnets/{carnet['id']}"
    assert client.get(base, headers={"Authorization": "Bearer wrong"}).status_code == 403
    # No key at all is no failed check (issue 13: a visit without a token guesses nothing).
    assert client.get(base).status_code == 401
    assert client.get(base, headers={"Authorization": "Bearer wrong too"}).status_code == 403
    assert client.get(f"/carnet/{carnet['id']}", params={"t": "wrong"}).status_code == 403
    over = client.get(base, headers=key(carnet))  # even the right key, once over the limit
    assert over.status_code == 429 and "retry-after" in over.headers
    assert client.get("/api/v1/systems").status_code == 200
