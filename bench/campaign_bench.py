"""Campaigns: what the ledger costs the pages and routes that count a list. A Necromunda–
Warzone gang of 9 fighters with 0, 50 and 200 battles (one fighter dead in the first): the
editor (GET /r/{id}), GET /api/v1/rosters/{id}, « Après la bataille » (GET /r/{id}/campagne)
and recording one more battle. In-process (TestClient, SQLite file), so it measures
Caserne's own work, not the network. Prints figures; passes or fails on nothing.

    .venv/bin/python bench/campaign_bench.py [--rounds N]
"""

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from inprocess import in_process_client

PROFILE = {"M": 4, "CC": 3, "CT": 3, "F": 3, "E": 3, "PV": 1, "I": 3, "A": 1, "Cd": 7}


def gang() -> dict[str, Any]:
    chef = {"name": "Chef", "custom": {"leader": True, "xp": 80, "profile": PROFILE}}
    gangers = [{"name": f"Ganger {n}", "custom": {"xp": 10, "profile": PROFILE}} for n in range(8)]
    return {"system": "necrowarzone", "name": "Bench", "entries": [chef, *gangers]}


def timed(what: Callable[[], Any], rounds: int) -> tuple[float, float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        what()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def measure(client: TestClient, battles: int, rounds: int) -> None:
    """One gang with `battles` lines (a fighter dead in the first), its pages timed."""
    made = client.post("/api/v1/rosters", json=gang()).json()
    auth = {"Authorization": f"Bearer {made['edit_token']}"}
    opened = client.get(made["edit_url"].removeprefix("http://testserver"))
    assert opened.status_code in (200, 303), opened.status_code
    version = [1]

    def record(first: bool = False) -> None:
        fighters = [{"entry": 4, "state": "dead"}] if first else [{"entry": 1, "xp": 1}]
        response = client.post(
            f"/api/v1/rosters/{made['id']}/battles",
            json={"date": "2026-12-01", "result": "win", "fighters": fighters},
            headers={**auth, "If-Match": f'"{version[0]}"'},
        )
        assert response.status_code == 201, response.text
        version[0] += 1

    for number in range(battles):
        record(first=number == 0)
    rows: list[tuple[str, Callable[[], Any]]] = [
        ("editor GET /r/{id}", lambda: client.get(f"/r/{made['id']}")),
        (
            "GET /api/v1/rosters/{id}",
            lambda: client.get(f"/api/v1/rosters/{made['id']}", headers=auth),
        ),
        ("GET /r/{id}/campagne", lambda: client.get(f"/r/{made['id']}/campagne")),
        ("record_battle", record),
    ]
    for name, what in rows:
        median, worst = timed(what, rounds)
        print(f"{battles:>4} battles  {name:<26} median {median:7.1f} ms  max {worst:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    rounds = parser.parse_args().rounds
    with in_process_client(follow_redirects=False) as client:
        client.headers["Sec-Fetch-Site"] = "same-origin"
        for battles in (0, 50, 200):
            measure(client, battles, rounds)


if __name__ == "__main__":
    main()
