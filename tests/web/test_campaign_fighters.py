"""A gang's fighters as its ledger leaves them, wherever a list is counted (issue 17):
« a dead fighter leaves the totals but stays in the history » (api-v1.md « Campaigns »: a
`dead` or `retired` fighter stays in the document and leaves every total, `recovering` is
shown and counted), and a fighter keeps his history when the list's entries are reordered
or removed after battles (each entry's stable `id`, docs/campaigns.md)."""

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.systems.base import GameSystem
from tests.api.test_campaigns import battle, battles, join, orlocks, sg1, stored
from tests.conftest import SYSTEMS
from tests.web.test_campaign_pages import open_in_browser
from tests.web.test_infinity_pages import form_of


def read(client: TestClient, roster: dict[str, Any]) -> Any:
    response = client.get(
        f"/api/v1/rosters/{roster['id']}",
        headers={"Authorization": f"Bearer {roster['edit_token']}"},
    )
    assert response.status_code == 200, response.text
    return response.json()


def validated(client: TestClient, document: dict[str, Any]) -> Any:
    response = client.post(f"/api/v1/systems/{document['system']}/validate", json=document)
    assert response.status_code == 200, response.text
    return response.json()


def put(client: TestClient, roster: dict[str, Any], version: int, document: Any) -> Any:
    response = client.put(
        f"/api/v1/rosters/{roster['id']}",
        json=document,
        headers={"Authorization": f"Bearer {roster['edit_token']}", "If-Match": f'"{version}"'},
    )
    assert response.status_code == 200, response.text
    return response.json()


def example(system: GameSystem) -> dict[str, Any]:
    """The system's first printed list of three entries or more."""
    return next(
        e.document for e in system.example_rosters() if len(e.document.get("entries", [])) >= 3
    )


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_dead_and_retired_leave_every_total(
    browser: TestClient, systems: dict[str, GameSystem], system_id: str
) -> None:
    client = browser
    document = example(systems[system_id])
    gang = stored(client, document)
    whole = read(client, gang)["validation"]
    recorded = battle(
        client,
        gang,
        1,
        {"fighters": [{"entry": 0, "state": "dead"}, {"entry": 2, "state": "retired"}]},
    )
    assert recorded.status_code == 201, recorded.text
    # What the list counts is what the system's engine says of it without those two.
    rest = {**document, "entries": [document["entries"][1], *document["entries"][3:]]}
    expected = validated(client, rest)
    got = read(client, gang)
    assert len(got["roster"]["entries"]) == len(document["entries"])  # both stay in it
    assert got["validation"] == expected
    assert got["validation"] != whole
    if whole.get("points"):
        assert got["validation"]["points"] < whole["points"]
    # The editor's totals are those too, and its rows still show the two, marked.
    open_in_browser(browser, gang)
    page = browser.get(f"/r/{gang['id']}").text
    assert 'id="entry-0-gone">mort — hors des totaux<' in page
    assert 'id="entry-2-gone">retiré — hors des totaux<' in page
    assert 'id="entry-1-gone"' not in page
    if whole.get("points"):
        total = re.search(r"<span data-total>([^<]+)</span>", page)
        assert total and total[1].replace("\u202f", "").replace(" ", "") == str(expected["points"])


def test_a_recovering_fighter_is_counted(client: TestClient) -> None:
    gang = stored(client, orlocks())
    recorded = battle(client, gang, 1, {"fighters": [{"entry": 3, "state": "recovering"}]})
    assert recorded.status_code == 201
    assert read(client, gang)["validation"]["derived"]["figures"] == 9


def test_a_fighter_keeps_his_history_when_entries_move(browser: TestClient) -> None:
    client = browser
    gang = stored(client, orlocks())
    first = battle(client, gang, 1, {"fighters": [{"entry": 1, "xp": 25}]})
    assert first.status_code == 201
    second = battle(client, gang, 2, {"fighters": [{"entry": 4, "state": "dead"}]})
    assert second.status_code == 201
    entries = read(client, gang)["roster"]["entries"]
    ids = [entry["id"] for entry in entries]
    assert len(set(ids)) == 9
    # The list is turned upside down, then Ganger 2 (entry 2) is removed.
    reordered = [entries[i] for i in range(8, -1, -1) if i != 2]
    after = put(client, gang, 3, {**orlocks(), "entries": reordered})
    assert [e["name"] for e in after["roster"]["entries"]][:3] == [
        "Ganger 8",
        "Ganger 7",
        "Ganger 6",
    ]
    # Ganger 4 is still the dead one, wherever he stands: 8 entries, 7 counted.
    assert after["validation"]["derived"]["figures"] == 7
    ganger_4 = next(i for i, e in enumerate(reordered) if e["name"] == "Ganger 4")
    open_in_browser(browser, gang)
    page = browser.get(f"/r/{gang['id']}").text
    assert f'id="entry-{ganger_4}-gone">mort' in page
    assert page.count("hors des totaux") == 1
    # A new battle names entries by their places now, and the ledger follows the fighters.
    ganger_1 = next(i for i, e in enumerate(reordered) if e["name"] == "Ganger 1")
    third = battle(client, gang, 4, {"fighters": [{"entry": ganger_1, "xp": 20}]})
    assert third.status_code == 201, third.text
    assert third.json()["roster"]["entries"][ganger_1]["custom"]["xp"] == 105
    assert third.json()["validation"]["derived"]["figures"] == 7
    lines = battles(client, gang)
    assert [[f["id"] for f in line["fighters"]] for line in lines] == [
        [ids[1]],
        [ids[4]],
        [ids[1]],
    ]
    # The gang's page gives Ganger 1 both of his lines, the dead his own.
    page = browser.get(f"/r/{gang['id']}/campagne").text
    row = re.search(rf'<tr id="fighter-{ganger_1}">(.*?)</tr>', page, re.S)
    assert row and "B1 : +25 XP ; B3 : +20 XP" in row[1], row
    dead = re.search(rf'<tr id="fighter-{ganger_4}"[^>]*>(.*?)</tr>', page, re.S)
    assert dead and "mort" in dead[1]
    assert "7 figurines en jeu" in page


