"""Revision 0002 (carnets, roster cards) upgrades a database made by 0001 without losing a
row: rosters and shares stay as they were, with no card yet (the library computes it once)."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text


def test_0002_keeps_every_row_of_0001(alembic_runner: Any, alembic_engine: Any) -> None:
    alembic_runner.migrate_up_to("0001")
    when = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    document = {"system": "dcsystem", "name": "Avant", "points_limit": 200, "entries": []}
    for index in range(3):
        alembic_runner.insert_into(
            "roster",
            {
                "id": f"r{index}",
                "system": "dcsystem",
                "name": f"Avant {index}",
                "document": document,
                "version": index + 1,
                "token_hash": "a" * 64,
                "created_at": when,
                "updated_at": when,
            },
        )
    alembic_runner.insert_into(
        "share",
        {
            "code": "abcdefgh",
            "roster_id": "r0",
            "system": "dcsystem",
            "catalogue_version": "1",
            "snapshot": {"roster": document},
            "etag": "e" * 32,
            "created_at": when,
        },
    )
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        rows = connection.execute(
            text("SELECT id, name, version, token_hash, card FROM roster ORDER BY id")
        ).all()
        assert [(r.id, r.name, r.version, r.card) for r in rows] == [
            ("r0", "Avant 0", 1, None),
            ("r1", "Avant 1", 2, None),
            ("r2", "Avant 2", 3, None),
        ]
        assert connection.execute(text("SELECT count(*) FROM share")).scalar() == 1
        assert connection.execute(text("SELECT count(*) FROM carnet")).scalar() == 0
        connection.execute(
            text(
                "INSERT INTO carnet (id, key_hash, created_at, key_changed_at) "
                "VALUES ('c1', :hash, :when, :when)"
            ),
            {"hash": "b" * 64, "when": when},
        )
        connection.execute(
            text(
                "INSERT INTO carnet_roster (carnet_id, roster_id, kind, added_at) "
                "VALUES ('c1', 'r1', 'roster', :when)"
            ),
            {"when": when},
        )
        connection.commit()
    alembic_runner.migrate_down_one()
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM roster")).scalar() == 3
