"""Necromunda–Warzone through the API: catalogue, cost, validate, the shooting helper, and a
stored gang shared and exported, with no points anywhere (api-v1.md, "Systems without
points", "### necrowarzone"). Lnn = line of shared/rules/necromunda-warzone.fr.txt.
"""

from typing import Any

import pytest
from fastapi.testclient import TestClient

API = "/api/v1/systems/necrowarzone"
PROBLEM = "application/problem+json"
# api-v1.md's figure: a chef with 63 XP, CT 4, Cd 8.
CHEF: dict[str, Any] = {
    "leader": True,
    "xp": 63,
    "light_wounds": 0,
    "profile": {"M": 4, "CC": 4, "CT": 4, "F": 3, "E": 3, "PV": 1, "I": 4, "A": 1, "Cd": 8},
    "weapons": [{"name": "Pistolet laser", "heavy": False, "hit_modifier": 0}],
    "heavy_equipment": False,
}
GANGER = {**CHEF, "leader": False, "xp": 23, "profile": {**CHEF["profile"], "CT": 3, "Cd": 7}}
CONTRACT_FIGURE = ("actions", "to_hit", "encumbered", "command_radius")
CONTRACT_GANG = ("figures", "actions_total", "xp_total", "initiative_xp", "rout_threshold")


def figure(**changes: Any) -> dict[str, Any]:
    return {**GANGER, **changes}


def gang(*entries: dict[str, Any], **document: Any) -> dict[str, Any]:
    return {"system": "necrowarzone", "entries": list(entries), **document}


def codes(issues: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(i["severity"], i["code"], i["path"]) for i in issues]


def test_listed_without_points(client: TestClient) -> None:
    listed = {s["id"]: s for s in client.get("/api/v1/systems").json()}
    assert listed["necrowarzone"]["has_points"] is False


def test_catalogue(client: TestClient) -> None:
    response = client.get(f"{API}/catalogue")
    assert response.status_code == 200
    cat = response.json()
    # L9-11: 0-100 → 2 (3), 101-400 → 3 (4), 401+ → 4 (5).
    assert [(b["id"], b["kind"], b["actions"], b["leader_actions"]) for b in cat["xp_bands"]] == [
        ("xp_0_100", "tranche_xp", 2, 3),
        ("xp_101_400", "tranche_xp", 3, 4),
        ("xp_401_plus", "tranche_xp", 4, 5),
    ]
    # L38-39: Résultat = 7 − CT, read on 1D6 the Necromunda way (a 1 always misses).
    rows = {row["ct"]: (row["score"], row["roll"], row["chance"]) for row in cat["to_hit"]}
    assert rows[1] == (6, "6+", "1/6")
    assert rows[4] == (3, "3+", "2/3")
    assert rows[10] == (-3, "2+", "5/6")
    assert all(row["kind"] == "pour_toucher" and row["name"] for row in cat["to_hit"])
    # L41-42: the bracketed cover values; L40: one cover at most.
    modifiers = {m["id"]: m for m in cat["modifiers"]}
    assert (
        modifiers["cible_a_couvert"]["value"],
        modifiers["cible_a_couvert"]["took_cover_value"],
    ) == (-2, -3)
    assert {m["kind"] for m in cat["modifiers"]} == {"modificateur_tir"}
    assert modifiers["viser"]["group"] == "par_action"
    assert [f["id"] for f in cat["figures"]] == [
        "chef_de_gang",
        "ganger",
        "ganger_arme_lourde",
        "novice",
    ]
    chef = cat["figures"][0]
    assert chef["kind"] == "figurine"
    assert {k: chef["derived"][k] for k in CONTRACT_FIGURE} == {
        "actions": 3,
        "to_hit": 3,
        "encumbered": False,
        "command_radius": 8,
    }
    assert {n["kind"] for n in cat["notes"]} == {"decision"}
    assert all(n["name"] and n["text"] for n in cat["notes"])
    rats = cat["examples"][0]
    assert rats["kind"] == "exemple"
    assert {k: rats["derived"][k] for k in CONTRACT_GANG} == {
        "figures": 8,
        "actions_total": 18,
        "xp_total": 355,
        "initiative_xp": 63,
        "rout_threshold": 2,
    }


