"""Carnets through the API (api-v1.md « Carnets »), exactly as written: statuses, bodies,
the key as a Bearer for the carnet and for each roster it holds, rotation."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.store.models import Carnet, CarnetRoster, Roster
from app.store.rosters import hash_token
from tests.api.test_rosters import DOCUMENT, auth, create


def make_carnet(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/v1/carnets")
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def key(carnet: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {carnet['key']}"}


def test_create_carnet_shows_the_key_once_and_stores_its_hash(
    client: TestClient, session: Session
) -> None:
    carnet = make_carnet(client)
    assert set(carnet) == {"id", "key", "url"}
    assert len(carnet["key"]) >= 43  # 256 bits, url-safe base64
    assert carnet["url"] == f"http://testserver/carnet/{carnet['id']}?t={carnet['key']}"
    stored = session.exec(select(Carnet).where(Carnet.id == carnet["id"])).one()
    assert stored.key_hash == hash_token(carnet["key"])
    assert carnet["key"] not in stored.key_hash


def test_get_carnet_lists_rosters_most_recent_first(client: TestClient) -> None:
    carnet = make_carnet(client)
    url = f"/api/v1/carnets/{carnet['id']}"
    empty = client.get(url, headers=key(carnet))
    assert empty.status_code == 200
    assert empty.json() == {"id": carnet["id"], "rosters": [], "books": [], "campaigns": []}
    assert empty.headers["cache-control"] == "private, no-store"
    first = client.post(f"{url}/rosters", json=DOCUMENT, headers=key(carnet))
    assert first.status_code == 201, first.text
    body = first.json()
    assert set(body) == {"id", "version", "edit_token", "edit_url", "roster", "validation"}
    assert body["validation"]["points"] == 200
    second = client.post(
        f"{url}/rosters", json={**DOCUMENT, "name": "Deuxième"}, headers=key(carnet)
    ).json()
    # The first one changes last: it comes first.
    replaced = client.put(
        f"/api/v1/rosters/{body['id']}",
        json={**DOCUMENT, "name": "Première"},
        headers={**key(carnet), "If-Match": '"1"'},
    )
    assert replaced.status_code == 200, replaced.text
    listed = client.get(url, headers=key(carnet)).json()
    assert [r["id"] for r in listed["rosters"]] == [body["id"], second["id"]]
    item = listed["rosters"][0]
    assert set(item) == {"id", "name", "system", "version", "updated_at"}
    assert (item["name"], item["system"], item["version"]) == ("Première", "dcsystem", 2)
    assert item["updated_at"].endswith(("+00:00", "Z"))  # UTC, on SQLite too


@pytest.mark.parametrize(
    ("headers", "status"),
    [({}, 401), ({"Authorization": "Bearer wrong"}, 403), ({"Authorization": "Basic x"}, 401)],
)
def test_a_missing_key_is_401_a_wrong_one_403(
    client: TestClient, headers: dict[str, str], status: int
) -> None:
    carnet = make_carnet(client)
    base = f"/api/v1/carnets/{carnet['id']}"
    roster = create(client)
    calls = [
        client.get(base, headers=headers),
        client.post(f"{base}/rosters", json=DOCUMENT, headers=headers),
        client.put(f"{base}/rosters/{roster['id']}", json={"edit_token": "x"}, headers=headers),
        client.delete(f"{base}/rosters/{roster['id']}", headers=headers),
        client.post(f"{base}/key", headers=headers),
    ]
    for response in calls:
        assert response.status_code == status, response.text
        assert response.headers["content-type"] == "application/problem+json"
    assert client.get("/api/v1/carnets/nope", headers=key(carnet)).status_code == 404


def test_the_carnet_key_opens_its_rosters(client: TestClient) -> None:
    carnet = make_carnet(client)
    base = f"/api/v1/carnets/{carnet['id']}"
    roster = client.post(f"{base}/rosters", json=DOCUMENT, headers=key(carnet)).json()
    url = f"/api/v1/rosters/{roster['id']}"
    assert client.get(url, headers=key(carnet)).status_code == 200
    assert client.get(url, headers=auth(roster)).status_code == 200  # the edit token too
    shared = client.post(f"{url}/shares", headers=key(carnet))
    assert shared.status_code == 201
    # Another carnet's key opens nothing of this one.
    other = make_carnet(client)
    assert client.get(url, headers=key(other)).status_code == 403
    assert client.delete(url, headers=key(carnet)).status_code == 204
    assert client.get(url, headers=auth(roster)).status_code == 404
    assert client.get(base, headers=key(carnet)).json()["rosters"] == []


def test_adopt_needs_the_edit_token_and_remove_keeps_the_roster(
    client: TestClient, session: Session
) -> None:
    carnet = make_carnet(client)
    base = f"/api/v1/carnets/{carnet['id']}"
    roster = create(client)
    wrong = client.put(
        f"{base}/rosters/{roster['id']}", json={"edit_token": "not-it"}, headers=key(carnet)
    )
    assert wrong.status_code == 403
    # The carnet's own key is no edit token.
    as_key = client.put(
        f"{base}/rosters/{roster['id']}", json={"edit_token": carnet["key"]}, headers=key(carnet)
    )
    assert as_key.status_code == 403
    assert client.get(base, headers=key(carnet)).json()["rosters"] == []  # nothing changed
    adopted = client.put(
        f"{base}/rosters/{roster['id']}",
        json={"edit_token": roster["edit_token"]},
        headers=key(carnet),
    )
    assert adopted.status_code == 200, adopted.text
    assert adopted.json()["id"] == roster["id"] and adopted.json()["version"] == 1
    again = client.put(
        f"{base}/rosters/{roster['id']}",
        json={"edit_token": roster["edit_token"]},
        headers=key(carnet),
    )
    assert again.status_code == 200  # already there: still one link
    links = session.exec(select(CarnetRoster).where(CarnetRoster.roster_id == roster["id"]))
    assert len(links.all()) == 1
    missing = client.put(
        f"{base}/rosters/nope", json={"edit_token": roster["edit_token"]}, headers=key(carnet)
    )
    assert missing.status_code == 404
    url = f"/api/v1/rosters/{roster['id']}"
    assert client.get(url, headers=key(carnet)).status_code == 200
    assert client.delete(f"{base}/rosters/{roster['id']}", headers=key(carnet)).status_code == 204
    assert client.delete(f"{base}/rosters/{roster['id']}", headers=key(carnet)).status_code == 404
    assert client.get(url, headers=key(carnet)).status_code == 403  # out of the carnet
    assert client.get(url, headers=auth(roster)).status_code == 200  # the roster stays
    assert session.get(Roster, roster["id"]) is not None


def test_rotate_the_key(client: TestClient) -> None:
    carnet = make_carnet(client)
    base = f"/api/v1/carnets/{carnet['id']}"
    roster = client.post(f"{base}/rosters", json=DOCUMENT, headers=key(carnet)).json()
    rotated = client.post(f"{base}/key", headers=key(carnet))
    assert rotated.status_code == 200
    new = rotated.json()
    assert set(new) == {"key", "url"} and new["key"] != carnet["key"]
    assert new["url"] == f"http://testserver/carnet/{carnet['id']}?t={new['key']}"
    assert client.get(base, headers=key(carnet)).status_code == 403
    assert client.get(f"/api/v1/rosters/{roster['id']}", headers=key(carnet)).status_code == 403
    assert client.get(base, headers=key(new)).status_code == 200
    assert client.get(f"/api/v1/rosters/{roster['id']}", headers=key(new)).status_code == 200
    # The old link opens nothing in a browser either.
    old_link = carnet["url"].removeprefix("http://testserver")
    assert client.get(old_link, follow_redirects=False).status_code == 403


def test_carnet_bodies_are_checked(client: TestClient) -> None:
    carnet = make_carnet(client)
    base = f"/api/v1/carnets/{carnet['id']}"
    bad = client.post(f"{base}/rosters", json={**DOCUMENT, "points_limit": -1}, headers=key(carnet))
    assert bad.status_code == 422
    assert client.get(base, headers=key(carnet)).json()["rosters"] == []
    roster = create(client)
    no_token = client.put(f"{base}/rosters/{roster['id']}", json={}, headers=key(carnet))
    assert no_token.status_code == 422


def test_operation_ids(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    ids = {op["operationId"] for path in paths.values() for op in path.values()}
    assert {
        "create_carnet",
        "get_carnet",
        "add_carnet_roster",
        "adopt_carnet_roster",
        "remove_carnet_roster",
        "rotate_carnet_key",
    } <= ids
