"""Every header the API sends is declared in the OpenAPI document, for the operation and
status that sent it, and so are the conditional requests it honours (issue 28, item 1):
a generated client then knows where the ETag to send as If-Match comes from."""

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.api.test_books import BOOK, create_book, publish, token
from tests.api.test_carnets import key, make_carnet
from tests.api.test_rosters import DOCUMENT, auth, create

# What HTTP itself carries (framing, encoding, negotiation): never declared per operation.
TRANSPORT = {"content-type", "content-length", "content-encoding", "vary", "date", "server"}


def operation_of(schema: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    for template, operations in schema["paths"].items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path) and method.lower() in operations:
            return operations[method.lower()]  # type: ignore[no-any-return]
    raise AssertionError(f"{method} {path} is not in the document")


def undeclared(schema: dict[str, Any], response: httpx.Response) -> set[str]:
    """The headers of `response` its operation does not declare for its status."""
    request = response.request
    operation = operation_of(schema, request.method, request.url.path)
    declared = operation["responses"].get(str(response.status_code))
    assert declared is not None, (request.method, request.url.path, response.status_code)
    names = {name.lower() for name in declared.get("headers", {})}
    return {name for name in response.headers if name not in TRANSPORT | names}


def flow(client: TestClient, app: FastAPI) -> list[httpx.Response]:
    """One request of each kind the contract describes, and their refusals."""
    answers: list[httpx.Response] = [client.get("/api/v1/systems")]
    for system in app.state.systems:
        answers.append(client.get(f"/api/v1/systems/{system}/catalogue"))
    answers.append(client.post("/api/v1/systems/dcsystem/cost", json={"level": 1, "items": []}))
    answers.append(client.post("/api/v1/systems/dcsystem/validate", json=DOCUMENT))
    roster = create(client)
    url = f"/api/v1/rosters/{roster['id']}"
    answers += [
        client.post("/api/v1/rosters", json=DOCUMENT),
        client.get(url),
        client.get(url, headers={"Authorization": "Bearer wrong"}),
        client.get(url, headers=auth(roster)),
        client.put(url, json=DOCUMENT, headers=auth(roster)),
        client.put(url, json=DOCUMENT, headers={**auth(roster), "If-Match": '"9"'}),
        client.put(url, json=DOCUMENT, headers={**auth(roster), "If-Match": '"1"'}),
        client.get(f"{url}/updates", headers=auth(roster)),
    ]
    shared = client.post(f"{url}/shares", headers=auth(roster))
    code = shared.json()["code"]
    etag = client.get(f"/api/v1/shares/{code}").headers["ETag"]
    answers += [
        shared,
        client.post(f"{url}/shares", headers=auth(roster)),
        client.get(f"/api/v1/shares/{code}"),
        client.get(f"/api/v1/shares/{code}", headers={"If-None-Match": etag}),
        client.get("/api/v1/shares/nope"),
    ]
    carnet = make_carnet(client)
    curl = f"/api/v1/carnets/{carnet['id']}"
    added = client.post(f"{curl}/rosters", json=DOCUMENT, headers=key(carnet))
    answers += [
        client.post("/api/v1/carnets"),
        client.get(curl),
        client.get(curl, headers=key(carnet)),
        added,
        client.put(
            f"{curl}/rosters/{roster['id']}",
            json={"edit_token": roster["edit_token"]},
            headers=key(carnet),
        ),
        client.delete(f"{curl}/rosters/{added.json()['id']}", headers=key(carnet)),
    ]
    book = create_book(client)
    burl = f"/api/v1/books/{book['id']}"
    answers += [
        client.post("/api/v1/books", json=BOOK),
        client.get(burl, headers=token(book)),
        client.put(burl, json=BOOK, headers={**token(book), "If-Match": '"1"'}),
    ]
    published = publish(client, book)
    bcode = published.json()["code"]
    betag = client.get(f"/api/v1/book-shares/{bcode}").headers["ETag"]
    answers += [
        published,
        publish(client, book),
        client.get(f"/api/v1/book-shares/{bcode}"),
        client.get(f"/api/v1/book-shares/{bcode}", headers={"If-None-Match": betag}),
        client.delete(burl, headers=token(book)),
        client.post(f"{curl}/key", headers=key(carnet)),
        client.delete(url, headers=auth(roster)),
    ]
    return answers + kept_and_carried(client)


