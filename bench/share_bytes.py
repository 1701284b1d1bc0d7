"""Bytes per share, as stored before revision 0008 (JSON text) and after (zlib of
the compact JSON): issue 29, « Shares that don't fill the disk ».

Stores every example list of the five systems (the lists printed in the rule texts) through
the app (SQLite file, in-process app, `POST /api/v1/rosters` then `…/shares`), `--copies`
times each with a different name, and reads `SELECT sum(length(snapshot)) FROM share` at
head; then downgrades to 0007 (which writes each snapshot back as the JSON text the app
stored before) and reads it again; then upgrades again and checks that every snapshot reads
back the same. On SQLite by default; `--url` names an empty database to fill instead (a
PostgreSQL one is measured with pg_column_size: what a row holds after TOAST's compression).
Prints figures; it is not a test.

    .venv/bin/python bench/share_bytes.py [--copies 3] [--url postgresql+psycopg://…]
"""

import argparse
import tempfile
from pathlib import Path
from typing import Any

from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import text

from alembic import command
from app.catalogues import load_systems
from app.db import make_engine
from app.main import create_app
from app.settings import ROOT, Settings


def share_all(client: TestClient, copies: int) -> int:
    shared = 0
    for system in load_systems().values():
        for example in system.example_rosters():
            for copy in range(copies):
                document = {**example.document, "name": f"{example.name} ({copy + 1})"}
                created = client.post("/api/v1/rosters", json=document)
                assert created.status_code == 201, created.text
                token = {"Authorization": f"Bearer {created.json()['edit_token']}"}
                posted = client.post(
                    f"/api/v1/rosters/{created.json()['id']}/shares", headers=token
                )
                assert posted.status_code == 201, posted.text
                shared += 1
    return shared


def measure(url: str) -> tuple[int, int]:
    """(shares, bytes of their snapshots as stored: on PostgreSQL pg_column_size, what the
    row holds after TOAST's own compression)."""
    engine = make_engine(url)
    size = "pg_column_size" if url.startswith("postgresql") else "length"
    try:
        with engine.connect() as connection:
            count, stored = connection.execute(
                text(f"SELECT count(*), sum({size}(snapshot)) FROM share")
            ).one()
        return int(count), int(stored)
    finally:
        engine.dispose()


def snapshots(url: str) -> list[Any]:
    from sqlmodel import Session, col, select

    from app.store.models import Share

    engine = make_engine(url)
    try:
        with Session(engine) as session:
            return [s.snapshot for s in session.exec(select(Share).order_by(col(Share.code)))]
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument(
        "--url", default="", help="an empty database to fill (default: a new SQLite file)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        config = Config(str(ROOT / "alembic.ini"))
        config.attributes["url"] = url
        config.attributes["configure_logger"] = False
        command.upgrade(config, "head")
        settings = Settings(
            database_url=url,
            rate_limit_create="",
            rate_limit_share="",
            rate_limit_write="",
            rate_limit_stored="",
        )
        with TestClient(create_app(settings)) as client:
            made = share_all(client, args.copies)
        count, after = measure(url)
        assert count == made
        read = snapshots(url)
        command.downgrade(config, "0007")
        _, before = measure(url)
        command.upgrade(config, "head")
        _, again = measure(url)
        # The same documents; on PostgreSQL, jsonb's key order may change the bytes a little.
        assert snapshots(url) == read
    database = "PostgreSQL (pg_column_size)" if url.startswith("postgresql") else "SQLite"
    print(
        f"{count} shares (the examples of the five systems, {args.copies} copies each), {database}"
    )
    print(f"before (0007, JSON):       {before:>9} bytes, {before / count:8.0f} bytes a share")
    print(f"after  (0008, zlib):       {after:>9} bytes, {after / count:8.0f} bytes a share")
    print(f"after / before: {after / before:.3f} (after a round trip through 0007: {again} bytes)")


if __name__ == "__main__":
    main()
