"""What every registered game system must do, written once (as Gymnasium does for envs).

A new system gets these tests by being registered in app/systems/registry.py.
"""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.catalogues import DATA_DIR, load_systems, read_system_data
from app.systems.base import GameSystem, is_valid
from app.systems.registry import BUILDERS

SYSTEM_IDS = sorted(BUILDERS)


@pytest.fixture(params=SYSTEM_IDS)
def system(request: pytest.FixtureRequest, systems: dict[str, GameSystem]) -> GameSystem:
    return systems[request.param]


def test_every_registered_system_loads(systems: dict[str, GameSystem]) -> None:
    assert sorted(systems) == SYSTEM_IDS


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_catalogue_data_validates(system_id: str) -> None:
    data, _origin, problems = read_system_data(DATA_DIR / system_id)
    assert problems == []
    assert not isinstance(BUILDERS[system_id](data), list)


def test_system_identity(system: GameSystem) -> None:
    assert system.id in BUILDERS
    assert system.name and system.rules_version and system.catalogue_version


def test_catalogue_items_have_id_name_kind(system: GameSystem) -> None:
    document = system.catalogue().model_dump()
    items = [item for value in document.values() if isinstance(value, list) for item in value]
    assert items, "the catalogue lists nothing"
    ids: list[str] = []
    for item in items:
        if isinstance(item, dict) and "id" in item:
            assert item["id"].isascii() and item["id"] == item["id"].lower()
            assert " " not in item["id"]
            assert item.get("name") and item.get("kind"), item["id"]
            ids.append(f"{item['kind']}:{item['id']}")
    assert len(ids) == len(set(ids)), "duplicate ids within a kind"


def test_every_published_profile_costs(system: GameSystem) -> None:
    profiles = system.published_profiles()
    assert profiles
    for profile in profiles:
        assert isinstance(profile.points, int) and isinstance(profile.computed_points, int)
        # A discrepancy is reported exactly when the printed and computed values differ
        # (cost lines start with "Coût"); agreeing profiles may still differ on dice/limits.
        cost_lines = [line for line in profile.discrepancies if line.startswith("Coût")]
        assert bool(cost_lines) == (profile.points != profile.computed_points), profile.id


def test_every_example_roster_validates_to_its_printed_total(system: GameSystem) -> None:
    for example in system.example_rosters():
        result = system.validate(system.roster_model.model_validate(example.document))
        assert result.points == example.printed_total, example.id
        codes = sorted(i.code for i in result.issues if i.severity == "error")
        assert codes == sorted(example.expected_issue_codes), example.id
        assert result.valid == is_valid(result.issues)
        summary = system.summarize(system.roster_model.model_validate(example.document), result)
        assert summary.points == result.points


def test_api_round_trip(system: GameSystem, client: TestClient) -> None:
    """Catalogue → store every example → read it back → share → read the share."""
    assert client.get(f"/api/v1/systems/{system.id}/catalogue").status_code == 200
    for example in system.example_rosters():
        created = client.post("/api/v1/rosters", json=example.document)
        assert created.status_code == 201, created.text
        body: dict[str, Any] = created.json()
        assert body["validation"]["points"] == example.printed_total
        auth = {"Authorization": f"Bearer {body['edit_token']}"}
        read = client.get(f"/api/v1/rosters/{body['id']}", headers=auth)
        assert read.status_code == 200
        assert read.json()["roster"] == body["roster"]
        shared = client.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth)
        assert shared.status_code == 201
        snapshot = client.get(f"/api/v1/shares/{shared.json()['code']}")
        assert snapshot.status_code == 200
        assert snapshot.json()["validation"]["points"] == example.printed_total
        assert snapshot.json()["catalogue_version"] == system.catalogue_version


def test_every_published_profile_costs_through_the_api(
    system: GameSystem, client: TestClient
) -> None:
    for profile in system.published_profiles():
        response = client.post(f"/api/v1/systems/{system.id}/cost", json=profile.definition)
        assert response.status_code == 200, (profile.id, response.text)
        body = response.json()
        assert body["points"] == profile.computed_points, profile.id
        assert sum(line["points"] for line in body["breakdown"]) == body["points"]


def test_catalogue_problems_are_all_reported_at_once(tmp_path: Any) -> None:
    """A broken catalogue names every problem with its file and key, then refuses to start."""
    from app.catalogues import CatalogueError

    for system_id in SYSTEM_IDS:
        folder = tmp_path / system_id
        folder.mkdir()
        for source in (DATA_DIR / system_id).glob("*.toml"):
            (folder / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        with (folder / "catalogue.toml").open("a", encoding="utf-8") as catalogue:
            catalogue.write("\nnot_a_catalogue_key = 1\nanother_unknown_key = 2\n")
    with pytest.raises(CatalogueError) as raised:
        load_systems(tmp_path)
    assert len(raised.value.problems) == 2 * len(SYSTEM_IDS)
    assert all("catalogue.toml" in problem for problem in raised.value.problems)
