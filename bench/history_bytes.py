"""Bytes per kept version of a list (issue 30, « Every save kept »; docs/history.md).

Stores every example list of the five systems through the app (SQLite file, in-process app,
`POST /api/v1/rosters`), then saves each `--saves` times with `PUT` the way a player edits
(a rename, then a count change, in turn: a rename ends a run of count changes, so each save
is a version of its own), and reads what the table `roster_version` holds: its rows, the
bytes of their documents as stored (zlib of the JSON text, `length()`; on PostgreSQL,
`--url`, `pg_column_size`), the bytes of their summaries, and, for scale, the rosters' own
documents as stored (JSON text on SQLite, jsonb on PostgreSQL). Then the same list of 50
entries (each system's first example, repeated) for a long list's figure. Prints figures;
it is not a test.

    .venv/bin/python bench/history_bytes.py [--saves 20] [--url postgresql+psycopg://…]
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

LONG = 50


def edit(client: TestClient, document: dict[str, Any], saves: int) -> None:
    created = client.post("/api/v1/rosters", json=document)
    assert created.status_code == 201, created.text
    token = {"Authorization": f"Bearer {created.json()['edit_token']}"}
    stored = created.json()["roster"]
    for n in range(saves):
        entries = [dict(entry) for entry in stored["entries"]]
        if n % 2 and entries:
            entries[0]["count"] = 1 + (entries[0]["count"] % 3)
        changed = {**stored, "entries": entries, "name": f"{document['name']} ({n // 2})"}
        put = client.put(
            f"/api/v1/rosters/{created.json()['id']}",
            json=changed,
            headers={**token, "If-Match": "*"},
        )
        assert put.status_code == 200, put.text
        stored = put.json()["roster"]


def measure(url: str) -> dict[str, int]:
    engine = make_engine(url)
    size = "pg_column_size" if url.startswith("postgresql") else "length"
    summary = "summary::text" if url.startswith("postgresql") else "summary"
    try:
        with engine.connect() as connection:
            rows, documents, summaries = connection.execute(
                text(
                    f"SELECT count(*), sum({size}(document)), sum(length({summary})) "
                    "FROM roster_version"
                )
            ).one()
            lists, roster_bytes = connection.execute(
                text(f"SELECT count(*), sum({size}(document)) FROM roster")
            ).one()
        return {
            "versions": int(rows),
            "documents": int(documents),
            "summaries": int(summaries),
            "lists": int(lists),
            "rosters": int(roster_bytes),
        }
    finally:
        engine.dispose()


def run(url: str, documents: list[dict[str, Any]], saves: int) -> dict[str, int]:
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["url"] = url
    config.attributes["configure_logger"] = False
    command.upgrade(config, "head")
    settings = Settings(
        database_url=url, rate_limit_create="", rate_limit_write="", rate_limit_stored=""
    )
    app = create_app(settings)
    with TestClient(app) as client:
        for document in documents:
            edit(client, document, saves)
    app.state.engine.dispose()
    return measure(url)


def long_lists() -> list[dict[str, Any]]:
    out = []
    for system in load_systems().values():
        example = dict(system.example_rosters()[0].document)
        entries = list(example["entries"])
        example["entries"] = [dict(entries[i % len(entries)]) for i in range(LONG)]
        out.append({**example, "name": f"{example.get('name') or system.id} ({LONG})"})
    return out


def show(title: str, found: dict[str, int]) -> None:
    versions, lists = found["versions"], found["lists"]
    document, summary = found["documents"] / versions, found["summaries"] / versions
    print(
        f"{title}: {lists} lists, {versions} versions; a version's document {document:7.0f} "
        f"bytes, its summary {summary:4.0f} bytes; a list's own document "
        f"{found['rosters'] / lists:7.0f} bytes"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--url", default="", help="an empty database to fill (default: SQLite)")
    args = parser.parse_args()
    examples = [
        {**example.document, "name": example.name}
        for system in load_systems().values()
        for example in system.example_rosters()
    ]
    database = "PostgreSQL (pg_column_size)" if args.url.startswith("postgresql") else "SQLite"
    print(f"{database}, {args.saves} saves a list (a rename, a count change, in turn)")
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite:///{Path(folder) / 'examples.sqlite3'}"
        show("the examples of the five systems", run(url, examples, args.saves))
        if not args.url:
            url = f"sqlite:///{Path(folder) / 'long.sqlite3'}"
            show(f"lists of {LONG} entries", run(url, long_lists(), args.saves))


if __name__ == "__main__":
    main()
