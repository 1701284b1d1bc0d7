"""`POST /api/v1/imports` (api-v1.md « Import, history and the carnet file »): a share link of
this site is answered from that share, exactly; a JSON export taken whole; every refusal a
problem with its code, never a 500; nothing stored."""

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.catalogues import load_books
from app.store.models import Roster
from app.systems.base import AnySystem
from tests.api.test_openapi_fuzz import NO_LIMITS
from tests.api.test_rosters import DOCUMENT, auth, create
from tests.conftest import SYSTEMS, Apps
from tests.imports.generated import generated_lists

IMPORT = "/api/v1/imports"


def imported(client: TestClient, text: str, system: str | None = None, **more: Any) -> Any:
    response = client.post(IMPORT, json={"system": system, "text": text, **more})
    assert response.status_code == 200, response.text
    return response.json()


def refused(client: TestClient, body: dict[str, Any]) -> tuple[int, str, list[Any]]:
    response = client.post(IMPORT, json=body)
    assert response.headers["content-type"] == "application/problem+json"
    error = response.json()["errors"][0]
    return response.status_code, error["code"], error["loc"]


@pytest.fixture
def unlimited(engine: Engine, session: Session, apps: Apps) -> FastAPI:
    return apps.get(engine, session, **NO_LIMITS)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_an_export_with_its_link_is_taken_from_the_share(
    unlimited: FastAPI, systems: dict[str, AnySystem], system_id: str
) -> None:
    """Each example list and 20 generated ones, stored and shared: each of its exports
    (BBCode, Markdown, text with the link; JSON) gives the share's document, field for field."""
    system = systems[system_id]
    documents = [e.document for e in system.example_rosters()]
    documents += generated_lists(system, load_books(systems).get(system_id))
    with TestClient(unlimited) as client:
        for document in documents:
            created = create(client, document)
            code = client.post(f"/api/v1/rosters/{created['id']}/shares", headers=auth(created))
            code = code.json()["code"]
            frozen = client.get(f"/api/v1/shares/{code}").json()["roster"]
            for ext in ("bbcode", "md", "txt", "json"):
                text = client.get(f"/s/{code}.{ext}").text
                answer = imported(client, text)
                assert (answer["format"], answer["share"]) == ("share", code), ext
                assert answer["document"] == frozen, (document["name"], ext)
                assert {line["status"] for line in answer["lines"]} == {"share"}
                assert len(answer["lines"]) == len(text.split("\n"))


def test_nothing_is_stored(client: TestClient, session: Session) -> None:
    before = session.exec(select(func.count()).select_from(Roster)).one()
    answer = imported(client, "3 x Jaffa\nTeal'c")
    assert answer["system"] == "dcsystem" and answer["format"] == "typed"
    assert answer["validation"]["points"] == 3 * 30 + 77
    assert session.exec(select(func.count()).select_from(Roster)).one() == before
    # The caller stores it once it agrees.
    stored = client.post("/api/v1/rosters", json=answer["document"])
    assert stored.status_code == 201 and stored.json()["validation"]["points"] == 167


def test_a_share_gone_is_read_from_its_text(client: TestClient) -> None:
    text = "3 x Jaffa\nhttp://testserver/s/zzzzzzzz\n"
    answer = imported(client, text, "dcsystem")
    assert answer["format"] == "typed" and answer["share"] is None
    assert answer["lost"][0].startswith("le lien de partage de ce texte n'ouvre plus de liste")
    assert [line["status"] for line in answer["lines"]] == ["matched", "ignored", "ignored"]


def test_a_json_document_is_taken_whole(client: TestClient) -> None:
    import json

    answer = imported(client, json.dumps(DOCUMENT))
    assert answer["format"] == "json"
    assert answer["document"] == {
        **DOCUMENT,
        "entries": [{"unit": "jaffa", "count": 6, "name": None, "custom": None, "group": None}],
        "extras": {**DOCUMENT["extras"], "hidden_moves_agreed": False, "costing": "printed"},
    }
    assert answer["lines"][0] == {
        "text": answer["lines"][0]["text"],
        "status": "matched",
        "entry": None,
        "candidates": [],
        "note": "document JSON de Caserne, repris tel quel",
    }


def test_choices_make_unknown_lines_entries(client: TestClient) -> None:
    text = "2 x Jaffa\n3 x Goold"
    first = imported(client, text, "dcsystem")
    assert first["lines"][1]["status"] == "unknown"
    assert first["lines"][1]["candidates"] == [{"id": "goauld", "name": "Goa'uld"}]
    chosen = imported(client, text, "dcsystem", choices={"1": "goauld", "x": "y", "9": "no"})
    assert chosen["lines"][1] == {
        "text": "3 x Goold",
        "status": "matched",
        "entry": 1,
        "candidates": [],
        "note": "choisi : « Goa'uld »",
    }


