"""Inputs read exactly as sent (issue 14, findings 2-4): `true` is no number, an error's path
is the one the client sent, and a calculator reads only a body sent as JSON."""

import pytest
from fastapi.testclient import TestClient

PROBLEM = "application/problem+json"
FIGHTER = {"profile": {"AC": 9, "CT": 5, "CC": 5, "FO": 4, "EN": 5, "PV": 1, "CO": 5, "SV": 2}}


def errors(response: object) -> list[dict[str, object]]:
    assert response.status_code == 422, response.text  # type: ignore[attr-defined]
    assert response.headers["content-type"] == PROBLEM  # type: ignore[attr-defined]
    return response.json()["errors"]  # type: ignore[attr-defined, no-any-return]


@pytest.mark.parametrize(
    ("url", "body", "loc"),
    [
        # api-v1.md: `{"level": 1|2|3, ...}`; `true` was priced as level 1.
        ("/api/v1/systems/dcsystem/cost", {"level": True, "items": []}, ["body", "level"]),
        (
            "/api/v1/systems/bastos/odds",
            {"test": "shooting", "rep": 4, "weapon": "revolver", "target_rank": True},
            ["body", "target_rank"],
        ),
        (
            "/api/v1/systems/bastos/odds",
            {"test": "zombie_appears", "infestation": True},
            ["body", "infestation"],
        ),
        (
            "/api/v1/rosters",
            {
                "system": "dcsystem",
                "name": "x",
                "entries": [{"custom": {"level": True, "items": []}}],
            },
            ["body", "entries", 0, "custom", "level"],
        ),
    ],
)
def test_true_is_not_a_number(
    client: TestClient, url: str, body: dict[str, object], loc: list[object]
) -> None:
    found = errors(client.post(url, json=body))
    assert {"loc": loc, "code": "int_type"} in [{"loc": e["loc"], "code": e["code"]} for e in found]


def test_false_is_not_level_zero_either(client: TestClient) -> None:
    found = errors(client.post("/api/v1/systems/dcsystem/cost", json={"level": False}))
    assert ["body", "level"] in [e["loc"] for e in found]


@pytest.mark.parametrize(
    ("url", "body", "loc", "detail"),
    [
        (
            "/api/v1/systems/nolimits/cost",
            {**FIGHTER, "weapons": [{"name": "Lame", "melee": True, "CU": 4, "CdA": "x"}]},
            ["body", "weapons", 0, "CdA"],
            "weapons[0].CdA: Input should be a valid integer",
        ),
        (
            "/api/v1/systems/nolimits/cost",
            {**FIGHTER, "abilities": [{"ref": "determine"}]},
            ["body", "abilities", 0, "ref"],
            "abilities[0].name: Field required",
        ),
        (
            "/api/v1/systems/bastos/odds",
            {"test": "melee", "figure": {"rep": 4}, "opponent": {"rep": "x"}},
            ["body", "opponent", "rep"],
            "opponent.rep: Input should be a valid integer",
        ),
        (
            "/api/v1/rosters",
            {"system": "dcsystem", "name": "a\u0000b"},
            ["body", "name"],
            "name: String should match pattern",
        ),
    ],
)
def test_error_paths_are_what_the_client_sent(
    client: TestClient, url: str, body: dict[str, object], loc: list[object], detail: str
) -> None:
    response = client.post(url, json=body)
    found = errors(response)
    assert loc in [e["loc"] for e in found]
    # No union branch ("object", "str", "function-after[...]") nor tag ("melee") anywhere.
    for error in found:
        assert not {"object", "str", "melee", "dcsystem"} & set(map(str, error["loc"])), error
    assert response.json()["detail"].startswith(detail)


def test_a_missing_field_is_named(client: TestClient) -> None:
    found = errors(client.post("/api/v1/systems/dcsystem/cost", json={"items": []}))
    assert found[0]["loc"] == ["body", "level"]
    found = errors(client.post("/api/v1/systems/bastos/odds", json={"test": "melee"}))
    assert sorted(e["loc"] for e in found) == [["body", "figure"], ["body", "opponent"]]


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/systems/dcsystem/cost",
        "/api/v1/systems/dcsystem/validate",
        "/api/v1/systems/dcsystem/score",
        "/api/v1/systems/bastos/odds",
    ],
)
@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_calculators_read_only_json(client: TestClient, url: str, content_type: str | None) -> None:
    # A cross-site HTML form can post text/plain (or no type at all, with fetch's no-cors):
    # such a body is never read as JSON.
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post(url, content=b'{"level": 2, "items": []}', headers=headers)
    assert response.status_code == 415
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["errors"] == [
        {
            "loc": ["header", "content-type"],
            "msg": "expected application/json",
            "code": "unsupported_media_type",
        }
    ]


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8"])
def test_calculators_read_json(client: TestClient, content_type: str) -> None:
    response = client.post(
        "/api/v1/systems/dcsystem/cost",
        content=b'{"level": 2, "items": []}',
        headers={"Content-Type": content_type},
    )
    assert response.status_code == 200
    assert response.json()["points"] == 10  # 15 - 5 (Équilibre, L353-354)
