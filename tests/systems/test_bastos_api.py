"""Pour quelques bastos de plus through HTTP: api-v1.md's "### bastos" and "Systems without
points", the odds extension, a stored band, its share and its exports.

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

API = "/api/v1/systems/bastos"
# api-v1.md's figure, unchanged.
CONTRACT_FIGURE = {"rep": 4, "leader": False, "star": False, "weapon": "mitraillette"}


def figure(rep: int, weapon: str | None = "mitraillette", **flags: bool) -> dict[str, Any]:
    return {"rep": rep, "leader": False, "star": False, "weapon": weapon, **flags}


def codes(issues: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(i["severity"], i["code"], i["path"]) for i in issues]


def test_listed_without_points(client: TestClient) -> None:
    listed = {s["id"]: s for s in client.get("/api/v1/systems").json()}
    assert listed["bastos"]["has_points"] is False
    assert listed["bastos"]["name"] == "Pour quelques bastos de plus"
    assert client.post(f"{API}/score", json={}).status_code == 404  # no score in the text


def test_catalogue(client: TestClient) -> None:
    catalogue = client.get(f"{API}/catalogue").json()
    # api-v1.md: weapons are {"id", "name", "range_cm", "rate", "spread_cm", "impact",
    # "class"}, null where the table prints « - » (L61-71).
    melee = catalogue["weapons"][-1]
    assert {k: melee[k] for k in ("id", "range_cm", "rate", "spread_cm", "impact", "class")} == {
        "id": "corps_a_corps",
        "range_cm": None,
        "rate": None,
        "spread_cm": None,
        "impact": 2,
        "class": None,
    }
    assert [w["id"] for w in catalogue["weapons"]] == [
        "revolver",
        "pistolet_45",
        "fusil_a_pompe",
        "mitraillette",
        "corps_a_corps",
    ]
    assert [(r["id"], r["name"]) for r in catalogue["reps"]] == [
        ("rep_3", "Bleu"),
        ("rep_4", "Fiable"),
        ("rep_5", "Vétéran"),
    ]
    rooko = catalogue["figures"][0]
    # L255 « Le sergent Rooko (leader, Rep 4) »; no points in the text.
    assert (rooko["id"], rooko["rep"], rooko["leader"], rooko["points"]) == (
        "sergent_rooko",
        4,
        True,
        0,
    )
    assert rooko["definition"] == {"rep": 4, "leader": True, "star": False, "weapon": "pistolet_45"}
    notes = {n["id"]: n for n in catalogue["notes"]}
    assert notes["de_de_leader"]["kind"] == "decision"
    assert notes["de_de_leader"]["name"] == "Le leader lance le dé de leader pour tous ses tests"
    items = [item for value in catalogue.values() if isinstance(value, list) for item in value]
    assert all(item["id"] and item["name"] and item["kind"] for item in items)
    assert {e["printed_total"] for e in catalogue["examples"]} == {0}


def test_cost_of_the_contract_figure(client: TestClient) -> None:
    body = client.post(f"{API}/cost", json=CONTRACT_FIGURE).json()
    assert (body["points"], body["breakdown"], body["valid"], body["issues"]) == (0, [], True, [])
    derived = body["derived"]
    # The contract prints Rep 5's odds beside a Rep 4 figure; the text gives Rep 4 (L80)
    # 4/6 · 4/6 = 4/9 for 2 successes, 2 · 4/6 · 2/6 = 4/9 for 1, 2/6 · 2/6 = 1/9 for none,
    # and (L73) an activation die at most 4: 4/6.
    assert derived["rep_test"] == {"2": "4/9", "1": "4/9", "0": "1/9"}
    assert derived["activation"] == "2/3"
    assert derived["weapon"] == {
        "id": "mitraillette",
        "name": "Mitraillette",
        "range_cm": 60,
        "rate": 3,
        "spread_cm": 7.5,
        "impact": 3,
        "class": 4,
    }  # L51-59
    # L152 « deux 1 naturels (ou plus) » on 3 dice: (15 + 1) / 216 = 2/27.
    assert derived["jam_at_full_rate"] == "2/27"
    rep_5 = client.post(f"{API}/cost", json={**CONTRACT_FIGURE, "rep": 5}).json()["derived"]
    # The contract's numbers are Rep 5's: (5/6)² = 25/36, 2 · 5/6 · 1/6 = 5/18, (1/6)².
    assert rep_5["rep_test"] == {"2": "25/36", "1": "5/18", "0": "1/36"}
    assert rep_5["activation"] == "5/6"


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({**CONTRACT_FIGURE, "rep": "4"}, ["body", "rep"]),
        ({**CONTRACT_FIGURE, "rep": 101}, ["body", "rep"]),
        ({**CONTRACT_FIGURE, "weapon": "arbalete"}, ["body", "weapon"]),
        ({**CONTRACT_FIGURE, "points": 3}, ["body", "points"]),
        ({"rep": 4}, ["body", "weapon"]),
    ],
)
def test_cost_refuses_bad_input(client: TestClient, body: dict[str, Any], loc: list[str]) -> None:
    response = client.post(f"{API}/cost", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["errors"][0]["loc"] == loc


def test_validate_contract_derived_and_issue_codes(client: TestClient) -> None:
    # The section of L282 « un leader Rep 5, quatre vétérans Rep 4 et de deux bleus Rep 3 ».
    section = {
        "system": "bastos",
        "name": "Section",
        "entries": [
            {"custom": figure(5, "pistolet_45", leader=True), "name": "Chef", "count": 1},
            {"custom": figure(4), "name": "Vétéran", "count": 4},
            {"custom": figure(3, "fusil_a_pompe"), "name": "Bleu", "count": 2},
        ],
    }
    body = client.post(f"{API}/validate", json=section).json()
    assert (body["points"], body["points_limit"], body["valid"], body["issues"]) == (
        0,
        None,
        True,
        [],
    )
    derived = body["derived"]
    assert {k: derived[k] for k in ("figures", "rep_total", "rep_distribution", "leaders")} == {
        "figures": 7,
        "rep_total": 27,
        "rep_distribution": {"3": 2, "4": 4, "5": 1},
        "leaders": 1,
    }
    assert derived["stars"] == 0
    assert all(e["points"] == 0 and e["breakdown"] == [] for e in body["entries"])
    flagged = {
        **section,
        "points_limit": 200,
        "entries": [
            {"custom": figure(9), "count": 1},
            {"custom": figure(6, star=True), "count": 2},
        ],
    }
    body = client.post(f"{API}/validate", json=flagged).json()
    assert body["valid"] is False
    assert codes(body["issues"]) == [
        ("warning", "no_leader", "entries"),  # L255: allowed, said
        ("warning", "several_stars", "entries"),  # L11 « La star représente le joueur »
        ("warning", "points_not_used", "points_limit"),
    ]
    assert [codes(e["issues"]) for e in body["entries"]] == [
        [("error", "invalid_rep", "entries[0].custom.rep")],
        [("warning", "unusual_rep", "entries[1].custom.rep")],
    ]
    # An invalid Rep is still stored, as the player wrote it.
    created = client.post("/api/v1/rosters", json=flagged)
    assert created.status_code == 201
    assert created.json()["roster"]["entries"][0]["custom"]["rep"] == 9
    assert created.json()["validation"]["valid"] is False


def test_odds_endpoint(client: TestClient) -> None:
    rep_test = client.post(f"{API}/odds", json={"test": "rep_test", "rep": 4}).json()
    assert [(o["id"], o["probability"], o["decimal"]) for o in rep_test["outcomes"]] == [
        ("2", "4/9", 0.4444),
        ("1", "4/9", 0.4444),
        ("0", "1/9", 0.1111),
    ]
    # L80 with the leader die, Rep 4: 1 - 1/27 - 2/9 = 20/27.
    leader = client.post(f"{API}/odds", json={"test": "rep_test", "rep": 4, "leader_die": True})
    assert leader.json()["outcomes"][0]["probability"] == "20/27"
    # L115-150: Rep 4 Mitraillette (Impact 3) on a target in the open, per die.
    shot = client.post(f"{API}/odds", json={"test": "shooting", "rep": 4, "weapon": "mitraillette"})
    outcomes = {o["id"]: o["probability"] for o in shot.json()["outcomes"]}
    assert outcomes == {
        "miss": "1/2",
        "dead": "1/12",  # 1/2 · 1/6
        "out_of_action": "1/6",  # 1/2 · 2/6
        "stunned": "1/4",  # 1/2 · 3/6
    }
    melee = client.post(
        f"{API}/odds",
        json={"test": "melee", "figure": {"rep": 4}, "opponent": {"rep": 4}},
    ).json()
    assert {o["id"]: o["probability"] for o in melee["details"]}["tie"] == "11/27"  # L218
    cannot = client.post(
        f"{API}/odds", json={"test": "shooting", "rep": 4, "weapon": "corps_a_corps"}
    ).json()
    assert codes(cannot["issues"]) == [("error", "weapon_cannot_shoot", "weapon")]
    over = client.post(
        f"{API}/odds", json={"test": "shooting", "rep": 4, "weapon": "revolver", "dice": 2}
    ).json()
    assert codes(over["issues"]) == [("error", "dice_over_rate", "dice")]


@pytest.mark.parametrize(
    "body",
    [
        {"test": "rep_test", "rep": "4"},
        {"test": "poker", "rep": 4},
        {"rep": 4},
        {"test": "shooting", "rep": 4, "weapon": "arbalete"},
        {"test": "rep_test", "rep": 4, "luck": 1},
    ],
)
def test_odds_refuses_bad_input(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post(f"{API}/odds", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["errors"]


def test_openapi_names_and_operation(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    operation = document["paths"][f"{API}/odds"]["post"]
    assert operation["operationId"] == "bastos_odds"
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/BastosOddsQuery"}
    assert "422" in operation["responses"]
    names = document["components"]["schemas"]
    assert "BastosOddsQuery" in names and "BastosOddsAnswer" in names
    for bare in ("Figure", "FigureDerived", "Extras", "WeaponOut", "BandDerived", "Outcome"):
        assert bare not in names


BBCODE = """\
[b]Les Impériaux[/b] — Pour quelques bastos de plus
[b]Total : Figurines : 3, Rep totale : 10, Figurines de Rep 3 : 2, Figurine de Rep 4 : 1, \
Leader : 1, Star : 0, Armes de classe 4 : 2, Arme de classe 2 : 1[/b]

