"""Free JSON (a battle's `recruits` and `score`; a book unit's `definition` before its
system's model reads it): what no model types is bounded where it enters — nested at most
JSON_MAX_DEPTH deep, its numbers finite and within 2**53 — and refused as a 422 problem
naming the field, before anything copies, dumps or stores it (issue 25, item 6: a
definition nested 256-989 deep was a 500 in `model_dump`, a recruit nested 500 deep a 500
in `copy.deepcopy`, and a definition's NaN, Infinity and 1e309 were stored as null)."""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.systems.inputs import JSON_MAX_DEPTH
from tests.api.test_books import BOOK, create_book, token
from tests.api.test_campaigns import orlocks, stored

JSON = {"Content-Type": "application/json"}


def nested(depth: int) -> str:
    """A JSON list nested `depth` deep: `[[...]]`."""
    return "[" * depth + "]" * depth


def book_with_definition(definition: str) -> str:
    """BOOK with one unit whose definition is `{"a": <definition>}`, as raw JSON text (a
    NaN or 1e309 has no other spelling)."""
    unit = '{"id": "x", "name": "X", "text": "", "definition": {"a": ' + definition + "}}"
    return json.dumps({**BOOK, "units": []}).removesuffix("[]}") + f"[{unit}]}}"


def refusal(response: Any) -> tuple[list[Any], str]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    first = response.json()["errors"][0]
    return first["loc"], first["code"]


@pytest.mark.parametrize("depth", [256, 300, 500, 989])
def test_a_definition_nested_deep_is_a_422_problem(client: TestClient, depth: int) -> None:
    created = client.post(
        "/api/v1/books", content=book_with_definition(nested(depth)), headers=JSON
    )
    loc, code = refusal(created)
    # 989 is past what the parser takes (its own 422); the others are refused by the bound.
    if depth < 900:
        assert (loc, code) == (["body", "units", 0, "definition"], "json_too_deep")


def test_a_definition_at_the_bound_is_left_to_its_model_one_past_it_refused(
    client: TestClient,
) -> None:
    """A definition is its system's unit (issue 28): within the bound its model answers (a
    DCSystem unit has a `level`), past it the bound does, before the model reads it."""
    # {"a": [...]}: the definition is one level, its list the rest.
    within = client.post(
        "/api/v1/books", content=book_with_definition(nested(JSON_MAX_DEPTH - 1)), headers=JSON
    )
    assert refusal(within) == (["body", "units", 0, "definition", "level"], "missing")
    past = client.post(
        "/api/v1/books", content=book_with_definition(nested(JSON_MAX_DEPTH)), headers=JSON
    )
    assert refusal(past) == (["body", "units", 0, "definition"], "json_too_deep")


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e309", "9007199254740993"])
def test_a_definition_number_is_finite_or_refused(client: TestClient, number: str) -> None:
    """As a roster refuses them (a count of NaN or 1e309 is a 422): never stored as null."""
    created = client.post("/api/v1/books", content=book_with_definition(number), headers=JSON)
    code = "int_too_large" if number.isdecimal() else "finite_number"
    assert refusal(created) == (["body", "units", 0, "definition"], code)
    # Nor through a replacement: the stored book is unchanged.
    book = create_book(client)
    replaced = client.put(
        f"/api/v1/books/{book['id']}",
        content=book_with_definition(number),
        headers={**token(book), "If-Match": '"1"', **JSON},
    )
    assert refusal(replaced)[1] == code
    read = client.get(f"/api/v1/books/{book['id']}", headers=token(book)).json()
    assert read["version"] == 1 and read["book"] == BOOK
    # A roster says the same of its own numbers.
    roster = '{"system": "dcsystem", "name": "F", "entries": [{"unit": "jaffa", "count": %s}]}'
    assert refusal(client.post("/api/v1/rosters", content=roster % number, headers=JSON))[0] == [
        "body",
        "entries",
        0,
        "count",
    ]


def record(client: TestClient, gang: dict[str, Any], body: str) -> Any:
    return client.post(
        f"/api/v1/rosters/{gang['id']}/battles",
        content=body,
        headers={"Authorization": f"Bearer {gang['edit_token']}", "If-Match": '"1"', **JSON},
    )


@pytest.mark.parametrize("depth", [300, 500, 900])
def test_a_recruit_nested_deep_is_a_422_problem(client: TestClient, depth: int) -> None:
    gang = stored(client, orlocks())
    line = '{"date": "2026-12-01", "result": "win", "recruits": [{"name": "R", "a": %s}]}'
    assert refusal(record(client, gang, line % nested(depth))) == (
        ["body", "recruits", 0],
        "json_too_deep",
    )
    score = '{"date": "2026-12-01", "result": "win", "score": {"a": %s}}'
    assert refusal(record(client, gang, score % nested(depth))) == (
        ["body", "score"],
        "json_too_deep",
    )
    line = '{"date": "2026-12-01", "result": "win", "recruits": [{"name": "R", "xp": NaN}]}'
    assert refusal(record(client, gang, line)) == (["body", "recruits", 0], "finite_number")
    # Nothing was recorded: the gang is still at version 1, its ledger empty.
    read = client.get(
        f"/api/v1/rosters/{gang['id']}/battles",
        headers={"Authorization": f"Bearer {gang['edit_token']}"},
    )
    assert read.json() == {"battles": []}
