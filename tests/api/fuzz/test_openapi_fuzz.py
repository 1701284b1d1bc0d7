"""The OpenAPI document itself, the fuzz's own helpers and its partition (probe.py; the
fuzz runs in the test_fuzz_*.py files beside this one), and the requests the fuzz found,
sent byte for byte."""

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.api.fuzz.probe import (
    PARTS,
    a_carnet_file,
    beyond_free_json_bounds,
    body_is_valid,
    part_of,
    repeats_entry_ids,
    weak_if_match,
)


def test_the_document_says_what_the_roster_routes_need(unlimited_app: FastAPI) -> None:
    document = unlimited_app.openapi()
    put = document["paths"]["/api/v1/rosters/{roster_id}"]["put"]
    if_match = next(p for p in put["parameters"] if p["name"] == "if-match")
    assert if_match["required"] is True  # without it: 428
    for status in ("409", "413", "422", "428", "401", "403", "404"):
        assert put["responses"][status]["content"]["application/problem+json"], status
    assert "another system" in put["responses"]["422"]["description"]
    scheme = document["components"]["securitySchemes"]["editToken"]
    assert scheme == {**scheme, "type": "http", "scheme": "bearer"}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            names = [p["name"] for p in operation.get("parameters", [])]
            assert "authorization" not in names, (method, path)
            if path.startswith("/api/v1/rosters/"):
                assert operation["security"] == [{"editToken": []}], (method, path)
    links = document["paths"]["/api/v1/rosters"]["post"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in links.values()} == {
        "get_roster",
        "replace_roster",
        "delete_roster",
        "share_roster",
    }


def test_every_operation_documents_the_long_query_refusal(
    unlimited_app: FastAPI, stored: dict[str, Any]
) -> None:
    """app/middleware.py answers 414 to any query string over MAX_QUERY_BYTES, on every
    path, before routing: CI's schemathesis run met it undocumented on GET …/battles with
    60 `share=` values (stop 21)."""
    document = unlimited_app.openapi()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            refused = operation["responses"]["414"]
            assert refused["content"]["application/problem+json"], (method, path)
    with TestClient(unlimited_app) as client:
        answer = client.get(
            f"/api/v1/rosters/{stored['id']}/battles?" + "share=true&" * 200,
            headers={"Authorization": f"Bearer {stored['edit_token']}"},
        )
    assert answer.status_code == 414
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["errors"][0]["code"] == "query_too_long"


def test_only_repeated_entry_ids_are_excused() -> None:
    assert repeats_entry_ids({"entries": [{"id": "a"}, {"id": "a"}]})
    assert not repeats_entry_ids({"entries": [{"id": "a"}, {"id": "b"}, {"id": None}, {}]})
    assert not repeats_entry_ids({"entries": [{"id": None}, {"id": None}]})
    assert not repeats_entry_ids([{"id": "a"}, {"id": "a"}])


def test_only_weak_tags_and_format_valid_files_are_excused(
    api_schema: schemathesis.BaseSchema,
) -> None:
    restore = api_schema["/api/v1/rosters/{roster_id}/versions/{version}/restore"]["POST"]
    assert weak_if_match(restore.Case(headers={"If-Match": ' W/"3"'}))
    assert not weak_if_match(restore.Case(headers={"If-Match": '"3"'}))
    assert not weak_if_match(restore.Case())
    odd = {
        "format": "caserne-carnet",
        "format_version": 1,
        "exported_at": "2026-12-01T00:00:00Z",
        "rosters": [{"system": "warhammer", "document": {"system": "warhammer"}}],
    }
    assert a_carnet_file("import_carnet", odd)
    assert not a_carnet_file("import_carnet", {**odd, "rosters": [{"document": {}}]})
    assert not a_carnet_file("import_carnet", [odd])
    assert not a_carnet_file("create_roster", odd)
    answers = ((422, "int_too_large", True), (422, "missing", False), (413, "json_too_deep", False))
    for status, code, excused in answers:
        problem = {"errors": [{"loc": ["body"], "msg": "", "code": code}]}
        answer = SimpleNamespace(status_code=status, content=json.dumps(problem).encode())
        assert beyond_free_json_bounds(answer) is excused, code


def test_a_body_made_valid_is_told_from_a_negative_one(api_schema: schemathesis.BaseSchema) -> None:
    """The excuse above holds only where the document accepts the body."""
    operation = api_schema["/api/v1/systems/bastos/odds"]["POST"]
    assert body_is_valid(operation, {"rep": 7, "test": "end_of_game_recovery"})
    assert not body_is_valid(operation, {"rep": 11, "test": "end_of_game_recovery"})
    assert not body_is_valid(operation, {"rep": 7, "test": "no_such_table"})
    assert not body_is_valid(operation, {"rep": 7})


def test_every_operation_is_fuzzed_in_one_part(api_schema: schemathesis.BaseSchema) -> None:
    """Each operation is in one part of the fuzz (`part_of`), and each part has operations
    and a test file that runs it: none is left out."""
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 60
    assert {part_of(operation) for operation in operations} == set(PARTS)
    for part in PARTS:
        runs = (Path(__file__).parent / f"test_fuzz_{part}.py").read_text()
        assert f'conformance_test("{part}")' in runs, part


def nested(depth: int) -> str:
    """A JSON list nested `depth` deep, as text (Python's json recurses to write it)."""
    return "[" * depth + "]" * depth


def book(definition: str) -> bytes:
    """A book whose one unit's definition is `{"a": <definition>}` (raw JSON text)."""
    unit = '{"id": "x", "name": "X", "text": "", "definition": {"a": ' + definition + "}}"
    return ('{"system": "dcsystem", "name": "Livre", "units": [' + unit + "]}").encode()


def recruited(recruit: str) -> bytes:
    """A battle line recruiting `{"a": <recruit>}` (raw JSON text)."""
    line = '{"date": "2026-12-01", "result": "win", "recruits": [{"a": ' + recruit + "}]}"
    return line.encode()


# Issue 25, item 6: the API requests that were 500s, each sent byte for byte as it was found
# and checked as every generated case is (the fuzz meets them only by chance).
CRAFTED_API_INPUTS = {
    "definition-256-deep": ("/api/v1/books", book(nested(256))),
    "definition-989-deep": ("/api/v1/books", book(nested(989))),
    "definition-nan": ("/api/v1/books", book("NaN")),
    "definition-infinity": ("/api/v1/books", book("Infinity")),
    "definition-1e309": ("/api/v1/books", book("1e309")),
    "recruit-500-deep": ("/api/v1/rosters/{roster_id}/battles", recruited(nested(500))),
}


def test_the_crafted_inputs_of_issue_25(
    api_schema: schemathesis.BaseSchema, stored: dict[str, Any]
) -> None:
    for name, (path, body) in CRAFTED_API_INPUTS.items():
        on_roster = "{roster_id}" in path
        case = api_schema[path]["POST"].Case(
            body=body,
            media_type="application/json",
            path_parameters={"roster_id": stored["id"]} if on_roster else None,
            headers={"Authorization": f"Bearer {stored['edit_token']}", "If-Match": '"1"'}
            if on_roster
            else None,
        )
        response = case.call()
        assert response.status_code == 422, (name, response.text[:300])
        case.validate_response(response)
