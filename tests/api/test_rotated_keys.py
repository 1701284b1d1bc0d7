"""A carnet key that was changed is told from a wrong one (issue 28, item 4): the server
keeps the hashes of a carnet's last retired keys, so that a program holding an old key
learns it must ask its user for the new link (`carnet_key_rotated`) rather than that its
key was never right (`carnet_key_refused`)."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import Session

from app.carnet_service import CarnetService, KeyRefused, KeyRotated
from app.store.carnets import RETIRED_KEYS_KEPT
from tests.api.test_books import BOOK
from tests.api.test_carnets import key, make_carnet
from tests.api.test_problem_codes import first_error


def rotated(client: TestClient, carnet: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(f"/api/v1/carnets/{carnet['id']}/key", headers=key(carnet))
    assert answer.status_code == 200, answer.text
    return {**carnet, "key": answer.json()["key"]}


def test_an_old_key_is_told_from_a_wrong_one(client: TestClient) -> None:
    old = make_carnet(client)
    new = rotated(client, old)
    url = f"/api/v1/carnets/{old['id']}"
    assert client.get(url, headers=key(new)).status_code == 200
    stale = first_error(client.get(url, headers=key(old)), 403)
    assert (stale["code"], stale["loc"]) == ("carnet_key_rotated", ["header", "authorization"])
    wrong = first_error(client.get(url, headers={"Authorization": "Bearer wrong"}), 403)
    assert wrong["code"] == "carnet_key_refused"
    # Wherever a carnet key is read: a new book or campaign filed in the carnet.
    book = client.post("/api/v1/books", json=BOOK, headers=key(old))
    assert first_error(book, 403)["code"] == "carnet_key_rotated"
    campaign = client.post(
        "/api/v1/campaigns", json={"system": "bastos", "name": "C"}, headers=key(old)
    )
    assert first_error(campaign, 403)["code"] == "carnet_key_rotated"
    unknown = client.post("/api/v1/books", json=BOOK, headers={"Authorization": "Bearer x"})
    assert first_error(unknown, 403)["code"] == "carnet_key_refused"
    # Rotating with the old key is refused as such, and changes nothing.
    again = client.post(f"{url}/key", headers=key(old))
    assert first_error(again, 403)["code"] == "carnet_key_rotated"
    assert client.get(url, headers=key(new)).status_code == 200


def test_the_retired_keys_kept_are_bounded(session: Session) -> None:
    carnets = CarnetService(session)
    carnet, first = carnets.create()
    keys = [first]
    for _ in range(RETIRED_KEYS_KEPT + 2):
        keys.append(carnets.rotate(carnets.open(carnet.id, keys[-1])))
    count = text("SELECT count(*) FROM retired_key WHERE carnet_id = :id")
    assert session.execute(count, {"id": carnet.id}).scalar() == RETIRED_KEYS_KEPT
    # The newest retired keys are told rotated; the oldest are forgotten: only wrong keys.
    with pytest.raises(KeyRotated):
        carnets.open(carnet.id, keys[-2])
    with pytest.raises(KeyRotated):
        carnets.open(carnet.id, keys[-1 - RETIRED_KEYS_KEPT])
    for old in keys[:2]:
        with pytest.raises(KeyRefused) as refused:
            carnets.open(carnet.id, old)
        assert type(refused.value) is KeyRefused
    assert carnets.open(carnet.id, keys[-1]).id == carnet.id