def kept_and_carried(client: TestClient) -> list[httpx.Response]:
    """api-v1.md « Import, history and the carnet file »: an import, a roster's kept
    versions and their restore, the carnet in one file; and their refusals."""
    answers = [
        client.post("/api/v1/imports", json={"system": "dcsystem", "text": "3 Jaffa"}),
        client.post("/api/v1/imports", json={"system": "dcsystem", "text": ""}),
    ]
    roster = create(client)
    url = f"/api/v1/rosters/{roster['id']}"
    saved = client.put(url, json=DOCUMENT, headers={**auth(roster), "If-Match": '"1"'})
    answers += [
        saved,
        client.get(f"{url}/versions", headers=auth(roster)),
        client.get(f"{url}/versions"),
        client.get(f"{url}/versions/1", headers=auth(roster)),
        client.get(f"{url}/versions/99", headers=auth(roster)),
        client.post(f"{url}/versions/1/restore", headers={**auth(roster), "If-Match": '"2"'}),
        client.post(f"{url}/versions/1/restore", headers={**auth(roster), "If-Match": '"1"'}),
        client.post(f"{url}/versions/1/restore", headers=auth(roster)),
    ]
    carnet = make_carnet(client)
    curl = f"/api/v1/carnets/{carnet['id']}"
    client.post(f"{curl}/rosters", json=DOCUMENT, headers=key(carnet))
    exported = client.get(f"{curl}/export", headers=key(carnet))
    answers += [
        exported,
        client.get(f"{curl}/export"),
        client.post(f"{curl}/import", json=exported.json(), headers=key(carnet)),
        client.post(f"{curl}/import", json={"format": "caserne-carnet"}, headers=key(carnet)),
        client.post(f"{curl}/import", json={}, headers={"Authorization": "Bearer faux"}),
        client.get("/api/v1/schemas/carnet-export"),
    ]
    return answers


def test_every_header_sent_is_declared(client: TestClient, app: FastAPI) -> None:
    schema = client.get("/openapi.json").json()
    missing = {
        (r.request.method, r.request.url.path.split("/")[3], r.status_code): undeclared(schema, r)
        for r in flow(client, app)
    }
    assert {where: names for where, names in missing.items() if names} == {}


@pytest.mark.parametrize("operation_id", ["get_share", "get_book_share"])
def test_conditional_reads_declare_if_none_match(client: TestClient, operation_id: str) -> None:
    schema = client.get("/openapi.json").json()
    [operation] = [
        op
        for path in schema["paths"].values()
        for op in path.values()
        if op.get("operationId") == operation_id
    ]
    parameters = {(p["in"], p["name"].lower()) for p in operation.get("parameters", [])}
    assert ("header", "if-none-match") in parameters
    assert set(operation["responses"]["304"]["headers"]) >= {"ETag", "Cache-Control"}
    assert set(operation["responses"]["200"]["headers"]) >= {"ETag", "Cache-Control"}


def test_every_creation_has_a_location_and_secrets_are_not_stored(client: TestClient) -> None:
    """Issue 28, item 8: `Location` on every creation (it opens what was created); an
    answer that carries a secret says `Cache-Control: no-store`."""
    carnet = client.post("/api/v1/carnets")
    assert carnet.headers["Location"] == f"/api/v1/carnets/{carnet.json()['id']}"
    assert carnet.headers["Cache-Control"] == "no-store"
    rotated = client.post(f"/api/v1/carnets/{carnet.json()['id']}/key", headers=key(carnet.json()))
    assert rotated.status_code == 200 and rotated.headers["Cache-Control"] == "no-store"
    roster = client.post("/api/v1/rosters", json=DOCUMENT)
    assert roster.headers["Cache-Control"] == "no-store"
    book = client.post("/api/v1/books", json=BOOK)
    assert book.headers["Cache-Control"] == "no-store"
    shared = client.post(
        f"/api/v1/rosters/{roster.json()['id']}/shares", headers=auth(roster.json())
    )
    again = client.post(
        f"/api/v1/rosters/{roster.json()['id']}/shares", headers=auth(roster.json())
    )
    assert (shared.status_code, again.status_code) == (201, 200)
    for answer in (shared, again):
        assert answer.headers["Location"] == f"/api/v1/shares/{shared.json()['code']}"
        assert client.get(answer.headers["Location"]).status_code == 200
    published = publish(client, book.json())
    assert published.status_code == 201
    assert published.headers["Location"] == f"/api/v1/book-shares/{published.json()['code']}"
    assert client.get(published.headers["Location"]).status_code == 200