def test_cost_the_contract_figure(client: TestClient) -> None:
    response = client.post(f"{API}/cost", json=CHEF)
    assert response.status_code == 200
    body = response.json()
    assert (body["points"], body["breakdown"], body["issues"], body["valid"]) == (0, [], [], True)
    # L9 « 0-100 … 2 (3 pour un chef de gang) »; L38-39 CT 4 → 3; L31 Cd 8 → 8 pas.
    assert {k: body["derived"][k] for k in CONTRACT_FIGURE} == {
        "actions": 3,
        "to_hit": 3,
        "encumbered": False,
        "command_radius": 8,
    }


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        # L10 « 101-400 … 3 »; L11 « 401+ … 4 »; the bounds belong to their band.
        ({"xp": 100}, {"actions": 2}),
        ({"xp": 101}, {"actions": 3}),
        ({"xp": 401, "leader": True}, {"actions": 5, "command_radius": 7}),
        # L78 « -1CC/-1CT/-1 Action (minimum 1) »: CT 3 → 2, to hit 5; 2 actions → 1.
        ({"light_wounds": 1}, {"actions": 1, "to_hit": 5, "effective_cc": 3}),
        ({"light_wounds": 5}, {"actions": 1, "to_hit": 6, "effective_ct": 1}),
        # L70: a heavy weapon or heavy equipment encumbers.
        ({"weapons": [{"name": "Bolter lourd", "heavy": True}]}, {"encumbered": True}),
        ({"heavy_equipment": True}, {"encumbered": True}),
    ],
)
def test_cost_derived(
    client: TestClient, changes: dict[str, Any], expected: dict[str, Any]
) -> None:
    body = client.post(f"{API}/cost", json=figure(**changes)).json()
    assert {k: body["derived"][k] for k in expected} == expected
    assert body["points"] == 0


