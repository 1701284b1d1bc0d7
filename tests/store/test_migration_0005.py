"""Revision 0005 (entry ids) upgrades a database made by the previous head without losing a
row: a list that recorded battles gets a stable id on each entry and each ledger line's
fighters name the entry at their index; a list without battles is left byte for byte; down
and up again keeps every row."""

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text

PREVIOUS_HEAD = "0004"  # campaigns


def figure(name: str, xp: int) -> dict[str, Any]:
    return {"name": name, "custom": {"xp": xp, "profile": {"M": 4}}}


def loaded(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def test_0005_names_every_fighter_of_the_previous_head(
    alembic_runner: Any, alembic_engine: Any
) -> None:
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    when = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    gang = {
        "system": "necrowarzone",
        "name": "Orlocks",
        "points_limit": None,
        "entries": [figure("Chef", 80), figure("Ganger 1", 85), figure("Ganger 2", 10)],
    }
    quiet = {**gang, "name": "Sans bataille"}
    for roster_id, document in (("r0", gang), ("r1", quiet)):
        alembic_runner.insert_into(
            "roster",
            {
                "id": roster_id,
                "system": "necrowarzone",
                "name": document["name"],
                "document": document,
                "version": 3,
                "token_hash": "a" * 64,
                "created_at": when,
                "updated_at": when,
                "card": None,
            },
        )
    lines = [
        [{"entry": 1, "name": "Ganger 1", "xp": 25, "changes": [], "rep": None, "state": None}],
        [{"entry": 2, "name": "Ganger 2", "xp": 0, "changes": [], "rep": None, "state": "dead"}],
    ]
    for number, fighters in enumerate(lines, start=1):
        alembic_runner.insert_into(
            "battle",
            {
                "roster_id": "r0",
                "number": number,
                "date": "2026-12-01",
                "opponent": "Goliaths",
                "scenario": "",
                "result": "win",
                "notes": "",
                "fighters": fighters,
                "recruits": [],
                "share_code": f"code{number}",
                "created_at": when,
            },
        )
    alembic_runner.migrate_up_to("0005")
    with alembic_engine.connect() as connection:
        rows = connection.execute(text("SELECT id, document FROM roster ORDER BY id")).all()
        after = {row.id: loaded(row.document) for row in rows}
        ids = [entry["id"] for entry in after["r0"]["entries"]]
        assert len(set(ids)) == 3
        assert [{k: v for k, v in e.items() if k != "id"} for e in after["r0"]["entries"]] == (
            gang["entries"]
        )
        assert after["r1"] == quiet  # no battle: untouched
        stored = connection.execute(text("SELECT fighters FROM battle ORDER BY number")).all()
        fighters = [loaded(row.fighters) for row in stored]
        assert fighters == [
            [{**lines[0][0], "id": ids[1]}],
            [{**lines[1][0], "id": ids[2]}],
        ]
    alembic_runner.migrate_down_one()
    with alembic_engine.connect() as connection:
        rows = connection.execute(text("SELECT id, document FROM roster ORDER BY id")).all()
        assert {row.id: loaded(row.document) for row in rows} == {"r0": gang, "r1": quiet}
        assert connection.execute(text("SELECT count(*) FROM battle")).scalar() == 2
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM roster")).scalar() == 2
        assert connection.execute(text("SELECT count(*) FROM battle")).scalar() == 2