BAD: list[tuple[dict[str, Any], int, str]] = [
    ({"system": None, "text": "x" * (520 * 1024)}, 413, "import_too_large"),
    ({"system": None, "text": "a\n" * 10_001}, 413, "too_many_lines"),
    ({"system": None, "text": "3 x Jaffa\n" + "a" * 8_001}, 413, "line_too_long"),
    ({"system": None, "text": "3 x Jaffa\u0000"}, 422, "invalid_text"),
    ({"system": None, "text": "   \n\n"}, 422, "empty_import"),
    ({"system": None, "text": "{ pas du JSON"}, 422, "json_invalid"),
    ({"system": None, "text": '{"a": 1}'}, 422, "not_a_list"),
    ({"system": None, "text": '{"a":' * 40 + "1" + "}" * 40}, 422, "json_too_deep"),
    (
        {"system": None, "text": '{"format": "caserne-carnet", "format_version": 1}'},
        422,
        "carnet_file",
    ),
    (
        {"system": None, "text": '{"format": "caserne-carnet", "format_version": 2}'},
        422,
        "format_version",
    ),
    ({"system": None, "text": '{"system": "warhammer", "entries": []}'}, 422, "unknown_system"),
    ({"system": "warhammer", "text": "3 x Jaffa"}, 422, "unknown_system"),
    ({"system": None, "text": "bla bla\nfoo"}, 422, "system_unknown"),
    (
        {"system": "infinity", "text": '{"system": "dcsystem", "entries": []}'},
        422,
        "system_mismatch",
    ),
    (
        {"system": None, "text": '{"system": "dcsystem", "entries": [{"unit": "x"}]}'},
        422,
        "invalid",
    ),
]


@pytest.mark.parametrize(("body", "status", "code"), BAD, ids=[code for _b, _s, code in BAD])
def test_bad_input_is_a_problem_with_its_code(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    assert refused(client, body)[:2] == (status, code)


def test_a_lone_surrogate_is_refused(client: TestClient) -> None:
    body = '{"system": null, "text": "3 x Jaffa \\ud800"}'
    response = client.post(IMPORT, content=body, headers={"Content-Type": "application/json"})
    # pydantic refuses it before the import reads it (its own code, docs/api-codes.md)
    assert (response.status_code, response.json()["errors"][0]["code"]) == (422, "string_unicode")


def test_another_systems_export_is_refused(client: TestClient) -> None:
    text = client.get("/s/nothing.txt")  # no share: use an export made here instead
    assert text.status_code == 404
    created = create(client)
    share = client.post(f"/api/v1/rosters/{created['id']}/shares", headers=auth(created))
    export = client.get(f"/s/{share.json()['code']}.bbcode").text
    status, code, loc = refused(client, {"system": "infinity", "text": export})
    assert (status, code, loc) == (422, "system_mismatch", ["body", "text"])
    elsewhere = export.replace("http://testserver", "https://ailleurs.example")
    assert refused(client, {"system": "bastos", "text": elsewhere})[:2] == (422, "system_mismatch")


def test_hostile_text_is_read_as_text(client: TestClient) -> None:
    text = (
        "[url=javascript:alert(1)]3 x Jaffa[/url]\n"
        "<script>alert(1)</script>\n"
        "999 x Jaffa\n"
        "2 x Te\u202eal'c\n"
    )
    answer = imported(client, text, "dcsystem")
    assert [(line["status"], line["entry"]) for line in answer["lines"]] == [
        ("matched", 0),
        ("unknown", None),
        ("unknown", None),
        ("matched", 1),
        ("ignored", None),
    ]
    assert answer["lines"][2]["note"] == "nombre de figurines refusé : de 1 à 100 par ligne"
    assert answer["lines"][3]["text"] == "2 x Te al'c"  # a direction override is a space
    assert answer["lines"][3]["note"] == "lu comme « Teal'c »"
    assert [(e["unit"], e["count"]) for e in answer["document"]["entries"]] == [
        ("jaffa", 3),
        ("teal_c", 2),
    ]


def test_a_body_not_json_is_refused(client: TestClient) -> None:
    response = client.post(IMPORT, content="3 x Jaffa", headers={"Content-Type": "text/plain"})
    assert response.status_code == 415


def test_every_refusal_code_is_documented() -> None:
    from app.imports.checks import DETAILS
    from tests.api.test_problem_codes import documented_codes

    assert set(DETAILS) - documented_codes() == set()
    assert {code for _body, _status, code in BAD} <= documented_codes()
