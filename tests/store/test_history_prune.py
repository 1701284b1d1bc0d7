"""`caserne prune` and a list's kept versions (docs/history.md): versions saved before
`--history-days` go, but never those among their list's last HISTORY_KEPT saves nor its
newest; a dry run removes nothing and says what a real one would."""

from datetime import UTC, date, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import Session

from app.store import history
from app.store.history import prune_versions

TODAY = date(2026, 12, 5)
LONG_AGO = datetime(2025, 1, 2, 12, 0, tzinfo=UTC)


def saved(client: TestClient, names: int) -> tuple[str, dict[str, str]]:
    """A list saved `names` times after its creation (a new name each time)."""
    body: dict[str, Any] = {"system": "dcsystem", "entries": [{"unit": "jaffa", "count": 2}]}
    made = client.post("/api/v1/rosters", json=body).json()
    token = {"Authorization": f"Bearer {made['edit_token']}"}
    for n in range(names):
        renamed = {**body, "name": f"Nom {n}"}
        put = client.put(
            f"/api/v1/rosters/{made['id']}", json=renamed, headers={**token, "If-Match": "*"}
        )
        assert put.status_code == 200, put.text
    return made["id"], token


def kept(session: Session, roster_id: str) -> list[int]:
    query = text("SELECT version FROM roster_version WHERE roster_id = :r ORDER BY version")
    return list(session.execute(query, {"r": roster_id}).scalars())


def make_old(session: Session, roster_id: str, versions: list[int]) -> None:
    for version in versions:
        session.execute(
            text("UPDATE roster_version SET saved_at = :t WHERE roster_id = :r AND version = :v"),
            {"t": LONG_AGO, "r": roster_id, "v": version},
        )
    session.commit()


def test_old_versions_go_but_the_last_saves_and_the_newest(
    client: TestClient, session: Session
) -> None:
    busy, _ = saved(client, 14)  # versions 1..15
    quiet, quiet_token = saved(client, 2)  # versions 1..3
    make_old(session, busy, list(range(1, 16)))
    make_old(session, quiet, [1, 2, 3])
    # Ten saves that change nothing: the quiet list's newest kept version is 3 of 13.
    for _ in range(10):
        body = {"system": "dcsystem", "name": "Nom 1", "entries": [{"unit": "jaffa", "count": 2}]}
        client.put(f"/api/v1/rosters/{quiet}", json=body, headers={**quiet_token, "If-Match": "*"})
    assert kept(session, quiet) == [1, 2, 3]

    dry = prune_versions(session=session, days=365, on=TODAY)
    assert (dry.versions, dry.removable, dry.removed) == (18, 7, 0)
    stored = session.execute(
        text(
            "SELECT sum(length(document)) FROM roster_version "
            "WHERE (roster_id = :b AND version <= 5) OR (roster_id = :q AND version <= 2)"
        ),
        {"b": busy, "q": quiet},
    ).scalar_one()
    assert dry.removable_bytes == stored > 0
    assert dry.lines() == [
        "caserne prune: 18 list versions; saved before 2025-12-05 (365 days), not among "
        f"their list's last {history.HISTORY_KEPT} saves nor its newest, or of a deleted list: 7",
        f"  their documents as stored: {stored} bytes",
        "would remove: 7 list versions (dry run: nothing removed; --apply removes)",
    ]
    assert len(kept(session, busy)) == 15

    done = prune_versions(session=session, days=365, apply=True, on=TODAY)
    assert done.removed == 7 and done.lines()[-1] == "removed: 7 list versions"
    assert kept(session, busy) == list(range(6, 16))
    assert kept(session, quiet) == [3]
    # Recent versions stay whatever the count: 0 removable a second time.
    assert prune_versions(session=session, days=365, apply=True, on=TODAY).removed == 0


def test_recent_versions_stay(client: TestClient, session: Session) -> None:
    roster_id, _ = saved(client, 14)
    report = prune_versions(session=session, days=365, apply=True, on=TODAY)
    assert report.removed == 0 and kept(session, roster_id) == list(range(1, 16))
    # With 0 days, tomorrow: all but the last saves go.
    tomorrow = datetime.now(UTC).date() + timedelta(days=1)
    assert prune_versions(session=session, days=0, apply=True, on=tomorrow).removed == 5
