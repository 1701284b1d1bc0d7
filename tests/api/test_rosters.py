"""Stored rosters and shares (api-v1.md, "Stored rosters and share links")."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.store.models import Roster
from app.store.rosters import hash_token

DOCUMENT: dict[str, Any] = {
    "system": "dcsystem",
    "name": "Feuille de bataille Jaffa",
    "points_limit": 200,
    "entries": [{"unit": "jaffa", "count": 6}],
    "extras": {"hidden_moves": ["traitre"]},
}


def create(client: TestClient, document: dict[str, Any] = DOCUMENT) -> dict[str, Any]:
    response = client.post("/api/v1/rosters", json=document)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def auth(created: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['edit_token']}"}


def test_create_returns_token_once_and_stores_only_its_hash(
    client: TestClient, session: Session
) -> None:
    created = create(client)
    assert created["version"] == 1
    assert created["validation"]["points"] == 200  # L51-53
    token = created["edit_token"]
    assert len(token) >= 43  # 32 bytes of `secrets`, url-safe base64: 256 bits
    stored = session.exec(select(Roster).where(Roster.id == created["id"])).one()
    assert stored.token_hash == hash_token(token) and token not in stored.token_hash
    again = client.get(f"/api/v1/rosters/{created['id']}", headers=auth(created))
    assert "edit_token" not in again.json()


def test_a_roster_with_errors_is_still_saved(client: TestClient) -> None:
    document = {**DOCUMENT, "points_limit": 100}
    created = create(client, document)
    assert created["validation"]["valid"] is False
    assert [i["code"] for i in created["validation"]["issues"]] == ["over_points_limit"]
    read = client.get(f"/api/v1/rosters/{created['id']}", headers=auth(created))
    assert read.status_code == 200 and read.json()["roster"]["points_limit"] == 100


@pytest.mark.parametrize(
    ("headers", "status"),
    [({}, 401), ({"Authorization": "Bearer wrong"}, 403), ({"Authorization": "Basic abc"}, 401)],
)
def test_drafts_are_private(client: TestClient, headers: dict[str, str], status: int) -> None:
    created = create(client)
    url = f"/api/v1/rosters/{created['id']}"
    assert client.get(url, headers=headers).status_code == status
    put = client.put(
        url, json={**DOCUMENT, "name": "volée"}, headers={**headers, "If-Match": '"1"'}
    )
    assert put.status_code == status
    assert client.delete(url, headers=headers).status_code == status
    assert client.post(f"{url}/shares", headers=headers).status_code == status
    unchanged = client.get(url, headers=auth(created)).json()
    assert (unchanged["version"], unchanged["roster"]["name"]) == (1, DOCUMENT["name"])


def test_unknown_roster_is_404(client: TestClient) -> None:
    response = client.get("/api/v1/rosters/nope", headers={"Authorization": "Bearer x"})
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"


def test_update_with_version_and_stale_write(client: TestClient) -> None:
    created = create(client)
    url = f"/api/v1/rosters/{created['id']}"
    first = client.put(
        url, json={**DOCUMENT, "name": "Version 2"}, headers={**auth(created), "If-Match": '"1"'}
    )
    assert first.status_code == 200
    assert first.json()["version"] == 2 and first.headers["etag"] == '"2"'
    stale = client.put(
        url, json={**DOCUMENT, "name": "Perdue"}, headers={**auth(created), "If-Match": '"1"'}
    )
    assert stale.status_code == 409
    assert stale.json()["detail"] == "Version 1 is stale: the roster is at version 2."
    current = client.get(url, headers=auth(created)).json()
    assert (current["version"], current["roster"]["name"]) == (2, "Version 2")


def test_update_needs_if_match(client: TestClient) -> None:
    created = create(client)
    url = f"/api/v1/rosters/{created['id']}"
    assert client.put(url, json=DOCUMENT, headers=auth(created)).status_code == 428
    bad = client.put(url, json=DOCUMENT, headers={**auth(created), "If-Match": "latest"})
    assert bad.status_code == 422


def test_update_with_invalid_document_changes_nothing(client: TestClient) -> None:
    created = create(client)
    url = f"/api/v1/rosters/{created['id']}"
    bad = {**DOCUMENT, "entries": [{"unit": "jaffa", "count": -2}]}
    response = client.put(url, json=bad, headers={**auth(created), "If-Match": "1"})
    assert response.status_code == 422
    assert client.get(url, headers=auth(created)).json()["version"] == 1


def test_delete(client: TestClient) -> None:
    created = create(client)
    url = f"/api/v1/rosters/{created['id']}"
    assert client.delete(url, headers=auth(created)).status_code == 204
    assert client.get(url, headers=auth(created)).status_code == 404


def test_share_is_an_immutable_snapshot(client: TestClient) -> None:
    created = create(client)
    url = f"/api/v1/rosters/{created['id']}"
    shared = client.post(f"{url}/shares", headers=auth(created))
    assert shared.status_code == 201
    body = shared.json()
    code = body["code"]
    assert len(code) == 8 and code.isalnum()
    assert body["url"] == f"http://testserver/s/{code}"
    assert body["exports"] == {
        "bbcode": f"http://testserver/s/{code}.bbcode",
        "markdown": f"http://testserver/s/{code}.md",
        "text": f"http://testserver/s/{code}.txt",
        "json": f"http://testserver/s/{code}.json",
        "tts_json": f"http://testserver/s/{code}.tts.json",
        "tts_text": f"http://testserver/s/{code}.tts.txt",
    }
    before = client.get(f"/api/v1/shares/{code}")
    assert before.status_code == 200
    # Editing (and even deleting) the roster afterwards never changes the posted link.
    client.put(url, json={**DOCUMENT, "entries": []}, headers={**auth(created), "If-Match": "1"})
    client.delete(url, headers=auth(created))
    after = client.get(f"/api/v1/shares/{code}")
    assert after.json() == before.json()
    assert after.json()["validation"]["points"] == 200
    assert after.headers["etag"] == before.headers["etag"]


def test_share_caching_headers_and_304(client: TestClient) -> None:
    created = create(client)
    code = client.post(f"/api/v1/rosters/{created['id']}/shares", headers=auth(created)).json()[
        "code"
    ]
    response = client.get(f"/api/v1/shares/{code}")
    assert response.headers["cache-control"] == "public, max-age=86400, immutable"
    etag = response.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"')
    conditional = client.get(f"/api/v1/shares/{code}", headers={"If-None-Match": etag})
    assert conditional.status_code == 304 and conditional.content == b""
    assert conditional.headers["etag"] == etag
    assert (
        client.get(f"/api/v1/shares/{code}", headers={"If-None-Match": '"other"'}).status_code
        == 200
    )


def test_unknown_share_is_404(client: TestClient) -> None:
    assert client.get("/api/v1/shares/zzzzzzzz").status_code == 404


def test_an_unchanged_roster_keeps_its_share_and_a_change_makes_a_new_one(
    client: TestClient,
) -> None:
    """api-v1.md, "Limits": sharing an unchanged roster answers 200 with the same code."""
    created = create(client)
    url = f"/api/v1/rosters/{created['id']}/shares"
    answers = [client.post(url, headers=auth(created)) for _ in range(5)]
    assert [a.status_code for a in answers] == [201, 200, 200, 200, 200]
    assert len({a.json()["code"] for a in answers}) == 1
    renamed = {**DOCUMENT, "name": "Autre nom"}
    put = client.put(
        f"/api/v1/rosters/{created['id']}",
        json=renamed,
        headers={**auth(created), "If-Match": '"1"'},
    )
    assert put.status_code == 200
    again = client.post(url, headers=auth(created))
    assert again.status_code == 201
    assert again.json()["code"] != answers[0].json()["code"]


def test_if_match_star_replaces_whatever_the_version(client: TestClient) -> None:
    created = create(client)
    put = client.put(
        f"/api/v1/rosters/{created['id']}",
        json={**DOCUMENT, "name": "Étoile"},
        headers={**auth(created), "If-Match": "*"},
    )
    assert put.status_code == 200
    assert put.json()["version"] == 2


def test_created_roster_has_an_edit_url_that_opens_the_editor(client: TestClient) -> None:
    created = create(client)
    assert created["edit_url"] == (
        f"http://testserver/r/{created['id']}/modifier?t={created['edit_token']}"
    )
    # Pasted in the address bar (`Sec-Fetch-Site: none`): it opens at once.
    opened = client.get(
        created["edit_url"], follow_redirects=True, headers={"Sec-Fetch-Site": "none"}
    )
    assert opened.status_code == 200
    assert 'id="editor"' in opened.text
