"""Revision 0012 (retired carnet keys, issue 28) upgrades a database made by the previous
head without losing a row: it adds the `retired_key` table and reads nothing else; down and
up again keep every carnet."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import inspect, text

PREVIOUS_HEAD = "0011"  # campaign versions


def test_0012_adds_retired_keys_and_keeps_every_carnet(
    alembic_runner: Any, alembic_engine: Any
) -> None:
    when = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    made = [
        {"id": f"c{n}", "key_hash": f"h{n}", "created_at": when, "key_changed_at": when}
        for n in range(3)
    ]
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    for carnet in made:
        alembic_runner.insert_into("carnet", carnet)
    carnets = text("SELECT id, key_hash FROM carnet ORDER BY id")
    with alembic_engine.connect() as connection:
        before = connection.execute(carnets).all()
    assert len(before) == 3

    alembic_runner.migrate_up_to("0012")
    with alembic_engine.connect() as connection:
        assert connection.execute(carnets).all() == before
        assert connection.execute(text("SELECT count(*) FROM retired_key")).scalar() == 0
    indexes = {i["name"] for i in inspect(alembic_engine).get_indexes("retired_key")}
    assert "ix_retired_key_carnet_id" in indexes
    alembic_runner.insert_into(
        "retired_key", {"key_hash": "old", "carnet_id": "c0", "retired_at": when}
    )

    alembic_runner.migrate_down_one()
    assert "retired_key" not in inspect(alembic_engine).get_table_names()
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        assert connection.execute(carnets).all() == before
