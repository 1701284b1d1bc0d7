"""The whole OpenAPI surface under schemathesis: every generated request gets an answer that
matches the document (status, content type, body schema, and every header it carries
declared) and never a 500; every problem's first code is a documented one (issue 28). The
roster routes are reached with a stored roster and its edit token (issue 13, finding 7:
random ids and tokens only ever met 401/404), the carnet routes (the carnet file's export
and import among them) with a stored carnet and its key; the app has no rate limits (a 429
where the document expects a 401 was a flake)."""

import json
from collections.abc import Iterator
from dataclasses import fields
from functools import cache
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import jsonschema_rs
import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    ignored_auth,
    negative_data_rejection,
    positive_data_acceptance,
)
from sqlalchemy import Engine
from sqlmodel import Session

from app.security.ratelimit import Limits
from app.settings import ROOT, Settings
from tests.api.test_openapi_headers import TRANSPORT
from tests.api.test_problem_codes import is_documented
from tests.conftest import Apps

NO_LIMITS = {f"rate_limit_{kind.name}": "" for kind in fields(Limits)}
ROSTER = {"system": "dcsystem", "name": "Fuzz", "entries": [{"unit": "jaffa", "count": 2}]}


@pytest.fixture
def unlimited_app(engine: Engine, session: Session, apps: Apps) -> FastAPI:
    return apps.get(engine, session, **NO_LIMITS)


@pytest.fixture
def stored(unlimited_app: FastAPI) -> Iterator[dict[str, Any]]:
    """A roster stored through the API: its id and edit token."""
    with TestClient(unlimited_app) as client:
        created = client.post("/api/v1/rosters", json=ROSTER)
        assert created.status_code == 201
        TOKEN["token"] = created.json()["edit_token"]
        yield created.json()


@pytest.fixture
def carnet(unlimited_app: FastAPI) -> Iterator[dict[str, Any]]:
    """A carnet made through the API: its id and key (a rotation's case changes the key)."""
    with TestClient(unlimited_app) as client:
        created = client.post("/api/v1/carnets")
        assert created.status_code == 201
        CARNET.update(id=created.json()["id"], key=created.json()["key"])
        yield created.json()


@pytest.fixture
def api_schema(
    unlimited_app: FastAPI, stored: dict[str, Any], carnet: dict[str, Any]
) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_asgi("/openapi.json", unlimited_app, config=CONFIG)


# import_carnet's body is a whole carnet file (every system's documents, books and ledger
# lines): the coverage phase made 12,300 bodies of it, each sent to carnet `0` and
# answered 404 before its body was read (5 minutes of the run, nothing learnt); its cases
# come from the fuzzing phase, on the test's carnet.
CONFIG = SchemathesisConfig.from_dict(
    {
        "operations": [
            {"include-operation-id": "import_carnet", "phases": {"coverage": {"enabled": False}}}
        ]
    }
)


schema = schemathesis.pytest.from_fixture("api_schema")
# Checks that cannot hold on one operation, and why:
EXCUSED = {
    # The body schema is any system's document: one of another system than the stored
    # roster's is schema-valid and a documented 422 (api-v1.md keeps a roster's system).
    "replace_roster": [positive_data_acceptance],
    # A book whose unit ids repeat is schema-valid (JSON Schema cannot say "unique by id")
    # and a documented 422 (api-v1.md « Army books »: ids unique within the book).
    "create_book": [positive_data_acceptance],
    "replace_book": [positive_data_acceptance],
    # A schema-valid battle line the gang's ledger refuses: a fighter index the gang lacks, XP
    # lost outside a correction, a stat its system does not change, a score body of another
    # system (the document types `score` and `recruits` as every system's, issue 28): a
    # documented 422 with the ledger's code; JSON Schema cannot know the stored roster.
    "record_battle": [positive_data_acceptance],
    # A text is free: JSON Schema cannot say « a list that can be read » (an empty text, a
    # list of no system), and such a text is a documented 422 (api-v1.md « Import »).
    "import_roster_text": [positive_data_acceptance],
    # Once the first case deleted the roster, the check's own requests without a token meet
    # a roster that is no more: 404, as documented, not the 401 it expects.
    "delete_roster": [ignored_auth],
}
# The edit token of the roster the current test stored (set by `stored`).
TOKEN: dict[str, str] = {}
# The id and key of the carnet the current test made (set by `carnet`).
CARNET: dict[str, str] = {}