[b]1 × Sergent Rooko[/b]
portée 30 cm, taux 2 (5 cm), impact 2, classe 2 — Test de Rep, dé de leader : 2 réussites \
20/27 (74 %), 1 réussite 2/9 (22 %), 0 réussite 1/27 (4 %) — Rep 4, [color=#1f5fa8]Chef\
[/color], Pistolet automatique calibre .45
[b]2 × Bob 437-A[/b]
portée 60 cm, taux 3 (7,5 cm), impact 3, classe 4 — Test de Rep : 2 réussites 1/4 (25 %), \
1 réussite 1/2 (50 %), 0 réussite 1/4 (25 %) — Rep 3, Mitraillette
[i]Attention : Ce jeu ne compte pas de points : le format de 100 points est ignoré.[/i]
[size=85]Objectif : Ramener les plans[/size]

[url=http://testserver/s/{code}]Voir cette liste sur Caserne[/url]
"""


def test_stored_band_share_and_exports(client: TestClient) -> None:
    # L255 « Le sergent Rooko (leader, Rep 4) et le 2ème classe Bob 437-A (Rep 3, gros
    # flingue) », Bob twice; a points limit is kept and said meaningless.
    document = {
        "system": "bastos",
        "name": "Les Impériaux",
        "points_limit": 100,
        "entries": [{"unit": "sergent_rooko"}, {"unit": "bob_437_a", "count": 2}],
        "extras": {"objective": "Ramener les plans"},
    }
    created = client.post("/api/v1/rosters", json=document)
    assert created.status_code == 201
    body = created.json()
    assert body["validation"]["points"] == 0
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    shared = client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth)
    assert shared.status_code == 201
    code = shared.json()["code"]
    bbcode = client.get(f"/s/{code}.bbcode").text
    assert bbcode == BBCODE.replace("{code}", code)
    for ext in ("bbcode", "md", "txt"):
        text = client.get(f"/s/{code}.{ext}").text
        assert " pts" not in text and not re.search(r"(?<!\d)0 points", text)
    snapshot = client.get(f"/api/v1/shares/{code}").json()
    assert snapshot["summary"]["budgets"] == []
    assert [t["label"] for t in snapshot["summary"]["totals"]][:2] == ["Figurines", "Rep totale"]
    page = client.get(f"/s/{code}").text
    assert re.search(r"<strong>10</strong> Rep totale|Rep totale : <strong>10</strong>", page)
    main = page.split("<main", 1)[1].split("</main>", 1)[0]
    assert " pts" not in main and not re.search(r"(?<!\d)0 points", main)
