"""Infinity through HTTP: the api-v1.md shapes ("### infinity"), the catalogue, cost,
validate, a stored list, its share and its exports, word for word.

Lnn = line of shared/rules/infinity-n2.fr.txt. The troopers are Caserne's invented faction
(data/systems/infinity/catalogue.toml) or invented here.
"""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

API = "/api/v1/systems/infinity"

# The trooper printed in api-v1.md ("### infinity"), unchanged.
CONTRACT_TROOPER: dict[str, Any] = json.loads(
    """{"id": "fusilier", "name": "Fusilier", "orders": "regular", "impetuous": false, "ava": 4,
 "profile": {"MOV": [10, 5], "CC": 13, "TR": 12, "PH": 10, "VOL": 13, "BL": 1, "B": 1},
 "skills": ["ad_combat_jump"],
 "options": [
   {"id": "combi", "name": "Fusil Combi", "points": 10, "swc": 0, "lieutenant": false,
    "equipment": []},
   {"id": "combi_lt", "name": "Fusil Combi (Lieutenant)", "points": 10, "swc": 0,
    "lieutenant": true, "equipment": []},
   {"id": "hmg", "name": "HMG", "points": 20, "swc": 1, "lieutenant": false, "equipment": []}]}"""
)

# A small two-group list of the invented faction, for the stored roster and its exports.
TWO_GROUPS: dict[str, Any] = {
    "system": "infinity",
    "name": "Patrouille [test]",
    "points_limit": 100,
    "entries": [
        {"unit": "sergent_veteran", "option": "fusil_lourd_lt", "group": 1},
        {"unit": "garde_de_brumeval", "option": "fusil", "count": 2, "group": 1},
        {"unit": "chirurgienne_de_campagne", "option": "pistolet", "group": 1},
        {"unit": "sauteur_de_brume", "option": "fusil", "group": 2, "reserve": True},
        {"unit": "ecorcheur_des_marais", "option": "lames", "group": 2},
    ],
    "extras": {"ava": True},
}


def test_catalogue_every_item_has_an_id_a_name_and_a_kind(client: TestClient) -> None:
    response = client.get(f"{API}/catalogue")
    assert response.status_code == 200
    body = response.json()
    assert body["system"] == "infinity"
    assert [f["invented"] for f in body["factions"]] == [True]
    assert "inventée par Caserne" in body["factions"][0]["note"]
    kinds = {
        key: {item["kind"] for item in value}
        for key, value in body.items()
        if isinstance(value, list)
    }
    assert kinds == {
        "factions": {"faction"},
        "skills": {"competence"},
        "equipment": {"equipement"},
        "units": {"soldat"},
        "examples": {"exemple"},
        "notes": {"decision"},
    }
    assert {"ad_combat_jump", "docteur", "paramedical", "hacker"} <= {
        s["id"] for s in body["skills"]
    }
    assert {"mines", "repeteur_deployable"} <= {e["id"] for e in body["equipment"]}
    garde = next(u for u in body["units"] if u["id"] == "garde_de_brumeval")
    assert garde["ava"] is None  # Total (L79)
    assert garde["profile"] == {
        "MOV": [10, 5], "CC": 12, "TR": 11, "PH": 10, "VOL": 12, "BL": 1, "B": 1
    }  # fmt: skip
    assert [(o["id"], o["points"], o["swc"], o["lieutenant"]) for o in garde["options"]] == [
        ("fusil", 9, 0, False),
        ("fusil_lt", 9, 0, True),
        ("lance_grenades", 12, 0.5, False),
        ("mitrailleuse", 18, 1, False),
    ]
    note = next(n for n in body["notes"] if n["id"] == "swc_par_tranche")
    assert note["name"] == "1 SWC par tranche complète de 50 points du format"


