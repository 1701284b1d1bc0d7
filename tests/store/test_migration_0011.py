"""Revision 0011 (campaign versions) upgrades a database made by the previous head without
losing a row: every campaign keeps its values and starts at version 1; down and up again
keeps every row."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text

PREVIOUS_HEAD = "0010"  # roster versions


def test_0011_keeps_every_campaign_of_the_previous_head(
    alembic_runner: Any, alembic_engine: Any
) -> None:
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    made = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    rows = [
        {
            "id": f"c{n}",
            "system": "necrowarzone",
            "name": f"La Ruche {n}",
            "notes": "Règles du club.",
            "token_hash": "b" * 64,
            "join_hash": "c" * 64,
            "join_code": None if n else "code",
            "created_at": made,
        }
        for n in range(2)
    ]
    alembic_runner.insert_into("campaign", rows)
    query = text("SELECT id, name, notes, join_hash, join_code FROM campaign ORDER BY id")
    with alembic_engine.connect() as connection:
        before = connection.execute(query).all()
    alembic_runner.migrate_up_to("0011")
    with alembic_engine.connect() as connection:
        assert connection.execute(query).all() == before
        versions = connection.execute(text("SELECT version FROM campaign ORDER BY id"))
        assert versions.all() == [(1,), (1,)]
    alembic_runner.migrate_down_one()
    with alembic_engine.connect() as connection:
        assert connection.execute(query).all() == before
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        assert connection.execute(query).all() == before