def test_two_entries_never_share_an_id(client: TestClient) -> None:
    document = orlocks()
    document["entries"][0]["id"] = document["entries"][1]["id"] = "abc"
    response = client.post("/api/v1/rosters", json=document)
    assert response.status_code == 422
    assert "abc" in response.text


def test_the_creator_keeps_a_reopened_row_s_id(client: TestClient) -> None:
    gang = stored(client, orlocks())
    assert battle(client, gang, 1, {"fighters": [{"entry": 1, "xp": 5}]}).status_code == 201
    entry_id = read(client, gang)["roster"]["entries"][1]["id"]
    from app.roster_service import RosterService
    from app.store import rosters as roster_store

    app: Any = client.app
    with app.state.session_factory() as session:  # type: ignore[attr-defined]
        roster = roster_store.get_roster(session=session, roster_id=gang["id"])
        assert roster is not None
        entry = {"name": "Ganger Un", "custom": roster.document["entries"][1]["custom"]}
        RosterService(session, app.state.systems).replace_entry(roster, 1, entry)
    assert read(client, gang)["roster"]["entries"][1]["id"] == entry_id


def test_the_dead_do_not_play_in_the_mode_partie(browser: TestClient) -> None:
    gang = stored(browser, orlocks())
    assert (
        battle(browser, gang, 1, {"fighters": [{"entry": 4, "state": "dead"}]}).status_code == 201
    )
    open_in_browser(browser, gang)
    game = browser.get(f"/r/{gang['id']}/partie")
    assert game.status_code == 200
    assert "/ 8 figurines" in game.text
    assert "Ganger 4" not in game.text and "Ganger 5" in game.text


def test_the_library_card_and_the_editor_s_share_leave_the_dead_out(
    browser: TestClient, systems: dict[str, GameSystem]
) -> None:
    document = example(systems["dcsystem"])
    gang = stored(browser, document)
    assert (
        battle(browser, gang, 1, {"fighters": [{"entry": 0, "state": "dead"}]}).status_code == 201
    )
    expected = validated(browser, {**document, "entries": document["entries"][1:]})["points"]
    open_in_browser(browser, gang)
    # A rename goes through the same save as every edit: the card is computed again.
    renamed = browser.post(f"/listes/{gang['id']}/renommer", data={"name": "Après Abydos"})
    assert renamed.status_code == 303
    card = re.search(
        rf'id="roster-{gang["id"]}".*?<strong data-budget="points"[^>]*>(\d+)',
        browser.get("/listes").text,
        re.S,
    )
    assert card and int(card[1]) == expected, card
    # « Partager » in the editor shares the gang as every total counts it.
    fields = form_of(browser.get(f"/r/{gang['id']}").text)
    shared = browser.post(f"/r/{gang['id']}", data={**fields, "action": "share"})  # type: ignore[arg-type]
    assert shared.status_code == 303, shared.text[:500]
    code = str(shared.headers["location"]).split("/")[2]
    snapshot = browser.get(f"/api/v1/shares/{code}").json()
    assert len(snapshot["roster"]["entries"]) == len(document["entries"]) - 1
    assert snapshot["validation"]["points"] == expected


def test_a_removed_dead_line_still_counts_its_figures_lost(browser: TestClient) -> None:
    """A line of 3 dead, then removed from the list: the standings still lose 3 figures."""
    made = browser.post("/api/v1/campaigns", json={"system": "dcsystem", "name": "Abydos"})
    campaign = made.json()
    document = {**sg1(), "entries": [{**sg1()["entries"][0], "count": 3}, sg1()["entries"][0]]}
    gang = stored(browser, document)
    assert join(browser, campaign, gang).status_code == 201
    fell = battle(
        browser,
        gang,
        1,
        {"campaign": campaign["id"], "fighters": [{"entry": 0, "state": "dead"}]},
    )
    assert fell.status_code == 201, fell.text

    def lost() -> int:
        table = browser.get(f"/api/v1/campaigns/{campaign['id']}").json()
        return int(table["gangs"][0]["fighters_lost"])

    assert lost() == 3
    entries = read(browser, gang)["roster"]["entries"]
    put(browser, gang, 2, {**document, "entries": entries[1:]})
    assert lost() == 3
