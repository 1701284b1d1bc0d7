"""Smaller points of issue 28 (items 3, 7, 8): zoned `date-time` timestamps, strong
If-Match, 415 for a body that is not JSON, the updates' status an enum."""

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_books import BOOK, create_book, publish
from tests.api.test_carnets import key, make_carnet
from tests.api.test_rosters import DOCUMENT, auth, create


def component(client: TestClient, name: str) -> dict[str, Any]:
    return client.get("/openapi.json").json()["components"]["schemas"][name]  # type: ignore[no-any-return]


def test_adopting_a_roster_answers_a_zoned_timestamp(client: TestClient) -> None:
    carnet = make_carnet(client)
    roster = create(client)
    adopted = client.put(
        f"/api/v1/carnets/{carnet['id']}/rosters/{roster['id']}",
        json={"edit_token": roster["edit_token"]},
        headers=key(carnet),
    )
    assert adopted.status_code == 200, adopted.text
    listed = client.get(f"/api/v1/carnets/{carnet['id']}", headers=key(carnet)).json()
    assert adopted.json()["updated_at"].endswith("Z")
    assert adopted.json()["updated_at"] == listed["rosters"][0]["updated_at"]


def test_share_timestamps_are_typed_and_zoned(client: TestClient) -> None:
    roster = create(client)
    code = client.post(f"/api/v1/rosters/{roster['id']}/shares", headers=auth(roster)).json()
    shared = client.get(f"/api/v1/shares/{code['code']}").json()
    assert shared["created_at"].endswith("Z")
    book = create_book(client)
    published = client.get(f"/api/v1/book-shares/{publish(client, book).json()['code']}").json()
    assert published["created_at"].endswith("Z")
    for name in ("ShareOut", "DcsystemBookShare", "InfinityBookShare"):
        assert component(client, name)["properties"]["created_at"]["format"] == "date-time"


def test_a_weak_if_match_never_matches(client: TestClient) -> None:
    roster = create(client)
    url = f"/api/v1/rosters/{roster['id']}"
    weak = client.put(url, json=DOCUMENT, headers={**auth(roster), "If-Match": 'W/"1"'})
    assert weak.status_code == 412
    assert weak.json()["errors"][0]["code"] == "if_match_weak"
    assert client.get(url, headers=auth(roster)).json()["version"] == 1


def test_a_text_plain_body_is_refused_as_on_the_calculators(client: TestClient) -> None:
    plain = {"Content-Type": "text/plain"}
    cost = client.post("/api/v1/systems/dcsystem/cost", content=b"{}", headers=plain)
    roster = client.post("/api/v1/rosters", content=json.dumps(DOCUMENT), headers=plain)
    book = client.post("/api/v1/books", content=json.dumps(BOOK), headers=plain)
    for answer in (cost, roster, book):
        assert answer.status_code == 415, answer.text
        assert answer.json()["errors"][0]["code"] == "unsupported_media_type"
    carnet = client.post("/api/v1/carnets", headers=plain)  # no body: no type asked
    assert carnet.status_code == 201


def test_an_update_status_is_an_enum(client: TestClient) -> None:
    assert component(client, "Update")["properties"]["status"]["enum"] == ["changed", "withdrawn"]


def test_the_share_json_export_is_the_share(client: TestClient) -> None:
    """Issue 28, item 6: /s/{code}.json is get_share's body (ShareOut, with `code` and
    `created_at`); an unknown code answers a problem, not a page."""
    roster = create(client)
    code = client.post(f"/api/v1/rosters/{roster['id']}/shares", headers=auth(roster)).json()
    exported = client.get(f"/s/{code['code']}.json")
    assert exported.status_code == 200
    assert exported.json() == client.get(f"/api/v1/shares/{code['code']}").json()
    assert list(exported.json()) == list(component(client, "ShareOut")["properties"])
    missing = client.get("/s/nope.json")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
    assert missing.json()["errors"][0]["code"] == "share_not_found"
