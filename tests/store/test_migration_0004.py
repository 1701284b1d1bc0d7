"""Revision 0004 (campaigns) upgrades a database made by the previous head without losing a
row: rosters, shares, carnets and their links stay; the ledger starts empty and takes a
line at once; down and up again keeps everything that was there before."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text

PREVIOUS_HEAD = "0003"  # army books


def test_0004_keeps_every_row_of_the_previous_head(
    alembic_runner: Any, alembic_engine: Any
) -> None:
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    when = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    document = {"system": "necrowarzone", "name": "Orlocks", "points_limit": None, "entries": []}
    for index in range(3):
        alembic_runner.insert_into(
            "roster",
            {
                "id": f"r{index}",
                "system": "necrowarzone",
                "name": f"Orlocks {index}",
                "document": document,
                "version": index + 1,
                "token_hash": "a" * 64,
                "created_at": when,
                "updated_at": when,
                "card": None,
            },
        )
    alembic_runner.insert_into(
        "share",
        {
            "code": "abcdefgh",
            "roster_id": "r0",
            "system": "necrowarzone",
            "catalogue_version": "1",
            "snapshot": {"roster": document},
            "etag": "e" * 32,
            "created_at": when,
        },
    )
    alembic_runner.insert_into(
        "carnet", {"id": "c1", "key_hash": "b" * 64, "created_at": when, "key_changed_at": when}
    )
    alembic_runner.insert_into(
        "carnet_roster", {"carnet_id": "c1", "roster_id": "r1", "kind": "roster", "added_at": when}
    )
    alembic_runner.migrate_up_to("0004")
    with alembic_engine.connect() as connection:
        rows = connection.execute(text("SELECT id, version FROM roster ORDER BY id")).all()
        assert [(r.id, r.version) for r in rows] == [("r0", 1), ("r1", 2), ("r2", 3)]
        assert connection.execute(text("SELECT count(*) FROM share")).scalar() == 1
        assert connection.execute(text("SELECT count(*) FROM carnet_roster")).scalar() == 1
        assert connection.execute(text("SELECT count(*) FROM battle")).scalar() == 0
        connection.execute(
            text(
                "INSERT INTO campaign (id, system, name, notes, token_hash, join_hash, "
                "created_at) VALUES ('k1', 'necrowarzone', 'Ruche', '', :h, :h, :when)"
            ),
            {"h": "c" * 64, "when": when},
        )
        connection.execute(
            text(
                "INSERT INTO campaign_gang (campaign_id, roster_id, joined_at) "
                "VALUES ('k1', 'r0', :when)"
            ),
            {"when": when},
        )
        connection.execute(
            text(
                "INSERT INTO battle (roster_id, number, campaign_id, date, opponent, scenario, "
                "result, notes, fighters, recruits, share_code, created_at) VALUES ('r0', 1, "
                "'k1', '2026-12-01', 'Goliaths', '', 'win', '', '[]', '[]', 'abcdefgh', :when)"
            ),
            {"when": when},
        )
        connection.commit()
    alembic_runner.migrate_down_one()
    alembic_runner.migrate_up_one()
    with alembic_engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM roster")).scalar() == 3
        assert connection.execute(text("SELECT count(*) FROM carnet")).scalar() == 1
        assert connection.execute(text("SELECT count(*) FROM battle")).scalar() == 0