def test_cost_issues_keep_the_figure(client: TestClient) -> None:
    body = client.post(
        f"{API}/cost", json=figure(xp=-5, profile={**GANGER["profile"], "CT": 11})
    ).json()
    assert codes(body["issues"]) == [
        ("error", "invalid_xp", "xp"),
        ("error", "ct_off_table", "profile.CT"),
    ]
    assert body["valid"] is False
    assert body["derived"]["to_hit"] is None


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        (figure(xp=2.5), ["body", "xp"]),
        (figure(points=10), ["body", "points"]),
        (
            figure(weapons=[{"name": "Lance-flammes", "hit_modifier": 2}]),
            ["body", "weapons", 0, "hit_modifier"],
        ),
        ({"leader": True}, ["body", "profile"]),
    ],
)
def test_cost_refuses_bad_input(client: TestClient, body: dict[str, Any], loc: list[Any]) -> None:
    response = client.post(f"{API}/cost", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"] == PROBLEM
    assert loc in [error["loc"] for error in response.json()["errors"]]


def test_validate_the_contract_gang(client: TestClient) -> None:
    rats = client.get(f"{API}/catalogue").json()["examples"][0]["document"]
    body = client.post(f"{API}/validate", json=rats).json()
    assert (body["points"], body["points_limit"], body["issues"], body["valid"]) == (
        0,
        None,
        [],
        True,
    )
    assert {k: body["derived"][k] for k in CONTRACT_GANG} == {
        "figures": 8,
        "actions_total": 18,
        "xp_total": 355,
        "initiative_xp": 63,
        "rout_threshold": 2,
    }
    assert all(e["points"] == 0 and e["breakdown"] == [] for e in body["entries"])


def test_validate_issue_codes(client: TestClient) -> None:
    # No chef (L13, L31, L84), a figure with XP below 0 (L9) and a CT off the table (L38).
    body = client.post(
        f"{API}/validate",
        json=gang(
            {"custom": figure(xp=-1)},
            {"custom": figure(profile={**GANGER["profile"], "CT": 0}), "count": 2},
            points_limit=1000,
        ),
    ).json()
    assert codes(body["issues"]) == [
        ("error", "no_leader", "entries"),
        ("warning", "points_not_used", "points_limit"),
    ]
    assert [codes(e["issues"]) for e in body["entries"]] == [
        [("error", "invalid_xp", "entries[0].custom.xp")],
        [("error", "ct_off_table", "entries[1].custom.profile.CT")],
    ]
    assert body["valid"] is False
    assert body["points_limit"] == 1000 and body["points"] == 0
    # Two chefs, one of them a catalogue figure counted twice.
    several = client.post(
        f"{API}/validate", json=gang({"unit": "chef_de_gang", "count": 2}, {"custom": GANGER})
    ).json()
    assert codes(several["issues"]) == [("error", "several_leaders", "entries")]
    assert several["derived"]["leaders"] == 2


def test_validate_refuses_an_unknown_figure(client: TestClient) -> None:
    response = client.post(f"{API}/validate", json=gang({"unit": "champion"}))
    assert response.status_code == 422
    assert response.headers["content-type"] == PROBLEM


def test_shooting(client: TestClient) -> None:
    # CT 4 → 3 (L39); target in cover that took cover: -3 (L42), not -2 -1 again (L34).
    response = client.post(
        f"{API}/shooting",
        json={"ct": 4, "modifiers": ["cible_a_couvert"], "target_took_cover": True},
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["table_score"], body["modifier_total"], body["needed"]) == (3, -3, 6)
    assert (body["roll"], body["chance"], body["valid"]) == ("6+", "1/6", True)
    assert [(m["id"], m["value"]) for m in body["modifiers"]] == [("cible_a_couvert", -3)]
    # Two Viser (L48) and a +1 weapon (L49) on CT 2 (L39: 5): 5 - 3 = 2+.
    aimed = client.post(
        f"{API}/shooting", json={"ct": 2, "aim_actions": 2, "weapon_modifier": 1}
    ).json()
    assert (aimed["needed"], aimed["roll"], aimed["chance"]) == (2, "2+", "5/6")


def test_shooting_issue_codes(client: TestClient) -> None:
    body = client.post(
        f"{API}/shooting",
        json={
            "ct": 3,
            "modifiers": [
                "cible_partiellement_a_couvert",
                "cible_a_couvert",
                "petite_cible",
                "grande_cible",
                "cible_rapide",
                "cible_rapide",
            ],
        },
    ).json()
    assert sorted((i["severity"], i["code"]) for i in body["issues"]) == [
        ("error", "small_and_large_target"),
        ("warning", "duplicate_modifier"),
        ("warning", "several_cover_modifiers"),
    ]
    assert body["valid"] is False
    # The strongest cover (-2) alone, -1 small, +1 large, -1 fast once: 4 - (-3) = 7.
    assert (body["needed"], body["roll"], body["chance"]) == (7, "6 puis 4+", "1/12")
    alone = client.post(f"{API}/shooting", json={"ct": 3, "target_took_cover": True}).json()
    assert [i["code"] for i in alone["issues"]] == ["took_cover_without_cover"]
    assert alone["needed"] == 4


@pytest.mark.parametrize(
    "body",
    [
        {"ct": 11},
        {"ct": 0},
        {"ct": 4, "modifiers": ["viser"]},
        {"ct": 4, "aim_actions": 5},
        {"ct": 4, "weapon_modifier": 2},
        {},
    ],
)
def test_shooting_refuses_bad_input(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post(f"{API}/shooting", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"] == PROBLEM


def test_openapi_names_and_operation(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    operation = document["paths"][f"{API}/shooting"]["post"]
    assert operation["operationId"] == "necrowarzone_shooting"
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/NecrowarzoneShotRequest"}
    names = set(document["components"]["schemas"])
    for name in ("Catalogue", "Figure", "FigureCost", "Result", "ShotResult", "GangDerived"):
        assert f"Necrowarzone{name}" in names
    assert not {"Profile", "Weapon", "Figure", "FigureDerived", "GangDerived"} & names


BBCODE = "\n".join(
    [
        "[b]Bande à Vorn ［test］[/b] — Nécromunda–Warzone (activations alternées)",
        "[b]Total : figurines : 4, actions par tour : 7, XP au total : 172, "
        "XP d’initiative (chef) : 63, perte pour un test de déroute : 1, "
        "rayon de commandement : 8 pas[/b]",
        "",
        "[b]1 × Vorn (Chef de gang)[/b]",  # a renamed sample figure says what it is
        "M4 CC4 CT4 F3 E3 PV1 I4 A1 Cd8 — Pistolet laser, Épée tronçonneuse — 63 XP — "
        "commandement à 8 pas — chef, 3 actions, touche 3+",
        "[b]1 × Ganger à l’arme lourde[/b]",
        "M4 CC3 CT3 F3 E3 PV1 I3 A1 Cd7 — Bolter lourd (lourde), Couteau — 63 XP — "
        "2 actions, touche 4+, encombré",
        "[b]2 × Tireur d’élite[/b]",
        "M4 CC4 CT3 F3 E3 PV1 I4 A1 Cd7 — Long fusil (+1) — équipement lourd — 23 XP — "
        "1 blessure légère — 1 action, touche 5+, encombré",
        "",
    ]
)


def test_stored_gang_share_and_exports(client: TestClient) -> None:
    marksman = figure(
        light_wounds=1, heavy_equipment=True, weapons=[{"name": "Long fusil", "hit_modifier": 1}]
    )
    document = gang(
        {"unit": "chef_de_gang", "name": "Vorn"},
        {"unit": "ganger_arme_lourde"},
        {"custom": marksman, "name": "Tireur d’élite", "count": 2},
        name="Bande à Vorn [test]",
    )
    created = client.post("/api/v1/rosters", json=document)
    assert created.status_code == 201, created.text
    stored = created.json()
    assert stored["validation"]["points"] == 0 and stored["validation"]["valid"] is True
    auth = {"Authorization": f"Bearer {stored['edit_token']}"}
    shared = client.post(f"/api/v1/rosters/{stored['id']}/shares", headers=auth)
    assert shared.status_code == 201
    code = shared.json()["code"]

    bbcode = client.get(f"/s/{code}.bbcode").text
    assert (
        bbcode == BBCODE + f"\n[url=http://testserver/s/{code}]Voir cette liste sur Caserne[/url]\n"
    )
    for ext in ("md", "txt"):
        export = client.get(f"/s/{code}.{ext}").text
        assert "Vorn" in export and "M4 CC4 CT4 F3 E3 PV1 I4 A1 Cd8" in export
        assert "pts" not in export and "points" not in export
    summary = client.get(f"/api/v1/shares/{code}").json()
    page = client.get(f"/s/{code}")
    assert page.status_code == 200
    main = page.text.split("<main", 1)[1].split("</main>", 1)[0]
    assert "points" not in main and "pts" not in main
    assert '<meta property="og:title" content="Bande à Vorn [test]">' in page.text
    assert "points" not in page.text.split("<head>", 1)[1].split("</head>", 1)[0]
    assert "<strong>7</strong> actions par tour" in main
    assert "validation" in summary
