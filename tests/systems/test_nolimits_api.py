"""No Limits through HTTP: the api-v1.md unit definition as written, refusals, catalogue.

Lnnn = line of shared/rules/no-limits.fr.txt.
"""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

COST = "/api/v1/systems/nolimits/cost"

# The body printed in api-v1.md ("nolimits unit definition"), unchanged.
CONTRACT_EXAMPLE: dict[str, Any] = {
    "profile": {"AC": 9, "CT": 5, "CC": 5, "FO": 4, "EN": 5, "PV": 1, "CO": 5, "SV": 2},
    "size": "moyenne",
    "weapons": [
        "fusil_d_assaut",
        {"name": "Lame", "melee": True, "CU": 4, "CdA": 1, "FO": 1, "DG": 1, "rules": []},
        {
            "name": "Pistolet",
            "CU": 3,
            "PC": [6, 1],
            "PI": [12, 0],
            "PL": [18, -1],
            "CdA": 1,
            "FO": 5,
            "DG": 1,
            "rules": [],
        },
    ],
    "abilities": ["determine", {"name": "Sang-froid", "points": 4}],
    "vehicle": None,
}


def test_the_contract_example_costs(client: TestClient) -> None:
    response = client.post(COST, json=CONTRACT_EXAMPLE)
    assert response.status_code == 200, response.text
    body = response.json()
    # Fantassin profile 15 (L119), Fusil d'assaut 13, Lame 3 (the origin's sword), Pistolet
    # 8 (FO 5: 3, 36": 3, CU 3: 2), Déterminé 2, Sang-froid 4 (house rule).
    assert body["points"] == 15 + 13 + 3 + 8 + 2 + 4
    assert sum(line["points"] for line in body["breakdown"]) == body["points"]
    assert [(w["name"], w["CU"], w["FO"], w["MA"]) for w in body["derived"]["weapons"]] == [
        ("Fusil d'assaut", 4, 6, -2),  # L149, L176
        ("Lame", 4, 5, -1),  # 4 + 1 (L170), L175
        ("Pistolet", 3, 5, -1),
    ]
    assert body["derived"]["damage_track"] is None
    assert body["valid"] is True
    assert [(i["severity"], i["code"], i["path"]) for i in body["issues"]] == [
        ("warning", "house_rule", "abilities[1]")
    ]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"weapons": ["fusil_laser"]}, "unknown_id"),
        ({"abilities": ["telepathie"]}, "unknown_id"),
        ({"profile": {**CONTRACT_EXAMPLE["profile"], "PV": 0}}, "greater_than_equal"),
        ({"size": "geante"}, "literal_error"),
        ({"weapons": [{**CONTRACT_EXAMPLE["weapons"][2], "PC": [6]}]}, "missing"),
        ({"weapons": [{**CONTRACT_EXAMPLE["weapons"][2], "CU": "3"}]}, "int_type"),
        ({"weapons": [{**CONTRACT_EXAMPLE["weapons"][2], "MPA": 2}]}, "less_than_equal"),
        ({"colour": "rouge"}, "extra_forbidden"),
    ],
)
def test_bad_input_is_refused(client: TestClient, change: dict[str, Any], code: str) -> None:
    response = client.post(COST, json={**CONTRACT_EXAMPLE, **change})
    assert response.status_code == 422
    assert code in [error["code"] for error in response.json()["errors"]]


def test_catalogue(client: TestClient) -> None:
    body = client.get("/api/v1/systems/nolimits/catalogue").json()
    assert {p["id"]: p["points"] for p in body["profiles"]} == {
        "sergent": 49,
        "fantassin": 28,
        "titan_destroyer": 350,
    }
    assert {a["id"]: a["points"] for a in body["abilities"]} == {
        "pertes_acceptables": 6,
        "adepte": 14,
        "agile": 2,
        "frenesie": 1,
        "determine": 2,
        "esquive": 3,
        "evasion": 12,
        "infaillible": 2,
    }
    assert [c["id"] for c in body["characteristics"]] == [
        "ac", "ct", "cc", "fo", "en", "pv", "co", "sv",
    ]  # fmt: skip
    assert all(c["reason"] for c in body["characteristics"] + body["coefficients"])
    assert [u["id"] for u in body["units"]] == [
        "section_de_fantassins",
        "sergent_personnage",
        "titan_destroyer",
    ]


def test_validate_and_score(client: TestClient) -> None:
    document = {
        "system": "nolimits",
        "points_limit": 1000,
        "entries": [
            {"unit": "sergent_personnage", "general": True},
            {"unit": "section_de_fantassins", "count": 9, "battle_standard": True},
        ],
    }
    response = client.post("/api/v1/systems/nolimits/validate", json=document)
    assert response.status_code == 200
    body = response.json()
    assert body["points"] == 49 + 9 * 28
    # Nine fantassins, over the section's "De 4 à 8" (L120): a guideline ("en général",
    # L89), so a warning, given on the entry only.
    assert body["valid"] is True
    assert body["issues"] == []
    assert [(i["severity"], i["code"], i["path"]) for i in body["entries"][1]["issues"]] == [
        ("warning", "unit_size", "entries[1].count")
    ]
    score = client.post(
        "/api/v1/systems/nolimits/score",
        json={"eliminated": [{"points": 28, "count": 3}], "general_points": 49},
    )
    assert score.status_code == 200
    assert score.json()["points"] == 3 * 28 + 2 * 49  # L359, L364


def test_building_endpoint(client: TestClient) -> None:
    # L281 "béton 8 6 2 par 1”": 5" of concrete.
    response = client.post(
        "/api/v1/systems/nolimits/building", json={"material": "beton", "size_in": 5}
    )
    assert response.status_code == 200
    assert response.json() == {
        "material": "beton",
        "name": "Béton",
        "size_in": 5,
        "EN": 8,
        "SV": 6,
        "PV": 10,
    }
    unknown = client.post(
        "/api/v1/systems/nolimits/building", json={"material": "bois2", "size_in": 5}
    )
    assert unknown.status_code == 422
    assert unknown.json()["errors"][0]["code"] == "unknown_id"
    assert client.get("/api/v1/systems/nolimits/building").status_code == 405


def test_validate_reports_each_issue_once(client: TestClient) -> None:
    # The Titan's four unprinted items (L230-233) come out four times, on its entry.
    document = client.get("/api/v1/systems/nolimits/catalogue").json()["examples"][0]["document"]
    body = client.post("/api/v1/systems/nolimits/validate", json=document).json()
    assert body["issues"] == []
    assert json.dumps(body).count('"unpriced_equipment"') == 4
