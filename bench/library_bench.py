"""« Mes listes » with heavy lists: the library view reads each list's stored card (issue 13,
finding 4: it used to validate every list on each view).

Stores N lists of 200 custom DCSystem fighters in one carnet (SQLite file, in-process app),
then times GET /listes three ways: cards stored (what every view does now), cards missing
(the first view after the migration, which computes and keeps them), and again stored.
Prints figures; it is not a test.

    .venv/bin/python bench/library_bench.py [--lists 40] [--runs 5]
"""

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import update

from app.cli import migrate
from app.main import create_app
from app.settings import Settings
from app.store.models import Roster

ITEMS = ["arme_tir_3", "arme_cc_2", "gilet_de_protection", "grenade", "elite", "heros"]


def heavy_document(index: int) -> dict[str, object]:
    entries = [
        {"custom": {"level": 3, "items": ITEMS}, "name": f"Combattant {n} " + "x" * 60, "count": 1}
        for n in range(200)
    ]
    return {"system": "dcsystem", "name": f"Liste lourde {index}", "entries": entries}


def timed(client: TestClient, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        response = client.get("/listes")
        times.append(time.perf_counter() - start)
        assert response.status_code == 200
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lists", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        migrate(url)
        settings = Settings(database_url=url, rate_limit_create="", rate_limit_write="")
        app = create_app(settings)
        with TestClient(app) as client:
            carnet = client.post("/api/v1/carnets").json()
            key = {"Authorization": f"Bearer {carnet['key']}"}
            size = len(json.dumps(heavy_document(0)).encode())
            for index in range(args.lists):
                made = client.post(
                    f"/api/v1/carnets/{carnet['id']}/rosters",
                    json=heavy_document(index),
                    headers=key,
                )
                assert made.status_code == 201, made.text
            client.cookies.set("caserne_carnet", f"{carnet['id']}.{carnet['key']}")
            stored = timed(client, args.runs)
            missing = []
            for _ in range(args.runs):
                with app.state.engine.begin() as connection:
                    connection.execute(update(Roster).values(card=None))
                missing += timed(client, 1)
            again = timed(client, args.runs)
        app.state.engine.dispose()
    print(f"{args.lists} lists of {size / 1024:.0f} KiB (200 custom fighters each), GET /listes:")
    for label, figures in (
        ("cards stored (every view)", stored),
        ("cards missing (computed once, kept)", missing),
        ("cards stored again", again),
    ):
        print(f"  {label:38} median {statistics.median(figures) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
