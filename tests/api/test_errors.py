"""Bad input: 422 problem+json naming the field, never a 500 (api-v1.md, "Errors")."""

import pytest
from fastapi.testclient import TestClient

PROBLEM = "application/problem+json"
COST = "/api/v1/systems/dcsystem/cost"


def problem(response: object) -> dict[str, object]:
    assert response.headers["content-type"] == PROBLEM  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert set(body) == {"type", "title", "status", "detail", "errors"}
    return body  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("body", "loc", "code"),
    [
        ({"level": 4, "items": []}, ["body", "level"], "literal_error"),
        ({"level": 2, "items": ["arme_tir_2", "laser"]}, ["body", "items", 1], "unknown_id"),
        ({"level": "deux", "items": []}, ["body", "level"], "literal_error"),
        ({"level": 2, "items": "arme_tir_2"}, ["body", "items"], "list_type"),
        ({"items": []}, ["body", "level"], "missing"),
        ([1, 2], ["body"], "model_type"),
    ],
)
def test_invalid_unit_names_the_field(
    client: TestClient, body: object, loc: list[object], code: str
) -> None:
    response = client.post(COST, json=body)
    assert response.status_code == 422
    details = problem(response)
    assert details["status"] == 422
    errors = details["errors"]
    assert isinstance(errors, list)
    assert {"loc": loc, "code": code} in [{"loc": e["loc"], "code": e["code"]} for e in errors]


def test_unknown_item_message(client: TestClient) -> None:
    response = client.post(COST, json={"level": 2, "items": ["laser"]})
    assert problem(response)["errors"] == [
        {"loc": ["body", "items", 0], "msg": "unknown item id 'laser'", "code": "unknown_id"}
    ]


def test_broken_json(client: TestClient) -> None:
    response = client.post(
        COST, content=b'{"level": 2,', headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    [error] = problem(response)["errors"]  # type: ignore[misc]
    assert error["code"] == "json_invalid"
    assert error["loc"][0] == "body"


def test_ten_megabyte_body_is_refused_without_reading_it(client: TestClient) -> None:
    body = b'{"level": 2, "items": [' + b'"elite",' * 1_310_000 + b'"elite"]}'
    assert len(body) > 10_000_000
    response = client.post(COST, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert problem(response)["errors"] == [
        {"loc": ["body"], "msg": "body over 1000000 bytes", "code": "body_too_large"}
    ]


def test_chunked_body_over_the_limit_is_refused(client: TestClient) -> None:
    def chunks() -> object:
        for _ in range(20):
            yield b" " * 100_000

    response = client.post(COST, content=chunks(), headers={"Content-Type": "application/json"})  # type: ignore[arg-type]
    assert response.status_code == 413
    assert problem(response)["errors"][0]["code"] == "body_too_large"  # type: ignore[index]


def test_unknown_unit_in_a_roster(client: TestClient) -> None:
    response = client.post(
        "/api/v1/systems/dcsystem/validate",
        json={"system": "dcsystem", "entries": [{"unit": "jaffa"}, {"unit": "dalek"}]},
    )
    assert response.status_code == 422
    assert problem(response)["errors"] == [
        {
            "loc": ["body", "entries", 1, "unit"],
            "msg": "unknown unit id 'dalek'",
            "code": "unknown_id",
        }
    ]


@pytest.mark.parametrize(
    ("entry", "loc"),
    [
        ({"unit": "jaffa", "count": 0}, ["body", "entries", 0, "count"]),
        ({"unit": "jaffa", "custom": {"level": 1}}, ["body", "entries", 0]),
        ({}, ["body", "entries", 0]),
        ({"unit": "jaffa", "colour": "red"}, ["body", "entries", 0, "colour"]),
    ],
)
def test_bad_entries(client: TestClient, entry: dict[str, object], loc: list[object]) -> None:
    response = client.post(
        "/api/v1/systems/dcsystem/validate", json={"system": "dcsystem", "entries": [entry]}
    )
    assert response.status_code == 422
    assert loc in [e["loc"] for e in problem(response)["errors"]]  # type: ignore[union-attr]


def test_score_refuses_negative_kills(client: TestClient) -> None:
    response = client.post(
        "/api/v1/systems/dcsystem/score", json={"format": 200, "kills": {"2": -1}}
    )
    assert response.status_code == 422
    assert problem(response)["errors"][0]["loc"] == ["body", "kills", "2"]  # type: ignore[index]


def test_unknown_system_is_a_404_problem(client: TestClient) -> None:
    response = client.post("/api/v1/systems/warhammer/cost", json={})
    assert response.status_code == 404
    assert problem(response)["detail"] == "Unknown game system 'warhammer'; see /api/v1/systems."


def test_unknown_api_path_is_a_problem(client: TestClient) -> None:
    response = client.get("/api/v1/nothing")
    assert response.status_code == 404
    problem(response)


def test_nul_character_is_refused_not_a_500(client: TestClient) -> None:
    # PostgreSQL cannot store U+0000 in a JSON document: refuse it at the edge.
    response = client.post("/api/v1/rosters", json={"system": "dcsystem", "name": "a\u0000b"})
    assert response.status_code == 422
    assert problem(response)["errors"][0]["loc"] == ["body", "name"]  # type: ignore[index]
