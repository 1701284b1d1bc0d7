"""Revision 0003 (army books) upgrades a database made by 0002 without losing a row:
rosters, shares, carnets and their links stay; a book can then belong to a carnet, and a
published version outlives its book."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text


def test_0003_keeps_every_row_of_0002(alembic_runner: Any, alembic_engine: Any) -> None:
    alembic_runner.migrate_up_to("0002")
    when = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    document = {"system": "dcsystem", "name": "Avant", "points_limit": 200, "entries": []}
    for index in range(2):
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
                "card": {"valid": True},
            },
        )
    alembic_runner.insert_into(
        "carnet",
        {"id": "c1", "key_hash": "b" * 64, "created_at": when, "key_changed_at": when},
    )
    alembic_runner.insert_into(
        "carnet_roster",
        {"carnet_id": "c1", "roster_id": "r1", "kind": "roster", "added_at": when},
    )
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        rows = connection.execute(text("SELECT id, version FROM roster ORDER BY id")).all()
        assert [(r.id, r.version) for r in rows] == [("r0", 1), ("r1", 2)]
        links = connection.execute(text("SELECT carnet_id, roster_id FROM carnet_roster")).all()
        assert [tuple(link) for link in links] == [("c1", "r1")]
        assert connection.execute(text("SELECT count(*) FROM book")).scalar() == 0
        connection.execute(
            text(
                "INSERT INTO book (id, system, name, document, version, token_hash, carnet_id,"
                " created_at, updated_at) VALUES ('b1', 'dcsystem', 'Kessel', :doc, 1, :hash,"
                " 'c1', :when, :when)"
            ),
            {"doc": '{"units": []}', "hash": "c" * 64, "when": when},
        )
        connection.execute(
            text(
                "INSERT INTO book_share (code, book_id, version, system, snapshot, etag,"
                " created_at) VALUES ('abcdefgh', 'b1', 1, 'dcsystem', :doc, :etag, :when)"
            ),
            {"doc": '{"units": []}', "etag": "e" * 32, "when": when},
        )
        connection.commit()
        # A published version outlives its book (no foreign key on purpose).
        connection.execute(text("DELETE FROM book WHERE id = 'b1'"))
        connection.commit()
        assert connection.execute(text("SELECT count(*) FROM book_share")).scalar() == 1
    alembic_runner.migrate_down_one()
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM roster")).scalar() == 2
        assert connection.execute(text("SELECT count(*) FROM carnet_roster")).scalar() == 1
