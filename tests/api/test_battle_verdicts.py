"""Issue 25 item 8 and issue 26 item 5: a battle naming an opponent gang is the opponent's
to confirm or dispute, the organiser voids a line, and two players recording one battle
give one battle in the standings (docs/campaigns.md « Who says a battle happened »)."""

from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_campaigns import battle, battles, campaign_of, join, orlocks, stored


def table(client: TestClient, campaign: dict[str, Any]) -> dict[str, tuple[int, int, int, int]]:
    gangs = client.get(f"/api/v1/campaigns/{campaign['id']}").json()["gangs"]
    return {g["name"]: (g["battles"], g["wins"], g["losses"], g["xp"]) for g in gangs}


def verdict(client: TestClient, gang: dict[str, Any], recorder: str, number: int, said: str) -> Any:
    return client.post(
        f"/api/v1/rosters/{gang['id']}/battles/{recorder}/{number}/verdict",
        json={"verdict": said},
        headers={"Authorization": f"Bearer {gang['edit_token']}"},
    )


def void(client: TestClient, campaign: dict[str, Any], recorder: str, number: int, **h: str) -> Any:
    return client.post(
        f"/api/v1/campaigns/{campaign['id']}/voids",
        json={"recorded_by": recorder, "battle": number},
        headers=h,
    )


def test_two_players_recording_one_battle_give_one_battle(client: TestClient) -> None:
    campaign = campaign_of(client)
    alpha, bravo = stored(client, orlocks("Alpha")), stored(client, orlocks("Bravo"))
    for gang in (alpha, bravo):
        assert join(client, campaign, gang).status_code == 201
    k = {"campaign": campaign["id"]}
    mine = battle(
        client, alpha, 1, {**k, "opponent_roster": bravo["id"], "fighters": [{"entry": 1, "xp": 5}]}
    )
    assert mine.status_code == 201, mine.text
    # Bravo's ledger shows it « pending »; it counts (the contract) until disputed.
    on_b = battles(client, bravo)
    assert [(b["recorded_by"], b["result"], b["verdict"]) for b in on_b] == [
        (alpha["id"], "loss", "pending")
    ]
    assert table(client, campaign) == {"Alpha": (1, 1, 0, 5), "Bravo": (1, 0, 1, 0)}
    # Bravo records the same game from his side (same date, a loss, his own fighters).
    theirs = battle(
        client,
        bravo,
        1,
        {
            **k,
            "result": "loss",
            "opponent_roster": alpha["id"],
            "fighters": [{"entry": 2, "xp": 3}],
        },
    )
    assert theirs.status_code == 201, theirs.text
    assert table(client, campaign) == {"Alpha": (1, 1, 0, 5), "Bravo": (1, 0, 1, 3)}
    on_b = battles(client, bravo)
    assert [(b["recorded_by"], b["result"], b["verdict"], b["same_as"]) for b in on_b] == [
        (bravo["id"], "loss", "confirmed", {"recorded_by": alpha["id"], "battle": 1})
    ]
    on_a = battles(client, alpha)
    assert [(b["recorded_by"], b["verdict"]) for b in on_a] == [(alpha["id"], "confirmed")]
    # A second game on another day, that Bravo says never happened.
    second = battle(client, alpha, 2, {**k, "date": "2026-12-08", "opponent_roster": bravo["id"]})
    assert second.status_code == 201, second.text
    assert table(client, campaign)["Alpha"][:2] == (2, 2)
    said = verdict(client, bravo, alpha["id"], 2, "disputed")
    assert said.status_code == 200, said.text
    assert said.json() == {
        "recorded_by": alpha["id"],
        "battle": 2,
        "verdict": "disputed",
        "voided": False,
    }
    assert table(client, campaign) == {"Alpha": (1, 1, 0, 5), "Bravo": (1, 0, 1, 3)}
    # Only the named gang speaks for it; the recorder cannot confirm its own line.
    assert verdict(client, alpha, alpha["id"], 2, "confirmed").status_code == 422
    assert verdict(client, bravo, alpha["id"], 9, "confirmed").status_code == 422
    assert (
        verdict(client, {**bravo, "edit_token": "x"}, alpha["id"], 2, "confirmed").status_code
        == 403
    )


def test_the_organiser_voids_a_line_and_it_stays_shown(client: TestClient) -> None:
    campaign = campaign_of(client)
    alpha, bravo = stored(client, orlocks("Alpha")), stored(client, orlocks("Bravo"))
    for gang in (alpha, bravo):
        assert join(client, campaign, gang).status_code == 201
    body = {
        "campaign": campaign["id"],
        "opponent_roster": bravo["id"],
        "fighters": [{"entry": 1, "xp": 5}],
    }
    for version in (1, 2):
        assert (
            battle(client, alpha, version, {**body, "date": f"2026-12-0{version}"}).status_code
            == 201
        )
    assert table(client, campaign)["Alpha"] == (2, 2, 0, 10)
    assert void(client, campaign, alpha["id"], 1).status_code == 401
    assert void(client, campaign, alpha["id"], 1, Authorization="Bearer nope").status_code == 403
    organiser = {"Authorization": f"Bearer {campaign['edit_token']}"}
    assert void(client, campaign, alpha["id"], 7, **organiser).status_code == 422
    done = void(client, campaign, alpha["id"], 1, **organiser)
    assert done.status_code == 200, done.text
    assert done.json()["voided"] is True
    assert void(client, campaign, alpha["id"], 1, **organiser).status_code == 200  # idempotent
    assert table(client, campaign) == {"Alpha": (1, 1, 0, 5), "Bravo": (1, 0, 1, 0)}
    lines = battles(client, alpha)
    assert [(b["battle"], b["voided"]) for b in lines] == [(1, True), (2, False)]
    assert [(b["battle"], b["voided"]) for b in battles(client, bravo)] == [(1, True), (2, False)]
    # A voided line is no longer the opponent's to confirm.
    assert verdict(client, bravo, alpha["id"], 1, "confirmed").status_code == 422
