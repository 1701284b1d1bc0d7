"""Revision 0009 (deleted items, issue 26) upgrades a database made by the previous head
without losing a row: it adds the `deleted_item` table, where a deleted list, army book or
book's unit waits to be restored, and reads nothing else; down and up again keep every row."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import inspect, text

PREVIOUS_HEAD = "0008"  # compressed shares


def test_0009_adds_the_trash_and_keeps_every_row(alembic_runner: Any, alembic_engine: Any) -> None:
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    when = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    alembic_runner.insert_into(
        "carnet", {"id": "c0", "key_hash": "h0", "created_at": when, "key_changed_at": when}
    )
    for number in range(3):
        alembic_runner.insert_into(
            "roster",
            {
                "id": f"r{number}",
                "system": "bastos",
                "name": f"Liste {number}",
                "document": {"n": number},
                "version": 1,
                "token_hash": f"t{number}",
                "created_at": when,
                "updated_at": when,
            },
        )
        alembic_runner.insert_into(
            "carnet_roster",
            {"carnet_id": "c0", "roster_id": f"r{number}", "kind": "roster", "added_at": when},
        )
    rosters = text("SELECT id, name, document, token_hash FROM roster ORDER BY id")
    links = text("SELECT carnet_id, roster_id FROM carnet_roster ORDER BY roster_id")
    with alembic_engine.connect() as connection:
        before = (connection.execute(rosters).all(), connection.execute(links).all())
    assert len(before[0]) == len(before[1]) == 3

    alembic_runner.migrate_up_to("0009")
    with alembic_engine.connect() as connection:
        assert (connection.execute(rosters).all(), connection.execute(links).all()) == before
        assert connection.execute(text("SELECT count(*) FROM deleted_item")).scalar() == 0
    indexes = {i["name"] for i in inspect(alembic_engine).get_indexes("deleted_item")}
    assert {
        "ix_deleted_item_carnet_id",
        "ix_deleted_item_deleted_at",
        "ix_deleted_item_parent_id",
    } <= indexes

    alembic_runner.migrate_down_one()
    assert "deleted_item" not in inspect(alembic_engine).get_table_names()
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        assert (connection.execute(rosters).all(), connection.execute(links).all()) == before
