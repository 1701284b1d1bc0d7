"""The stateless calculator through HTTP: exact bodies and statuses (api-v1.md)."""

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

PROBLEM = "application/problem+json"


def test_systems_list(client: TestClient) -> None:
    response = client.get("/api/v1/systems")
    assert response.status_code == 200
    [dcs] = [s for s in response.json() if s["id"] == "dcsystem"]
    assert dcs["has_points"] is True
    assert set(dcs) >= {"id", "name", "rules_version", "has_points"}


def test_cost_of_the_jaffa_with_breakdown(client: TestClient) -> None:
    # L125-127: Jaffa, level 2, Arme de tir niveau 3, arme de corps à corps niveau 1;
    # part F gives 15 + 10 + 3 = 28 (printed 30).
    response = client.post(
        "/api/v1/systems/dcsystem/cost", json={"level": 2, "items": ["arme_tir_3", "arme_cc_1"]}
    )
    assert response.status_code == 200
    assert response.json() == {
        "points": 28,
        "breakdown": [
            {"id": "niveau_2", "label": "Niveau 2", "points": 15},
            {"id": "arme_tir_3", "label": "Arme de tir niveau 3", "points": 10},
            {"id": "arme_cc_1", "label": "Arme de corps à corps niveau 1", "points": 3},
        ],
        "derived": {
            "level": 2,
            "dice": {"red": 3, "blue": 1, "white": 3, "yellow": 1},
            "slots": {"used": 2, "allowed": 2, "handicaps_used": 0, "handicaps_allowed": 1},
            "weapons": [
                {"id": "arme_tir_3", "name": "Arme de tir niveau 3", "type": "tir", "dice": 3},
                {
                    "id": "arme_cc_1",
                    "name": "Arme de corps à corps niveau 1",
                    "type": "cc",
                    "dice": 1,
                },
            ],
        },
        "issues": [],
        "valid": True,
    }


def test_over_the_limit_still_costs_and_says_why(client: TestClient) -> None:
    response = client.post(
        "/api/v1/systems/dcsystem/cost",
        json={"level": 1, "items": ["arme_tir_1", "gilet_de_protection", "lent", "fragile"]},
    )
    assert response.status_code == 200
    body = response.json()
    assert body["points"] == 8 + 5 + 8 - 3 - 7
    assert body["valid"] is False
    assert [(i["code"], i["severity"], i["path"]) for i in body["issues"]] == [
        ("too_many_items", "error", "items"),
        ("too_many_handicaps", "error", "items"),
    ]
    assert body["issues"][0]["message"] == (
        "Niveau 1 : 2 capacités ou équipements pour 1 autorisé(s), 1 de trop."
    )


def test_validate_a_roster(client: TestClient) -> None:
    document = {
        "system": "dcsystem",
        "name": "Feuille de bataille SG",
        "points_limit": 200,
        "entries": [
            {"unit": "chef_de_groupe_sg", "count": 1},
            {
                "custom": {"level": 2, "items": ["arme_tir_2", "gilet_de_protection"]},
                "name": "Marine",
                "count": 3,
            },
        ],
        "extras": {"hidden_moves": ["raid_aerien"]},
    }
    response = client.post("/api/v1/systems/dcsystem/validate", json=document)
    assert response.status_code == 200
    body = response.json()
    assert (body["points"], body["points_limit"], body["valid"]) == (50 + 90 + 15, 200, True)
    assert [(e["name"], e["unit_points"], e["points"]) for e in body["entries"]] == [
        ("Chef de groupe SG", 50, 50),
        ("Marine", 30, 90),
    ]
    assert body["entries"][1]["derived"]["dice"] == {"red": 4, "blue": 1, "white": 2, "yellow": 0}
    assert body["derived"]["hidden_moves"] == [
        {"id": "raid_aerien", "name": "Raid aérien", "points": 15}
    ]


def test_score(client: TestClient) -> None:
    # E.3 (L306-312), format 200.
    response = client.post(
        "/api/v1/systems/dcsystem/score",
        json={
            "format": 200,
            "main_mission": True,
            "secondary_mission": False,
            "kills": {"1": 2, "2": 1, "3": 0},
        },
    )
    assert response.status_code == 200
    assert response.json() == {
        "points": 24,
        "breakdown": [
            {"id": "main_mission", "label": "Mission principale (200/10)", "points": 20},
            {"id": "kills_level_2", "label": "1 ennemi(s) de niveau 2 hors jeu × 2", "points": 2},
            {"id": "kills_level_1", "label": "2 ennemi(s) de niveau 1 hors jeu × 1", "points": 2},
        ],
    }


def test_catalogue_carries_printed_and_computed(client: TestClient) -> None:
    body = client.get("/api/v1/systems/dcsystem/catalogue").json()
    units = {u["id"]: u for u in body["units"]}
    assert len(units) == 33
    jaffa = units["jaffa"]
    assert (jaffa["points"], jaffa["computed_points"], jaffa["kind"]) == (30, 28, "profil")
    assert jaffa["discrepancies"] == [
        "Coût imprimé 30 points ; les règles de création donnent 28 points (15 + 10 + 3)."
    ]
    assert units["membre_groupe_sg"]["discrepancies"] == []
    assert {a["id"] for a in body["armies"]} == {
        "tori",
        "goauld",
        "replicateurs",
        "unas",
        "orii",
        "wraith",
        "autres",
    }
    assert len(body["items"]) == 31 and len(body["hidden_moves"]) == 4


def test_a_body_seen_before_is_answered_from_memory(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engines are pure: the same body gets the same bytes without computing again
    once its answer is kept, from its second sight on (a body sent once is not kept: issue
    29); another body, or a refused one, is computed (and a refusal never remembered)."""
    import app.systems.dcsystem as dcsystem

    calls: list[int] = []
    real = dcsystem.validate_roster

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(dcsystem, "validate_roster", counted)
    # A name of its own: the memory may outlive one test's app (no other test sent it).
    name = f"Mémoire {uuid.uuid4().hex}"
    body = {"system": "dcsystem", "name": name, "entries": [{"unit": "jaffa", "count": 2}]}
    first, second, third, fourth = (
        client.post("/api/v1/systems/dcsystem/validate", json=body) for _ in range(4)
    )
    assert {first.status_code, second.status_code, third.status_code, fourth.status_code} == {200}
    assert first.content == second.content == third.content == fourth.content
    assert len(calls) == 2  # the first and the second sight computed it, not the others
    other_name = f"Autre {uuid.uuid4().hex}"
    other = client.post("/api/v1/systems/dcsystem/validate", json={**body, "name": other_name})
    assert other.json()["points"] == first.json()["points"] and len(calls) == 3
    bad = {**body, "points_limit": 0}
    assert [
        # Three times: an answer is kept at its body's second sight, so the third would tell.
        client.post("/api/v1/systems/dcsystem/validate", json=bad).status_code
        for _ in range(3)
    ] == [422, 422, 422]
