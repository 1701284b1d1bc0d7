"""Tabletop Simulator exports (docs/tts.md): for each system, a 200-entry list (its first
example's entries repeated), shared, then /s/{code}.tts.json, .tts.txt and, to compare,
.bbcode: bytes and time to build (median of the rounds). In-process (TestClient, SQLite
file), so it measures Caserne's own work, not the network. Prints figures; passes or fails
on nothing.

    .venv/bin/python bench/tts_bench.py [--rounds N]
"""

import argparse
import statistics
import time
from typing import Any

from inprocess import in_process_client

ENTRIES = 200  # the most a list holds (app/systems/catalogued.py)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    print(f"{'system':<14}{'export':<10}{'bytes':>10}{'median ms':>11}{'max ms':>9}")
    with in_process_client() as client:
        app: Any = client.app
        for system_id, system in app.state.systems.items():
            document = dict(system.example_rosters()[0].document)
            document["entries"] = (document["entries"] * ENTRIES)[:ENTRIES]
            made = client.post("/api/v1/rosters", json=document)
            assert made.status_code == 201, made.text
            token = {"Authorization": f"Bearer {made.json()['edit_token']}"}
            shared = client.post(f"/api/v1/rosters/{made.json()['id']}/shares", headers=token)
            code = shared.json()["code"]
            snapshot = len(client.get(f"/api/v1/shares/{code}").content)
            print(f"{system_id:<14}{'snapshot':<10}{snapshot:>10}")
            for ext in ("tts.json", "tts.txt", "bbcode"):
                times, size = [], 0
                for _ in range(rounds):
                    start = time.perf_counter()
                    answer = client.get(f"/s/{code}.{ext}")
                    times.append((time.perf_counter() - start) * 1000)
                    assert answer.status_code == 200
                    size = len(answer.content)
                median = statistics.median(times)
                print(f"{'':<14}{ext:<10}{size:>10}{median:>11.0f}{max(times):>9.0f}")


if __name__ == "__main__":
    main()
