"""Revision 0010 (roster versions) gives every list of a database made by the previous head
one kept version — its document, its total, dated by its last change — in batches, without
changing or losing a roster row; downgrading drops the table and leaves the rosters as
they were (issue 30, « Every save kept »)."""

import json
import zlib
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import inspect, text

from app.dates import as_utc

PREVIOUS_HEAD = "0009"  # deleted items
ROWS = 1103  # more than two batches of 500, and a part of one


def document(number: int) -> dict[str, Any]:
    return {
        "system": "dcsystem",
        "name": f"Liste n°{number} — « Jaffa »",
        "points_limit": 200,
        "entries": [{"unit": "guerrier_jaffa", "count": 1 + number % 5}],
        "extras": {},
    }


def card(number: int) -> dict[str, Any] | None:
    if number % 3 == 0:
        return None  # a list stored before cards: no total known
    budgets = [{"id": "points", "label": "points", "used": 10 * number, "limit": 200}]
    return {"catalogue_version": "1", "valid": True, "budgets": budgets, "totals": []}


def test_0010_keeps_one_version_of_every_list(alembic_runner: Any, alembic_engine: Any) -> None:
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    when = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    rosters = [
        {
            "id": f"r{number:05d}",
            "system": "dcsystem",
            "name": document(number)["name"],
            "document": document(number),
            "version": 1 + number % 7,
            "token_hash": f"{number:064d}",
            "created_at": when,
            "updated_at": when + timedelta(seconds=number),
            "card": card(number),
        }
        for number in range(ROWS)
    ]
    alembic_runner.insert_into("roster", rosters)
    read_rosters = text(
        "SELECT id, version, name, document, card, updated_at FROM roster ORDER BY id"
    )
    with alembic_engine.connect() as connection:
        before = connection.execute(read_rosters).all()
    assert len(before) == ROWS

    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        after = connection.execute(read_rosters).all()
        kept = connection.execute(
            text(
                "SELECT roster_id, version, saved_at, document, points, summary, counts, origin "
                "FROM roster_version ORDER BY roster_id"
            )
        ).all()
        keys = inspect(connection).get_pk_constraint("roster_version")["constrained_columns"]
    assert after == before  # no roster row changed
    assert len(kept) == ROWS
    assert keys == ["roster_id", "version"]
    for row, number in zip(kept, range(ROWS), strict=True):
        roster_id, version, saved_at, stored, points, summary, counts, origin = row
        assert roster_id == f"r{number:05d}"
        assert version == 1 + number % 7
        assert as_utc(saved_at if isinstance(saved_at, datetime) else _parse(saved_at)) == (
            when + timedelta(seconds=number)
        )
        assert json.loads(zlib.decompress(bytes(stored))) == document(number)
        assert points == (None if number % 3 == 0 else 10 * number)
        summary = json.loads(summary) if isinstance(summary, str) else summary
        assert summary == ["Version enregistrée avant l'historique"]
        assert counts is None
        assert origin == "upgrade"

    alembic_runner.migrate_down_one()
    with alembic_engine.connect() as connection:
        assert connection.execute(read_rosters).all() == before
        assert "roster_version" not in inspect(connection).get_table_names()
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        count = connection.execute(text("SELECT count(*) FROM roster_version")).scalar_one()
    assert count == ROWS


def _parse(stored: str) -> datetime:
    """SQLite gives a DateTime read by a text query as its stored text."""
    return datetime.fromisoformat(stored)
