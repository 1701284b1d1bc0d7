"""The export routes are in the OpenAPI document (issue 28, item 6): a share's and a
published book's `.json`, `.bbcode`, `.md` and `.txt`, and a battle's report, each with the
media type, the headers and the statuses it really answers; a `.json` export is its API
read's body, and an unknown code there answers a problem, not a page."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.test_books import create_book, publish
from tests.api.test_rosters import auth, create

Schema = dict[str, Any]
MEDIA = {
    "json": "application/json",
    "bbcode": "text/plain",
    "md": "text/markdown",
    "txt": "text/plain",
}


def document(client: TestClient) -> Schema:
    return client.get("/openapi.json").json()  # type: ignore[no-any-return]


def read_of(doc: Schema, operation_id: str) -> Schema:
    [operation] = [
        op
        for path in doc["paths"].values()
        for op in path.values()
        if op.get("operationId") == operation_id
    ]
    return operation  # type: ignore[no-any-return]


def shared(client: TestClient) -> tuple[str, str]:
    roster = create(client)
    share = client.post(f"/api/v1/rosters/{roster['id']}/shares", headers=auth(roster)).json()
    return share["code"], publish(client, create_book(client)).json()["code"]


@pytest.mark.parametrize("prefix", ["s", "a"])
@pytest.mark.parametrize("ext", list(MEDIA))
def test_each_export_is_documented_as_it_answers(client: TestClient, prefix: str, ext: str) -> None:
    doc = document(client)
    path = doc["paths"][f"/{prefix}/{{code}}.{ext}"]
    operation = path["get"]
    assert set(path) == {"get"}
    assert (
        operation["operationId"]
        == f"{'export_share' if prefix == 's' else 'export_book_share'}_{ext}"
    )
    assert [p["name"] for p in operation["parameters"]] == ["code", "If-None-Match"]
    ok = operation["responses"]["200"]
    assert list(ok["content"]) == [MEDIA[ext]]
    assert {"ETag", "Cache-Control"} <= set(ok["headers"])
    assert {"304", "404"} <= set(operation["responses"])
    for status in ("404", "410"):
        if status in operation["responses"] and ext == "json":
            assert list(operation["responses"][status]["content"]) == ["application/problem+json"]
    # What the server sends is what the document says.
    share, book = shared(client)
    code = share if prefix == "s" else book
    answer = client.get(f"/{prefix}/{code}.{ext}")
    assert answer.status_code == 200
    assert answer.headers["content-type"].split(";")[0] == MEDIA[ext]
    etag = answer.headers["etag"]
    again = client.get(f"/{prefix}/{code}.{ext}", headers={"If-None-Match": etag})
    assert again.status_code == 304


def test_a_json_export_is_its_api_read(client: TestClient) -> None:
    doc = document(client)
    for export, read in (
        ("export_share_json", "get_share"),
        ("export_book_share_json", "get_book_share"),
    ):
        exported = read_of(doc, export)["responses"]["200"]["content"]["application/json"]
        answer = read_of(doc, read)["responses"]["200"]["content"]["application/json"]
        assert exported["schema"] == answer["schema"], export
    share, book = shared(client)
    assert client.get(f"/s/{share}.json").json() == client.get(f"/api/v1/shares/{share}").json()
    assert client.get(f"/a/{book}.json").json() == client.get(f"/api/v1/book-shares/{book}").json()


@pytest.mark.parametrize(
    ("url", "code"),
    [("/s/nope.json", "share_not_found"), ("/a/nope.json", "book_share_not_found")],
)
def test_an_unknown_json_export_is_a_problem(client: TestClient, url: str, code: str) -> None:
    missing = client.get(url, headers={"Accept": "text/html"})
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
    assert missing.json()["errors"][0] == {
        "loc": ["path", "code"],
        "msg": missing.json()["detail"],
        "code": code,
    }


def test_the_battle_report_is_documented(client: TestClient) -> None:
    operation = document(client)["paths"]["/campagne/rapport/{code}.bbcode"]["get"]
    assert operation["operationId"] == "export_battle_report"
    ok = operation["responses"]["200"]
    assert list(ok["content"]) == ["text/plain"]
    assert {"ETag", "Cache-Control"} <= set(ok["headers"])
    assert {"304", "404"} <= set(operation["responses"])


@pytest.mark.parametrize(
    ("ext", "media"), [("tts.json", "application/json"), ("tts.txt", "text/plain")]
)
def test_the_tabletop_simulator_exports_are_documented(
    client: TestClient, ext: str, media: str
) -> None:
    doc = document(client)
    operation = doc["paths"][f"/s/{{code}}.{ext}"]["get"]
    assert operation["operationId"] == f"export_share_{ext.replace('.', '_')}"
    ok = operation["responses"]["200"]
    assert list(ok["content"]) == [media]
    if ext == "tts.json":
        assert ok["content"][media]["schema"] == {"$ref": "#/components/schemas/TtsExport"}
        assert "objects" in doc["components"]["schemas"]["TtsExport"]["properties"]
    assert {"304", "404", "410"} <= set(operation["responses"])
    share, _book = shared(client)
    answer = client.get(f"/s/{share}.{ext}")
    assert answer.status_code == 200
    assert answer.headers["content-type"].split(";")[0] == media
