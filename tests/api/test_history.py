"""A roster's kept versions through the API (api-v1.md « Import, history and the carnet
file »; docs/history.md): every save kept with what it changed in words and its total,
count changes in a row merged, a restore a new version that loses nothing, the bounds."""

from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlmodel import Session, col, select

from app.store import history
from app.store.models import RosterVersion
from tests.api.test_rosters import auth, create

LIST: dict[str, Any] = {
    "system": "dcsystem",
    "name": "Chulak",
    "points_limit": 400,
    "entries": [{"unit": "jaffa", "count": 2}, {"unit": "teal_c", "count": 1}],
    "extras": {},
}


def put(client: TestClient, made: dict[str, Any], document: dict[str, Any], version: int) -> Any:
    response = client.put(
        f"/api/v1/rosters/{made['id']}",
        json=document,
        headers={**auth(made), "If-Match": f'"{version}"'},
    )
    assert response.status_code == 200, response.text
    return response.json()


def versions(client: TestClient, made: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/rosters/{made['id']}/versions", headers=auth(made))
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "private, no-store"
    return response.json()["versions"]  # type: ignore[no-any-return]


def with_counts(jaffa: int, tealc: int = 1) -> dict[str, Any]:
    return {
        **LIST,
        "entries": [{"unit": "jaffa", "count": jaffa}, {"unit": "teal_c", "count": tealc}],
    }


def age(session: Session, roster_id: str, seconds: int) -> None:
    """Every kept version of the list saved `seconds` earlier than it was."""
    for row in session.exec(select(RosterVersion).where(RosterVersion.roster_id == roster_id)):
        session.execute(
            update(RosterVersion)
            .where(col(RosterVersion.roster_id) == roster_id)
            .where(col(RosterVersion.version) == row.version)
            .values(saved_at=row.saved_at - timedelta(seconds=seconds))
        )
    session.commit()


def test_each_save_is_kept_newest_first_with_what_it_changed(
    client: TestClient, session: Session
) -> None:
    made = create(client, LIST)
    put(client, made, {**LIST, "name": "Chulak II"}, 1)
    put(client, made, {**LIST, "name": "Chulak II", "entries": LIST["entries"][:1]}, 2)
    put(client, made, {**LIST, "name": "Chulak II", "points_limit": 300}, 3)
    listed = versions(client, made)
    assert [v["version"] for v in listed] == [4, 3, 2, 1]
    assert [v["summary"] for v in listed] == [
        ["Format : 400 points → 300 points", "Teal'c ajouté"],
        ["Teal'c retiré"],
        ["Nom : « Chulak » → « Chulak II »"],
        ["Liste créée"],
    ]
    assert [v["points"] for v in listed] == [137, 60, 137, 137]
    assert {v["origin"] for v in listed} == {"api"}
    assert set(listed[0]) == {"version", "saved_at", "points", "summary", "origin"}
    assert listed[0]["saved_at"].endswith("Z")


def test_count_changes_in_a_row_are_one_version_a_later_one_another(
    client: TestClient, session: Session
) -> None:
    made = create(client, LIST)
    put(client, made, with_counts(3), 1)
    put(client, made, with_counts(4), 2)
    put(client, made, with_counts(4, 2), 3)
    listed = versions(client, made)
    assert [(v["version"], v["summary"]) for v in listed] == [
        (4, ["Jaffa 2 → 4", "Teal'c 1 → 2"]),
        (1, ["Liste créée"]),
    ]
    # Back where it started: still a version, saying so.
    put(client, made, with_counts(2, 1), 4)
    assert versions(client, made)[0]["summary"] == ["Nombres revenus à ceux d'avant"]
    # Past the window, a count change is a version of its own.
    age(session, made["id"], history.COALESCE_SECONDS + 1)
    put(client, made, with_counts(5, 1), 5)
    assert [(v["version"], v["summary"]) for v in versions(client, made)] == [
        (6, ["Jaffa 2 → 5"]),
        (5, ["Nombres revenus à ceux d'avant"]),
        (1, ["Liste créée"]),
    ]
    # A change of anything else ends the run: the next count change is a new version.
    put(client, made, {**with_counts(5, 1), "name": "Abydos"}, 6)
    put(client, made, {**with_counts(6, 1), "name": "Abydos"}, 7)
    assert [v["version"] for v in versions(client, made)] == [8, 7, 6, 5, 1]


def test_a_save_that_changes_nothing_keeps_no_version(client: TestClient) -> None:
    made = create(client, LIST)
    put(client, made, LIST, 1)
    assert [v["version"] for v in versions(client, made)] == [1]


def test_a_version_reads_back_and_its_restore_is_a_new_version(client: TestClient) -> None:
    made = create(client, LIST)
    put(client, made, {**LIST, "name": "Abydos"}, 1)
    put(client, made, {**LIST, "name": "Abydos", "entries": []}, 2)
    url = f"/api/v1/rosters/{made['id']}/versions"
    first = client.get(f"{url}/1", headers=auth(made))
    assert first.status_code == 200, first.text
    body = first.json()
    assert set(body) == {"version", "saved_at", "document", "validation"}
    assert body["version"] == 1
    assert body["document"] == made["roster"]
    assert body["validation"]["points"] == 137

    restored = client.post(f"{url}/1/restore", headers={**auth(made), "If-Match": '"3"'})
    assert restored.status_code == 200, restored.text
    assert restored.headers["etag"] == '"4"'
    assert restored.json()["version"] == 4
    assert restored.json()["roster"] == made["roster"]
    read = client.get(f"/api/v1/rosters/{made['id']}", headers=auth(made)).json()
    assert read["roster"] == made["roster"] and read["version"] == 4
    listed = versions(client, made)
    assert [v["version"] for v in listed] == [4, 3, 2, 1]
    assert listed[0]["summary"] == [
        "Version 1 rétablie",
        "Nom : « Abydos » → « Chulak »",
        "Jaffa ajouté (× 2)",
        "Teal'c ajouté",
    ]


def test_restore_refusals(client: TestClient) -> None:
    made = create(client, LIST)
    put(client, made, {**LIST, "name": "Abydos"}, 1)
    url = f"/api/v1/rosters/{made['id']}/versions"
    stale = client.post(f"{url}/1/restore", headers={**auth(made), "If-Match": '"1"'})
    assert stale.status_code == 409
    assert stale.json()["errors"][0]["code"] == "version_stale"
    missing = client.post(f"{url}/9/restore", headers={**auth(made), "If-Match": '"2"'})
    assert missing.status_code == 404
    assert missing.json()["errors"][0] == {
        "loc": ["path", "version"],
        "msg": "This roster keeps no such version (docs/history.md: how many are kept).",
        "code": "version_not_found",
    }
    no_match = client.post(f"{url}/1/restore", headers=auth(made))
    assert no_match.status_code == 428
    assert client.get(f"{url}/0", headers=auth(made)).status_code == 422
    assert client.get(f"{url}/2", headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get(url).status_code == 401
    assert [v["version"] for v in versions(client, made)] == [2, 1]


def test_a_list_keeps_the_versions_of_its_last_saves(
    client: TestClient, session: Session, monkeypatch: Any
) -> None:
    monkeypatch.setattr(history, "HISTORY_SAVES", 5)
    made = create(client, LIST)
    for version in range(1, 9):
        put(client, made, {**LIST, "name": f"Liste {version}"}, version)
    assert [v["version"] for v in versions(client, made)] == [9, 8, 7, 6, 5]
    gone = client.get(f"/api/v1/rosters/{made['id']}/versions/4", headers=auth(made))
    assert gone.status_code == 404
