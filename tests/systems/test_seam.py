"""The seam holds: a toy system defined in tests/toy (three priced units, a score, its
catalogue and creator pages, campaign and play traits) is registered with one line and works
end to end with nothing else changed."""

from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from app.catalogues import load_systems
from app.main import create_app
from app.settings import Settings
from app.systems import registry
from app.systems.conformance import check_system
from tests.toy.spec import SPEC as TOY_SPEC


@pytest.fixture
def toy_client(
    engine: Engine, session: Session, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    # The one line (tests/conftest.py registers the toy for the session already).
    others = tuple(spec for spec in registry.SPECS if spec.id != TOY_SPEC.id)
    monkeypatch.setattr(registry, "SPECS", (*others, TOY_SPEC))
    app = create_app(Settings(database_url="sqlite://"), engine=engine, systems=load_systems())
    app.state.session_factory = lambda: nullcontext(session)
    with TestClient(app) as client:
        yield client


def test_toy_conforms() -> None:
    systems = load_systems(specs=(TOY_SPEC,))
    assert check_system(systems["toy"], TOY_SPEC) == []


def test_toy_api(toy_client: TestClient) -> None:
    listed = {s["id"]: s for s in toy_client.get("/api/v1/systems").json()}
    assert listed["toy"]["has_points"] is True
    catalogue = toy_client.get("/api/v1/systems/toy/catalogue").json()
    assert catalogue["units"][0]["id"] == "soldat_de_plomb"
    assert catalogue["units"][0]["points"] == 6
    assert [e["id"] for e in catalogue["examples"]] == ["escouade"]
    scored = toy_client.post("/api/v1/systems/toy/score", json={"knocked_over": 2, "flag": True})
    assert scored.status_code == 200
    assert scored.json()["points"] == 5
    validated = toy_client.post(
        "/api/v1/systems/toy/validate",
        json={
            "system": "toy",
            "points_limit": 10,
            "entries": [{"custom": {"strength": 0}}, {"unit": "soldat_de_plomb", "count": 2}],
        },
    ).json()
    assert validated["points"] == 12
    assert validated["valid"] is False
    assert [i["code"] for i in validated["issues"]] == ["over_points_limit"]
    assert [i["path"] for i in validated["entries"][0]["issues"]] == ["entries[0].custom.strength"]
    unknown = toy_client.post(
        "/api/v1/systems/toy/validate", json={"system": "toy", "entries": [{"unit": "nope"}]}
    )
    assert unknown.status_code == 422


def test_toy_roster_share_page_and_exports(toy_client: TestClient) -> None:
    document = {
        "system": "toy",
        "name": "Boîte à jouets",
        "entries": [{"unit": "soldat_de_plomb", "count": 3}],
    }
    created = toy_client.post("/api/v1/rosters", json=document)
    assert created.status_code == 201
    body = created.json()
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    shared = toy_client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth)
    assert shared.status_code == 201
    code = shared.json()["code"]
    again = toy_client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth)
    assert (again.status_code, again.json()["code"]) == (200, code)

    page = toy_client.get(f"/s/{code}")
    assert page.status_code == 200
    assert "Soldat de plomb" in page.text and "Figurines" in page.text
    assert "<span data-total>18</span> points" in page.text
    bbcode = toy_client.get(f"/s/{code}.bbcode").text
    assert bbcode.startswith("[b]Boîte à jouets[/b] — Jeu jouet\n[b]Total : 18 points[/b]\n")
    assert "[b]3 × Soldat de plomb[/b] — 6 pts chacun, 18 pts\nForce 3\n" in bbcode
    for ext in ("md", "txt"):
        export = toy_client.get(f"/s/{code}.{ext}").text
        assert "Soldat de plomb" in export and "18 pts" in export

    # The edit link hands the roster to the generic editor, which adds the toy's unit.
    editor = toy_client.get(
        body["edit_url"].removeprefix("http://testserver"), headers={"Sec-Fetch-Site": "none"}
    )
    assert editor.status_code == 200 and "Soldat de plomb" in editor.text
    home = toy_client.get("/")
    assert "Jeu jouet" in home.text and "/toy/createur" in home.text
    assert toy_client.get("/toy/catalogue").status_code == 200


def test_toy_plays_through_its_play_traits(toy_client: TestClient) -> None:
    """Issue 27: the play sheet and the mode partie of a system they never name, from the
    traits its spec declares (tests/toy/play.py): states, a counter whose max is the frozen
    strength, a rout test at half the squad."""
    squad = {"unit": "soldat_de_plomb", "count": 3}
    document = {"system": "toy", "name": "Plomb", "entries": [squad]}
    body = toy_client.post("/api/v1/rosters", json=document).json()
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    code = toy_client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth).json()["code"]
    assert toy_client.get(f"/s/{code}/feuille").status_code == 200
    game = toy_client.get(f"/s/{code}/partie").text
    assert 'data-rout="2"' in game and "test de déroute à 2" in game
    assert (
        game.count('<div class="counter" data-counter="strength" data-max="3" data-out="1">') == 3
    )
    assert game.count('data-state="1" data-out="1" aria-pressed="false">Renversé</button>') == 3
    assert 'id="score"' not in game and "<h2>Chances</h2>" not in game


