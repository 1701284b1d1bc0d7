"""Revision 0006 (battle verdicts) upgrades a database made by the previous head without
losing a row: every line keeps its values, with no verdict and not voided; down and up
again keeps every row."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text

PREVIOUS_HEAD = "0005"  # entry ids


def test_0006_keeps_every_line_of_the_previous_head(
    alembic_runner: Any, alembic_engine: Any
) -> None:
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    when = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    for roster_id in ("r0", "r1"):
        alembic_runner.insert_into(
            "roster",
            {
                "id": roster_id,
                "system": "bastos",
                "name": roster_id,
                "document": {"system": "bastos", "name": roster_id, "entries": []},
                "version": 2,
                "token_hash": "a" * 64,
                "created_at": when,
                "updated_at": when,
                "card": None,
            },
        )
    for number in (1, 2):
        alembic_runner.insert_into(
            "battle",
            {
                "roster_id": "r0",
                "number": number,
                "campaign_id": "c0",
                "opponent_roster_id": "r1",
                "date": "2026-12-01",
                "opponent": "",
                "scenario": "Le casse",
                "result": "win",
                "notes": f"note {number}",
                "fighters": [],
                "recruits": [],
                "share_code": f"code{number}",
                "created_at": when,
            },
        )
    alembic_runner.insert_into(
        "campaign",
        {
            "id": "c0",
            "system": "bastos",
            "name": "Chicago",
            "notes": "",
            "token_hash": "b" * 64,
            "join_hash": "c" * 64,
            "created_at": when,
        },
    )
    query = text(
        "SELECT number, opponent_roster_id, scenario, notes, share_code FROM battle ORDER BY number"
    )
    with alembic_engine.connect() as connection:
        before = connection.execute(query).all()
    alembic_runner.migrate_up_to("0006")
    with alembic_engine.connect() as connection:
        assert connection.execute(query).all() == before
        added = connection.execute(text("SELECT verdict, voided_at, confirms_id FROM battle"))
        assert added.all() == [(None, None, None), (None, None, None)]
        campaign = connection.execute(text("SELECT name, join_hash, join_code FROM campaign"))
        assert campaign.all() == [("Chicago", "c" * 64, None)]
    alembic_runner.migrate_down_one()
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        assert connection.execute(query).all() == before