@schema.auth().apply_to(path_regex=r"^/api/v1/rosters/")
class EditToken:
    """The security scheme's bearer: the stored roster's token. Schemathesis also sends
    requests without it or with a wrong one, and checks that they get 401/403."""

    def get(self, case: schemathesis.Case, context: Any) -> str:
        return TOKEN["token"]

    def set(self, case: schemathesis.Case, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@schema.auth(refresh_interval=None).apply_to(path_regex=r"^/api/v1/carnets/")
class CarnetKeyAuth:
    """The carnet's key, read at each case (rotate_carnet_key's cases change it)."""

    def get(self, case: schemathesis.Case, context: Any) -> str:
        return CARNET["key"]

    def set(self, case: schemathesis.Case, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@schema.parametrize()
# Every operation is a subtest of this one test: 4 min of CPU here, 9 min on a loaded
# 2-core machine (pyproject.toml's 600 s is for one test of one thing).
@pytest.mark.timeout(1800)
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_document(case: schemathesis.Case, stored: dict[str, Any]) -> None:
    parameters = case.path_parameters or {}
    # Most cases on the stored roster and carnet; a few on the id generated (a 404 is
    # documented).
    if "roster_id" in parameters and not parameters["roster_id"].startswith("0"):
        parameters["roster_id"] = stored["id"]
    if "carnet_id" in parameters and not parameters["carnet_id"].startswith("0"):
        parameters["carnet_id"] = CARNET["id"]
    operation_id = case.operation.definition.raw["operationId"]
    excused = list(EXCUSED.get(operation_id, []))
    if negative_body_made_valid(case) or a_carnet_file(operation_id, case.body):
        excused.append(negative_data_rejection)
    if repeats_entry_ids(case.body) or weak_if_match(case):
        excused.append(positive_data_acceptance)
    response = case.call()
    if operation_id == "rotate_carnet_key" and response.status_code == 200:
        CARNET["key"] = response.json()["key"]
    if beyond_free_json_bounds(response):
        excused.append(positive_data_acceptance)
    if response.status_code == 414:
        # app/middleware.py refuses a query string over its bound before any route reads
        # it (documented on every operation, test below): a rejection, whatever the
        # schema says of its values (the fuzz found one: 60 `share` values, 3 December).
        sent = urlsplit(str(response.request.url)).query
        assert len(sent.encode()) > Settings().max_query_bytes
        return
    if response.status_code == 413:
        # A body over MAX_BODY_BYTES is refused before it is read (documented `413` on every
        # body route): a carnet file's 2,000 gangs of hundreds of lines each can weigh 14 MB.
        assert len(response.request.body or b"") > Settings().max_body_bytes
        return
    case.validate_response(
        response,
        additional_checks=[declared_headers, documented_code],
        excluded_checks=excused,
    )


def declared_headers(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """Every header of the answer is declared for its status (HTTP's own aside). A status
    the operation does not declare is status_code_conformance's to report, and a method it
    does not have (schemathesis' TRACE, answered 405 with Allow) unsupported_method's."""
    declared = case.operation.definition.raw["responses"].get(str(response.status_code))
    if declared is None or response.request.method != case.operation.method.upper():
        return None
    names = {name.lower() for name in declared.get("headers", {})}
    extra = {name.lower() for name in response.headers} - TRANSPORT - names
    assert not extra, f"{response.status_code}: undeclared headers {sorted(extra)}"
    return None


def documented_code(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """A 4xx or 5xx problem names its error by a code docs/api-codes.md lists."""
    if (
        response.status_code < 400
        or "problem+json" not in response.headers.get("content-type", [""])[0]
    ):
        return None
    errors = json.loads(response.content)["errors"]
    assert errors, f"{response.status_code}: a problem with no errors"
    assert is_documented(errors[0]["code"]), errors[0]
    return None


@cache
def file_format() -> Any:
    """The carnet file's own JSON Schema (docs/carnet-file.schema.json)."""
    return jsonschema_rs.validator_for(
        json.loads((ROOT / "docs" / "carnet-file.schema.json").read_text(encoding="utf-8"))
    )


def a_carnet_file(operation_id: str, body: Any) -> bool:
    """A body the document refuses that the file format takes: the document types a carnet
    file's documents, units and lines as this server's systems' (issue 28), while a file
    may hold lists of another server or of an older catalogue, which are taken and skipped
    one by one (docs/carnet-file.md), never the whole file refused."""
    if operation_id != "import_carnet" or not isinstance(body, dict):
        return False
    return bool(file_format().is_valid(body))


# app/systems/inputs.py free_json_refusal: what no JSON Schema of an open object can bound.
FREE_JSON_BOUNDS = {"json_too_deep", "int_too_large", "finite_number", "invalid_text"}


def beyond_free_json_bounds(response: Any) -> bool:
    """A schema-valid body refused for what its free parts hold: an integer beyond 2**53 in
    a unit definition's key the model does not name, nesting past 16 levels, a lone
    surrogate. JSON Schema says none of it; each is a documented 422 (docs/api-codes.md).
    A run met an integer beyond 2**53 in a carnet file's book unit."""
    if response.status_code != 422:
        return False
    errors = json.loads(response.content).get("errors") or [{}]
    return errors[0].get("code") in FREE_JSON_BOUNDS


def weak_if_match(case: schemathesis.Case) -> bool:
    """A weak If-Match (`W/"3"`) is schema-valid — the header's pattern reads it, to answer
    it 412 rather than 422 — and a documented 412 (RFC 9110: If-Match compares strongly).
    A run over the history routes met it on restore_roster_version."""
    sent = {k.lower(): v for k, v in (case.headers or {}).items()}.get("if-match")
    return isinstance(sent, str) and sent.strip().startswith("W/")


def repeats_entry_ids(body: Any) -> bool:
    """A list whose entries repeat a stable id (issue 17: a fighter's identity in the
    ledger) is schema-valid — JSON Schema cannot say « unique by id » — and a documented
    422, as a book's repeated unit ids are."""
    entries = body.get("entries") if isinstance(body, dict) else None
    if not isinstance(entries, list):
        return False
    ids = [e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]
    return len(ids) != len(set(ids))


def negative_body_made_valid(case: schemathesis.Case) -> bool:
    """A case generated negative in its body alone whose body the document accepts:
    schemathesis decides « negative » at generation, and its shrinker can remove the only
    invalid part (schemathesis#4332). CI met `{"rep": 7, "test": "end_of_game_recovery"}`
    on bastos_odds, a valid query (Rep 0-10, a table id), reported as negative data
    accepted. Checked against the document itself, so a really negative body still counts."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_negative:
        return False
    negative = [where for where, part in meta.components.items() if part.mode.is_negative]
    if negative != [ParameterLocation.BODY]:
        return False
    return body_is_valid(case.operation, case.body)


def body_is_valid(operation: Any, body: Any) -> bool:
    """Whether the document's JSON Schema for the operation's body accepts `body`."""
    content = operation.definition.raw.get("requestBody", {}).get("content", {})
    schema = content.get("application/json", {}).get("schema")
    if schema is None or not isinstance(body, (dict, list, str, int, float)):
        return False
    components = operation.schema.raw_schema.get("components", {})
    validator = jsonschema_rs.Draft202012Validator({**schema, "components": components})
    return bool(validator.is_valid(body))


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
