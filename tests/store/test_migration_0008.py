"""Revision 0008 (compressed shares) converts every share and book version of a database made
by the previous head, in batches, without losing one, and back (issue 29: shares were 80–90 %
of the database's bytes): each snapshot reads back as the same document, stored as zlib of
its compact JSON; every share found counts as viewed on the day of the upgrade."""

import json
import zlib
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import inspect, text

PREVIOUS_HEAD = "0007"  # share lookups
ROWS = 1203  # more than two batches of 500, and a part of one


def snapshot(number: int) -> dict[str, Any]:
    """A document like a share's, with text beyond ASCII and nested values."""
    return {
        "roster": {"name": f"Bande n°{number} — « Lézards »", "entries": [{"unit": "x"}] * 3},
        "validation": {"valid": number % 2 == 0, "issues": []},
        "summary": {"points": number, "ratio": 0.5, "none": None},
    }


def test_0008_compresses_every_snapshot_and_back(alembic_runner: Any, alembic_engine: Any) -> None:
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    when = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    shares = [
        {
            "code": f"s{number:05d}",
            "roster_id": f"r{number % 7}",
            "system": "bastos",
            "catalogue_version": "1",
            "snapshot": snapshot(number),
            "etag": f"etag{number}",
            "created_at": when + timedelta(seconds=number),
        }
        for number in range(ROWS)
    ]
    books = [
        {
            "code": f"b{number:05d}",
            "book_id": "b0",
            "version": number + 1,
            "system": "bastos",
            "snapshot": snapshot(number),
            "etag": f"etag{number}",
            "created_at": when + timedelta(seconds=number),
        }
        for number in range(7)
    ]
    alembic_runner.insert_into("share", shares)
    alembic_runner.insert_into("book_share", books)
    read_shares = text(
        "SELECT code, roster_id, etag, created_at, snapshot FROM share ORDER BY code"
    )
    read_books = text("SELECT code, book_id, version, snapshot FROM book_share ORDER BY code")
    with alembic_engine.connect() as connection:
        before = (connection.execute(read_shares).all(), connection.execute(read_books).all())
    assert len(before[0]) == ROWS and len(before[1]) == 7

    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        after = connection.execute(read_shares).all()
        stored_books = connection.execute(read_books).all()
        viewed = connection.execute(text("SELECT DISTINCT last_viewed FROM share")).all()
        columns = {c["name"]: c for c in inspect(connection).get_columns("share")}
        tables = inspect(connection).get_table_names()
        battle_indexes = {i["name"] for i in inspect(connection).get_indexes("battle")}
    assert len(after) == ROWS and len(stored_books) == 7
    for row, old in zip(after, before[0], strict=True):
        assert row[:4] == old[:4]
        stored = bytes(row[4])
        text_form = json.dumps(snapshot(int(row[0][1:])), ensure_ascii=False, separators=(",", ":"))
        # Compact UTF-8 JSON (PostgreSQL's jsonb had its own key order: the same length).
        assert len(zlib.decompress(stored).decode()) == len(text_form)
        assert json.loads(zlib.decompress(stored)) == snapshot(int(row[0][1:]))
    for row, old in zip(stored_books, before[1], strict=True):
        assert row[:3] == old[:3]
        assert json.loads(zlib.decompress(bytes(row[3]))) == snapshot(int(row[0][1:]))
    # Views were not recorded before 0008: each share counts as viewed on the upgrade's day.
    assert [str(v[0]) for v in viewed] == [datetime.now(UTC).date().isoformat()]
    assert columns["last_viewed"]["nullable"] is True
    assert columns["snapshot"]["nullable"] is False
    assert "share_gone" in tables
    assert "ix_battle_share_code" in battle_indexes

    alembic_runner.migrate_down_one()
    with alembic_engine.connect() as connection:
        assert (
            connection.execute(read_shares).all(),
            connection.execute(read_books).all(),
        ) == before
        columns = {c["name"] for c in inspect(connection).get_columns("share")}
        assert "last_viewed" not in columns
        assert "share_gone" not in inspect(connection).get_table_names()
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        again = connection.execute(read_shares).all()
    assert [row[:4] for row in again] == [row[:4] for row in before[0]]
    assert [json.loads(zlib.decompress(bytes(row[4]))) for row in again] == [
        snapshot(number) for number in range(ROWS)
    ]
