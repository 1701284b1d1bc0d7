"""Campaigns through the API (api-v1.md « Campaigns »), exactly as written. Rule lines:
Lnn of ../shared/rules/necromunda-warzone.fr.txt unless named."""

from fractions import Fraction
from typing import Any

from fastapi.testclient import TestClient

PROFILE = {"M": 4, "CC": 3, "CT": 3, "F": 3, "E": 3, "PV": 1, "I": 3, "A": 1, "Cd": 7}


def orlocks(name: str = "Les Orlocks") -> dict[str, Any]:
    """A chef and eight gangers: nine figures; Ganger 1 starts at 60 XP."""
    chef = {"name": "Chef", "custom": {"leader": True, "xp": 80, "profile": PROFILE}}
    gangers = [
        {"name": f"Ganger {n}", "custom": {"xp": 60 if n == 1 else 10, "profile": PROFILE}}
        for n in range(1, 9)
    ]
    return {"system": "necrowarzone", "name": name, "entries": [chef, *gangers]}


def stored(client: TestClient, document: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/rosters", json=document)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def battle(client: TestClient, roster: dict[str, Any], version: int, body: dict[str, Any]) -> Any:
    return client.post(
        f"/api/v1/rosters/{roster['id']}/battles",
        json={"date": "2026-12-01", "opponent": "Les Goliaths", "result": "win", **body},
        headers={"Authorization": f"Bearer {roster['edit_token']}", "If-Match": f'"{version}"'},
    )


def battles(client: TestClient, roster: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.get(
        f"/api/v1/rosters/{roster['id']}/battles",
        headers={"Authorization": f"Bearer {roster['edit_token']}"},
    )
    assert response.status_code == 200, response.text
    return response.json()["battles"]  # type: ignore[no-any-return]


def test_three_battles_of_a_nine_figure_gang(client: TestClient) -> None:
    gang = stored(client, orlocks())
    first = battle(client, gang, 1, {"fighters": [{"entry": 1, "xp": 25}]})
    assert first.status_code == 201, first.text
    body = first.json()
    assert set(body) == {"battle", "share", "roster", "validation"}
    assert body["battle"] == 1
    # 85 XP: L9 « 0-100 … 2 ».
    assert body["validation"]["entries"][1]["derived"]["actions"] == 2
    second = battle(client, gang, 2, {"result": "draw", "fighters": [{"entry": 1, "xp": 20}]})
    assert second.status_code == 201, second.text
    # 105 XP: L10 « 101-400 … 3 ».
    assert second.json()["roster"]["entries"][1]["custom"]["xp"] == 105
    assert second.json()["validation"]["entries"][1]["derived"]["actions"] == 3
    assert second.json()["validation"]["derived"]["rout_threshold"] == 3  # 9 figures, L84
    third = battle(
        client,
        gang,
        3,
        {"result": "loss", "fighters": [{"entry": 4, "state": "dead"}, {"entry": 2, "xp": 30}]},
    )
    assert third.status_code == 201, third.text
    after = third.json()
    assert len(after["roster"]["entries"]) == 9  # the dead stays in the document
    assert after["validation"]["derived"]["figures"] == 8  # and leaves every total
    assert after["validation"]["derived"]["rout_threshold"] == 2  # 25 % of 8, L84
    # The mistaken +30 was +3: a new line of −27 names the line it corrects.
    fix = battle(
        client, gang, 4, {"result": "loss", "corrects": 3, "fighters": [{"entry": 2, "xp": -27}]}
    )
    assert fix.status_code == 201, fix.text
    assert fix.json()["roster"]["entries"][2]["custom"]["xp"] == 13
    lines = battles(client, gang)
    assert [(b["battle"], b["result"], b["corrects"], b["corrected_by"]) for b in lines] == [
        (1, "win", None, None),
        (2, "draw", None, None),
        (3, "loss", None, 4),
        (4, "loss", 3, None),
    ]
    # Each fighter also carries his entry's stable id (docs/campaigns.md).
    ids = [entry["id"] for entry in fix.json()["roster"]["entries"]]
    assert len(set(ids)) == 9
    assert lines[2]["fighters"] == [
        {
            "entry": 4,
            "id": ids[4],
            "name": "Ganger 4",
            "xp": 0,
            "changes": [],
            "rep": None,
            "state": "dead",
        },
        {
            "entry": 2,
            "id": ids[2],
            "name": "Ganger 2",
            "xp": 30,
            "changes": [],
            "rep": None,
            "state": None,
        },
    ]
    # Each battle pinned a share of the state after it, and those never change.
    shares = [client.get(f"/api/v1/shares/{b['share']}").json() for b in lines[:3]]
    xp = [s["roster"]["entries"][1]["custom"]["xp"] for s in shares]
    assert xp == [85, 105, 105]
    assert [s["validation"]["derived"]["figures"] for s in shares] == [9, 9, 8]
    assert [s["validation"]["derived"]["rout_threshold"] for s in shares] == [3, 3, 2]
    # Public through its latest share, refused through an older one.
    public = client.get(
        f"/api/v1/rosters/{gang['id']}/battles", params={"share": lines[3]["share"]}
    )
    assert public.status_code == 200 and len(public.json()["battles"]) == 4
    old = client.get(f"/api/v1/rosters/{gang['id']}/battles", params={"share": lines[0]["share"]})
    assert old.status_code == 403


def test_stale_version_records_nothing_and_two_writers_lose_nothing(client: TestClient) -> None:
    gang = stored(client, orlocks())
    # Both writers read version 1; the first wins, the second gets 409.
    won = battle(client, gang, 1, {"fighters": [{"entry": 1, "xp": 5}]})
    lost = battle(client, gang, 1, {"fighters": [{"entry": 1, "xp": 7}]})
    assert won.status_code == 201
    assert lost.status_code == 409
    assert lost.headers["content-type"] == "application/problem+json"
    assert lost.headers["ETag"] == '"2"'
    assert [b["fighters"][0]["xp"] for b in battles(client, gang)] == [5]
    # The loser rereads and records again: both lines are there.
    again = battle(client, gang, 2, {"fighters": [{"entry": 1, "xp": 7}]})
    assert again.status_code == 201
    assert [b["fighters"][0]["xp"] for b in battles(client, gang)] == [5, 7]
    assert again.json()["roster"]["entries"][1]["custom"]["xp"] == 72
    missing = client.post(
        f"/api/v1/rosters/{gang['id']}/battles",
        json={"date": "2026-12-01", "result": "win"},
        headers={"Authorization": f"Bearer {gang['edit_token']}"},
    )
    assert missing.status_code == 428
    wrong = client.post(
        f"/api/v1/rosters/{gang['id']}/battles",
        json={"date": "2026-12-01", "result": "win"},
        headers={"Authorization": "Bearer nope", "If-Match": "3"},
    )
    assert wrong.status_code == 403


def test_bad_lines_are_422_with_their_path(client: TestClient) -> None:
    gang = stored(client, orlocks())
    cases = [
        ({"fighters": [{"entry": 12, "xp": 1}]}, ["body", "fighters", 0, "entry"]),
        (
            {"fighters": [{"entry": 1, "changes": [{"stat": "Rep", "by": 1, "cause": ""}]}]},
            ["body", "fighters", 0, "changes", 0, "stat"],
        ),
        ({"fighters": [{"entry": 1, "rep": 5}]}, ["body", "fighters", 0, "rep"]),
        ({"corrects": 1}, ["body", "corrects"]),
        ({"score": {"format": 200}}, ["body", "score"]),
        ({"date": "2026-02-30"}, ["body", "date"]),
        ({"recruits": [{"name": "X"}]}, ["body", "recruits", 0]),
    ]
    for body, loc in cases:
        response = battle(client, gang, 1, body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["errors"][0]["loc"][: len(loc)] == loc, (body, response.text)
    assert battles(client, gang) == []


def test_bastos_rep_4_to_5_and_its_odds_follow(client: TestClient) -> None:
    band = stored(
        client,
        {
            "system": "bastos",
            "name": "Baby Face",
            "entries": [
                {"name": "Baby Face", "custom": {"rep": 4, "leader": False, "weapon": "revolver"}}
            ],
        },
    )
    response = battle(client, band, 1, {"fighters": [{"entry": 0, "rep": 5}]})
    assert response.status_code == 201, response.text
    entry = response.json()["validation"]["entries"][0]["derived"]
    # Rep test on 2 dice, a success per die at or under the Rep (bastos L11 and its tables).
    two = Fraction(5, 6) ** 2
    assert entry["rep_test"]["2"] == str(two)  # 25/36 at Rep 5 (was 4/9 at Rep 4)
    assert response.json()["roster"]["entries"][0]["custom"]["rep"] == 5


def sg1() -> dict[str, Any]:
    """A DCSystem list of one level-1 marine, at the 200-point format."""
    return {
        "system": "dcsystem",
        "name": "SG-1",
        "points_limit": 200,
        "entries": [{"custom": {"level": 1, "items": []}, "name": "Marine"}],
    }


def test_dcsystem_battle_scores_by_e3(client: TestClient) -> None:
    roster = stored(client, sg1())
    score = {
        "format": 200,
        "main_mission": True,
        "secondary_mission": False,
        "kills": {"1": 2, "2": 1, "3": 0},
    }
    response = battle(client, roster, 1, {"score": score})
    assert response.status_code == 201, response.text
    # E.3: mission principale 200/10 = 20, two level-1 kills 2 × 1, one level-2 kill 2.
    assert battles(client, roster)[0]["points"] == 24


def campaign_of(client: TestClient, system: str = "necrowarzone") -> dict[str, Any]:
    response = client.post("/api/v1/campaigns", json={"system": system, "name": "La Ruche"})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def join(client: TestClient, campaign: dict[str, Any], roster: dict[str, Any], **over: str) -> Any:
    body = {
        "roster": roster["id"],
        "edit_token": roster["edit_token"],
        "join_code": campaign["join_code"],
    }
    return client.post(f"/api/v1/campaigns/{campaign['id']}/gangs", json={**body, **over})


def test_create_and_join_a_campaign(client: TestClient) -> None:
    campaign = campaign_of(client)
    assert set(campaign) == {"id", "edit_token", "join_code", "join_url", "url"}
    assert campaign["url"] == f"http://testserver/c/{campaign['id']}"
    assert campaign["join_url"] == (
        f"http://testserver/c/{campaign['id']}/rejoindre?code={campaign['join_code']}"
    )
    gang = stored(client, orlocks())
    assert join(client, campaign, gang, join_code="wrong").status_code == 403
    assert join(client, campaign, gang, edit_token="wrong").status_code == 403
    other = stored(client, {"system": "bastos", "name": "B", "entries": []})
    assert join(client, campaign, other).status_code == 422
    assert client.get(f"/api/v1/campaigns/{campaign['id']}").json()["gangs"] == []
    joined = join(client, campaign, gang)
    assert joined.status_code == 201 and joined.json() == {"roster": gang["id"]}
    assert client.get("/api/v1/campaigns/nope").status_code == 404


def test_standings_of_three_gangs_and_four_battles(client: TestClient) -> None:
    campaign = campaign_of(client)
    gangs = [stored(client, orlocks(name)) for name in ("Alpha", "Bravo", "Charlie")]
    for gang in gangs:
        assert join(client, campaign, gang).status_code == 201
    a, b, c = gangs
    k = campaign["id"]
    plays = [
        (a, {"result": "win", "opponent_roster": b["id"], "fighters": [{"entry": 1, "xp": 10}]}),
        (
            b,
            {
                "result": "draw",
                "opponent_roster": c["id"],
                "fighters": [{"entry": 3, "state": "dead"}],
            },
        ),
        (c, {"result": "win", "opponent_roster": a["id"], "fighters": [{"entry": 2, "xp": 4}]}),
        (
            a,
            {
                "result": "win",
                "opponent": "Des Escher de passage",
                "fighters": [{"entry": 5, "xp": 6}],
            },
        ),
    ]
    versions = {g["id"]: 1 for g in gangs}
    for gang, body in plays:
        response = battle(client, gang, versions[gang["id"]], {**body, "campaign": k})
        assert response.status_code == 201, response.text
        versions[gang["id"]] += 1
    # Independently: A won against B and against an outsider, lost to C; B lost to A and
    # drew with C (one ganger dead); C drew with B and beat A.
    expected = {
        "Alpha": (3, 2, 0, 1, 16, 0),
        "Charlie": (2, 1, 1, 0, 4, 0),
        "Bravo": (2, 0, 1, 1, 0, 1),
    }
    table = client.get(f"/api/v1/campaigns/{k}").json()
    assert set(table) == {"id", "name", "system", "notes", "gangs"}
    got = {
        g["name"]: (g["battles"], g["wins"], g["draws"], g["losses"], g["xp"], g["fighters_lost"])
        for g in table["gangs"]
    }
    assert got == expected
    assert [g["name"] for g in table["gangs"]] == ["Alpha", "Charlie", "Bravo"]
    assert all(g["share"] for g in table["gangs"])
    # The battle A–B appears once on each gang's ledger, B's side a loss.
    on_b = battles(client, b)
    assert [(x["result"], x["recorded_by"], x["opponent"]) for x in on_b] == [
        ("loss", a["id"], "Alpha"),
        ("draw", b["id"], "Les Goliaths"),
    ]
    # The recorder's changes apply to the recorder only.
    assert on_b[0]["fighters"] == []


def test_a_gang_outside_the_campaign_cannot_count_in_it(client: TestClient) -> None:
    campaign = campaign_of(client)
    gang, outsider = stored(client, orlocks()), stored(client, orlocks("Dehors"))
    assert join(client, campaign, gang).status_code == 201
    response = battle(client, outsider, 1, {"campaign": campaign["id"]})
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["body", "campaign"]
    response = battle(
        client, gang, 1, {"campaign": campaign["id"], "opponent_roster": outsider["id"]}
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["body", "opponent_roster"]


def test_a_carnet_lists_its_campaigns(client: TestClient) -> None:
    carnet = client.post("/api/v1/carnets").json()
    headers = {"Authorization": f"Bearer {carnet['key']}"}
    made = client.post(
        "/api/v1/campaigns", json={"system": "bastos", "name": "Chicago"}, headers=headers
    )
    assert made.status_code == 201
    listing = client.get(f"/api/v1/carnets/{carnet['id']}", headers=headers).json()
    assert listing["campaigns"] == [
        {"id": made.json()["id"], "name": "Chicago", "system": "bastos"}
    ]
    bad = client.post(
        "/api/v1/campaigns",
        json={"system": "bastos", "name": "X"},
        headers={"Authorization": "Bearer no"},
    )
    assert bad.status_code == 403


def test_the_schema_and_the_server_agree_on_dates(client: TestClient) -> None:
    """Issue 25, item 12: the document's pattern accepted `0000-00-00`, which the server
    refuses (no such date): a date either side accepts, the other accepts too."""
    import jsonschema_rs

    document = client.get("/openapi.json").json()
    field = document["components"]["schemas"]["BattleIn"]["properties"]["date"]
    schema = jsonschema_rs.validator_for(field, validate_formats=True)
    gang = stored(client, orlocks())
    version = 1
    for day in [
        "0000-00-00",
        "0000-01-01",
        "2026-00-10",
        "2026-13-01",
        "2026-02-30",
        "2026-12-32",
        "20261201",
        "2026-12-01",
        "2024-02-29",
        "0001-01-01",
    ]:
        response = battle(client, gang, version, {"date": day})
        assert response.status_code in (201, 422), response.text
        assert schema.is_valid(day) == (response.status_code == 201), day
        version += response.status_code == 201
    assert version == 4  # three real dates stored
