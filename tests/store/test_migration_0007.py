"""Revision 0007 (share lookups) upgrades a database made by the previous head without
losing a row, and a list's newest share, its share of one snapshot and a book's newest
version are then read through the new composite indexes (issue 29: a gang gets one share
per battle, and the newest was found by sorting them all)."""

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import text

from tests.conftest import ON_POSTGRES

PREVIOUS_HEAD = "0006"  # battle verdicts


def _plan(connection: Any, query: str) -> str:
    if ON_POSTGRES:
        # A few rows: the planner would scan them; what is asked is that the index serves.
        connection.execute(text("SET enable_seqscan = off"))
        rows = connection.execute(text(f"EXPLAIN {query}")).all()
    else:
        rows = connection.execute(text(f"EXPLAIN QUERY PLAN {query}")).all()
    return "\n".join(str(row[-1]) for row in rows)


def test_0007_keeps_every_share_and_serves_lookups_from_its_indexes(
    alembic_runner: Any, alembic_engine: Any
) -> None:
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    when = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    for number in range(3):
        alembic_runner.insert_into(
            "share",
            {
                "code": f"share{number}",
                "roster_id": "r0",
                "system": "bastos",
                "catalogue_version": "1",
                "snapshot": {"n": number},
                "etag": f"etag{number}",
                "created_at": when + timedelta(minutes=number),
            },
        )
        alembic_runner.insert_into(
            "book_share",
            {
                "code": f"book{number}",
                "book_id": "b0",
                "version": number + 1,
                "system": "bastos",
                "snapshot": {"n": number},
                "etag": f"etag{number}",
                "created_at": when + timedelta(minutes=number),
            },
        )
    shares = text("SELECT code, roster_id, etag, snapshot FROM share ORDER BY code")
    books = text("SELECT code, book_id, version, snapshot FROM book_share ORDER BY code")
    with alembic_engine.connect() as connection:
        before = (connection.execute(shares).all(), connection.execute(books).all())
    assert len(before[0]) == len(before[1]) == 3

    alembic_runner.migrate_up_to("0007")
    with alembic_engine.connect() as connection:
        assert (connection.execute(shares).all(), connection.execute(books).all()) == before
        newest = connection.execute(
            text("SELECT code FROM share WHERE roster_id = 'r0' ORDER BY created_at DESC LIMIT 1")
        )
        assert newest.scalar_one() == "share2"
        latest = "SELECT code FROM share WHERE roster_id = 'r0' ORDER BY created_at DESC LIMIT 1"
        assert "ix_share_roster_id_created_at" in _plan(connection, latest)
        exact = "SELECT code FROM share WHERE roster_id = 'r0' AND etag = 'etag1'"
        assert "ix_share_roster_id_etag" in _plan(connection, exact)
        book = "SELECT code FROM book_share WHERE book_id = 'b0' ORDER BY created_at DESC LIMIT 1"
        assert "ix_book_share_book_id_created_at" in _plan(connection, book)

    alembic_runner.migrate_down_one()
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        assert (connection.execute(shares).all(), connection.execute(books).all()) == before