def test_openapi_names_the_models_after_the_system(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    paths = client.get("/openapi.json").json()["paths"]
    cost = paths[f"{API}/cost"]["post"]
    assert cost["operationId"] == "infinity_cost"
    assert cost["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/InfinityCostRequest"
    )
    for name in ("InfinityTrooperCost", "InfinityResult", "InfinityRoster", "InfinityCatalogue"):
        assert name in schemas
    assert f"{API}/score" not in paths  # the text gives no end-of-game score


def test_cost_of_the_contract_trooper(client: TestClient) -> None:
    """api-v1.md: `{"unit": <trooper>, "option": "hmg"}` → points, breakdown, derived.swc."""
    response = client.post(f"{API}/cost", json={"unit": CONTRACT_TROOPER, "option": "hmg"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["points"] == 20
    assert body["breakdown"] == [{"id": "hmg", "label": "Fusilier : HMG (SWC 1)", "points": 20}]
    assert body["derived"] == {
        "unit": "fusilier",
        "option": "hmg",
        "orders": "regular",
        "impetuous": False,
        "ava": 4,
        "swc": 1,
        "lieutenant": False,
        "airborne": True,  # ad_combat_jump (L19-20)
        "medic": False,
        "hacker": False,
        "mines": 0,
        "repeaters": 0,
    }
    assert body["issues"] == [] and body["valid"] is True


def test_cost_swc_in_halves_is_exact(client: TestClient) -> None:
    option = {
        "id": "lm",
        "name": "Lance-missiles",
        "points": 27,
        "swc": 1.5,
        "equipment": ["mines"],
    }
    unit = {**CONTRACT_TROOPER, "options": [option]}
    body = client.post(f"{API}/cost", json={"unit": unit, "option": "lm"}).json()
    assert (body["points"], body["derived"]["swc"], body["derived"]["mines"]) == (27, 1.5, 3)
    refused = client.post(
        f"{API}/cost", json={"unit": {**unit, "options": [{**option, "swc": 0.3}]}, "option": "lm"}
    )
    assert refused.status_code == 422


def test_cost_of_an_unknown_option_is_an_issue(client: TestClient) -> None:
    body = client.post(f"{API}/cost", json={"unit": CONTRACT_TROOPER, "option": "nope"}).json()
    assert body["points"] == 0 and body["valid"] is False
    assert [(i["code"], i["path"]) for i in body["issues"]] == [("unknown_option", "option")]


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ({"ava": "Total"}, 422),  # null is Total, not a string (api-v1.md)
        ({"orders": "veteran"}, 422),
        ({"profile": {"MOV": [10], "CC": 1, "TR": 1, "PH": 1, "VOL": 1, "BL": 0, "B": 1}}, 422),
        ({"options": []}, 422),
    ],
)
def test_malformed_troopers_are_refused(
    client: TestClient, change: dict[str, Any], status: int
) -> None:
    body = {"unit": {**CONTRACT_TROOPER, **change}, "option": "hmg"}
    assert client.post(f"{API}/cost", json=body).status_code == status


def test_validate_the_contract_roster(client: TestClient) -> None:
    """The roster document of api-v1.md, with its `para` given in extras.units."""
    para = {
        **CONTRACT_TROOPER,
        "id": "para",
        "name": "Para",
        "options": [{"id": "fusil", "name": "Fusil", "points": 15}],
    }
    document = {
        "system": "infinity",
        "name": "Compagnie",
        "points_limit": 300,
        "entries": [
            {"unit": "fusilier", "option": "combi_lt", "count": 1, "group": 1},
            {"unit": "fusilier", "option": "hmg", "count": 2, "group": 1},
            {"unit": "para", "option": "fusil", "count": 1, "group": 2, "reserve": True},
        ],
        "extras": {"units": [CONTRACT_TROOPER, para], "ava": True},
    }
    response = client.post(f"{API}/validate", json=document)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["points"] == 10 + 2 * 20 + 15
    derived = body["derived"]
    assert derived["swc"] == {"used": 2, "available": 6}  # L81: 300 -> 6
    assert derived["troopers"] == 4
    assert derived["groups"] == [
        {"group": 1, "troopers": 3, "pool": 3, "pool_at_deployment": 3,
         "irregular_orders": 0, "impetuous_orders": 0},
        {"group": 2, "troopers": 1, "pool": 1, "pool_at_deployment": 0,
         "irregular_orders": 0, "impetuous_orders": 0},
    ]  # fmt: skip
    assert derived["lieutenant"] == "Fusilier"
    # No medic in the list: a warning (L130), the list stays valid.
    assert [(i["severity"], i["code"]) for i in body["issues"]] == [("warning", "no_medic")]
    assert body["valid"] is True


def test_validate_reports_the_contract_issue_codes(client: TestClient) -> None:
    """SWC 6.5 for 6 (L81), two Lieutenants (L83), one of them in reserve (L20, L84), a
    trooper in reserve without AD (L20), 11 in one group (L85), AVA exceeded (L76)."""
    document = {
        "system": "infinity",
        "points_limit": 300,
        "entries": [
            {"unit": "sauteur_de_brume", "option": "fusil_lt", "reserve": True},
            {"unit": "sergent_veteran", "option": "fusil_lourd_lt"},
            {"unit": "garde_de_brumeval", "option": "mitrailleuse", "count": 4},
            {"unit": "sapeur_des_tourbieres", "option": "lance_missiles"},
            {"unit": "garde_de_brumeval", "option": "fusil", "count": 4},
            {"unit": "tisseuse_de_code", "option": "fusil", "count": 2, "reserve": True},
        ],
    }
    body = client.post(f"{API}/validate", json=document).json()
    assert body["valid"] is False
    assert body["derived"]["swc"] == {"used": 6.5, "available": 6}
    assert sorted(i["code"] for i in body["issues"]) == [
        "ava_exceeded",
        "combat_group_too_large",
        "no_medic",
        "several_lieutenants",
        "swc_over_limit",
    ]
    assert [(i["code"], i["path"]) for i in body["entries"][0]["issues"]] == [
        ("lieutenant_in_reserve", "entries[0].reserve")
    ]
    assert [(i["code"], i["path"]) for i in body["entries"][5]["issues"]] == [
        ("reserve_without_airborne", "entries[5].reserve")
    ]


def test_stored_roster_share_and_exports(client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json=TWO_GROUPS)
    assert created.status_code == 201, created.text
    body = created.json()
    validation = body["validation"]
    assert (validation["points"], validation["valid"]) == (26 + 18 + 14 + 24 + 12, True)
    assert validation["derived"]["swc"] == {"used": 1, "available": 2}  # L81: 100 -> 2
    assert [
        (g["group"], g["troopers"], g["pool"], g["pool_at_deployment"], g["irregular_orders"],
         g["impetuous_orders"])
        for g in validation["derived"]["groups"]
    ] == [(1, 4, 4, 4, 0, 0), (2, 2, 1, 0, 1, 1)]  # fmt: skip
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    shared = client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth)
    assert shared.status_code == 201
    code = shared.json()["code"]
    snapshot = client.get(f"/api/v1/shares/{code}").json()
    summary = snapshot["summary"]
    assert [(b["id"], b["used"], b["limit"]) for b in summary["budgets"]] == [
        ("swc", 1, 2),
        ("points", 94, 100),
    ]
    assert [(t["value"], t["label"]) for t in summary["totals"]] == [
        ("6", "figurines"),
        ("4", "ordres au groupe 1"),
        ("1", "ordre au groupe 2, 0 au déploiement, + 1 irrégulier, + 1 impétueux"),
    ]
    url = f"http://testserver/s/{code}"
    assert client.get(f"/s/{code}.bbcode").text == (
        "[b]Patrouille ［test］[/b] — Infinity N2 — construction d'armée\n"
        "[b]Total : SWC 1/2 | points 94/100[/b]\n"
        "\n"
        "[u]GROUPE 1 — 4 figurines · 4 ordres[/u]\n"
        "[b]1 × Sergent vétéran (Lieutenant, Fusil lourd)[/b] — 26 pts\n"
        "MOV 10-5 CC 15 TR 13 PH 11 VOL 14 BL 2 B 1 — Courage — "
        "[color=#1f5fa8]SWC 1[/color], [color=#7d6608]Lieutenant[/color]\n"
        "[b]2 × Garde de Brumeval (Fusil d'assaut)[/b] — 9 pts chacun, 18 pts\n"
        "MOV 10-5 CC 12 TR 11 PH 10 VOL 12 BL 1 B 1 — [color=#1f5fa8]SWC 0[/color]\n"
        "[b]1 × Chirurgienne de campagne (Pistolet)[/b] — 14 pts\n"
        "MOV 10-5 CC 11 TR 10 PH 10 VOL 14 BL 1 B 1 — Docteur — [color=#1f5fa8]SWC 0[/color]\n"
        "[u]GROUPE 2 — 2 figurines · 1 ordre (0 au déploiement), 1 irrégulier, 1 impétueux[/u]\n"
        "[b]1 × Sauteur de brume (Fusil d'assaut)[/b] — 24 pts\n"
        "MOV 10-5 CC 14 TR 12 PH 12 VOL 13 BL 2 B 1 — AD : Combat Jump — "
        "[color=#1f5fa8]SWC 0[/color], [color=#1e7b46]En réserve (AD)[/color]\n"
        "[b]1 × Écorcheur des marais (Lames jumelles)[/b] — 12 pts\n"
        "MOV 15-5 CC 17 TR 9 PH 13 VOL 11 BL 0 B 1 — Frénésie — [color=#1f5fa8]SWC 0[/color], "
        "[color=#5f6b7a]Irrégulier[/color], [color=#b3261e]Impétueux[/color]\n"
        "[size=85]Lieutenant : Sergent vétéran (Lieutenant, Fusil lourd), groupe 1.[/size]\n"
        "[size=85]Compagnie franche de Brumeval : Faction d'exemple inventée par Caserne, aucun "
        "profil de Corvus Belli : noms, caractéristiques, coûts, SWC et AVA sont fictifs et "
        "servent seulement à essayer le constructeur.[/size]\n"
        "\n"
        f"[url={url}]Voir cette liste sur Caserne[/url]\n"
    )
    text = client.get(f"/s/{code}.txt").text
    assert text.startswith(
        "Patrouille [test]\n"
        "Infinity N2 — construction d'armée\n"
        "Total : SWC 1/2 | points 94/100\n"
        "\n"
        "\n"
        "GROUPE 1 — 4 figurines · 4 ordres :\n"
        "1 x Sergent vétéran (Lieutenant, Fusil lourd) - 26 pts\n"
        "    MOV 10-5 CC 15 TR 13 PH 11 VOL 14 BL 2 B 1 - Courage - SWC 1 - Lieutenant\n"
        "2 x Garde de Brumeval (Fusil d'assaut) - 9 pts chacun, 18 pts\n"
    )
    assert (
        "\nGROUPE 2 — 2 figurines · 1 ordre (0 au déploiement), 1 irrégulier, 1 impétueux :\n"
        "1 x Sauteur de brume (Fusil d'assaut) - 24 pts\n"
        "    MOV 10-5 CC 14 TR 12 PH 12 VOL 13 BL 2 B 1 - AD : Combat Jump - SWC 0 - "
        "En réserve (AD)\n"
    ) in text
    markdown = client.get(f"/s/{code}.md").text
    assert "**Total : SWC 1/2 | points 94/100**\n" in markdown
    assert "\n## GROUPE 1 — 4 figurines · 4 ordres\n\n- **1 × Sergent vétéran" in markdown
    assert "\n## GROUPE 2 — 2 figurines · 1 ordre " in markdown
    page = client.get(f"/s/{code}")
    assert page.status_code == 200
    assert page.text.count('<tr class="group">') == 2
    assert "GROUPE 2 — 2 figurines · 1 ordre (0 au déploiement), 1 irrégulier" in page.text


def test_a_list_of_its_own_troopers_swc_in_halves(client: TestClient) -> None:
    """extras.units: the player's troopers; three options at 0.5 and one at 1 make 2.5
    exactly; without a points limit, the army's own points give the SWC (decision 3)."""
    trooper = {
        **CONTRACT_TROOPER,
        "options": [
            {"id": "a", "name": "A", "points": 25, "swc": 0.5, "lieutenant": True},
            {"id": "b", "name": "B", "points": 25, "swc": 1},
        ],
    }
    document = {
        "system": "infinity",
        "entries": [
            {"unit": "fusilier", "option": "a"},
            {"unit": "fusilier", "option": "a", "count": 2, "group": 2},
            {"unit": "fusilier", "option": "b"},
        ],
        "extras": {"units": [trooper], "ava": False},
    }
    body = client.post(f"{API}/validate", json=document).json()
    assert body["points"] == 100
    assert body["derived"]["swc"] == {"used": 2.5, "available": 2}
    codes = sorted(i["code"] for i in body["issues"])
    # 3 Lieutenants; AVA 4 not enforced in an introductory game (L78).
    assert codes == ["no_medic", "several_lieutenants", "swc_over_limit"]