def test_toy_play_sheet_quotes_its_rule_text(toy_client: TestClient) -> None:
    """Its sheet.toml: the captain's rule quoted from the toy's rule text, its profile as a
    table, the score table as a quick reference."""
    document = {"system": "toy", "name": "Plomb", "entries": [{"unit": "capitaine"}]}
    body = toy_client.post("/api/v1/rosters", json=document).json()
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    code = toy_client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth).json()["code"]
    sheet = toy_client.get(f"/s/{code}/feuille").text
    assert "relève une figurine renversée à moins de 10 cm" in sheet
    assert "Drapeau pris" in sheet and "Fin de la partie" in sheet
    assert "regles-jouet.fr.txt" in sheet


def test_summaries_show_each_group_once(systems: dict[str, Any]) -> None:
    """Entries of one combat group sent apart are read together, in first-seen order."""
    infinity = systems["infinity"]
    catalogue = infinity.catalogue().model_dump()
    trooper = catalogue["units"][0]
    option = trooper["options"][0]["id"]
    document = {
        "system": "infinity",
        "entries": [
            {"unit": trooper["id"], "option": option, "group": 2},
            {"unit": trooper["id"], "option": option, "group": 1},
            {"unit": trooper["id"], "option": option, "group": 2},
        ],
    }
    roster = infinity.roster_model.model_validate(document)
    summary = infinity.summarize(roster, infinity.validate(roster))
    assert [line.entry for line in summary.lines] == [0, 2, 1]
    assert len({line.group for line in summary.lines}) == 2


def test_no_alias_names_a_model_twice() -> None:
    """Issue 14: 40 leftover aliases (`Figure = BastosFigure`...) named each model twice;
    a model has one name, the one the OpenAPI document shows."""
    import re
    from pathlib import Path

    root = Path(__file__).parents[2] / "app"
    aliases = [
        f"{path.relative_to(root)}: {match.group(0)}"
        for path in root.rglob("*.py")
        for match in re.finditer(r"^[A-Z]\w* = [A-Z]\w*$", path.read_text(encoding="utf-8"), re.M)
    ]
    assert aliases == []


def test_infinity_says_over_points_limit_as_every_system() -> None:
    """Issue 14: Infinity had its own copy of the points-limit check (another message)."""
    from app.systems.catalogued import over_points_limit
    from app.systems.infinity import roster

    assert roster.over_points_limit is over_points_limit
    assert not hasattr(roster, "points_issues")


def test_toy_battle_counts_its_score_xp_and_courage(toy_client: TestClient) -> None:
    """Its campaign traits (tests/toy/spec.py): a battle scores through its score engine,
    gives XP and raises the profile's courage; the catalogue captain becomes the player's
    own figure with the same strength."""
    document = {"system": "toy", "name": "Plomb", "entries": [{"unit": "capitaine"}]}
    gang = toy_client.post("/api/v1/rosters", json=document).json()
    fighter = {"entry": 0, "xp": 3, "changes": [{"stat": "courage", "by": 1, "cause": "Brave"}]}
    recorded = toy_client.post(
        f"/api/v1/rosters/{gang['id']}/battles",
        json={
            "date": "2026-12-01",
            "opponent": "Les Bleus",
            "result": "win",
            "score": {"knocked_over": 2, "flag": True},
            "fighters": [fighter],
        },
        headers={"Authorization": f"Bearer {gang['edit_token']}", "If-Match": '"1"'},
    )
    assert recorded.status_code == 201, recorded.text
    entry = recorded.json()["roster"]["entries"][0]
    # The stored captain leaves courage out: it is his default, 2 (tests/toy/models.py), + 1.
    assert entry["custom"] == {"strength": 5, "profile": {"courage": 3}, "xp": 3}
    battles = toy_client.get(
        f"/api/v1/rosters/{gang['id']}/battles",
        headers={"Authorization": f"Bearer {gang['edit_token']}"},
    ).json()["battles"]
    assert battles[0]["points"] == 5
    # Its edit link hands the list to this browser, whose gang page asks the toy's score.
    edit = gang["edit_url"].removeprefix("http://testserver")
    assert toy_client.get(edit, headers={"Sec-Fetch-Site": "none"}).status_code == 200
    page = toy_client.get(f"/r/{gang['id']}/campagne", headers={"Sec-Fetch-Site": "same-origin"})
    assert page.status_code == 200 and 'name="knocked_over"' in page.text
