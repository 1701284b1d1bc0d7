"""Army books: publish and read a 200-unit No Limits book, validate a 50-entry list drawn
from it, and serve that list's share page and export (each entry's origin looked up)
(api-v1.md « Army books »). In-process (TestClient, SQLite file), so it measures Caserne's
own work, not the network. Prints figures; passes or fails on nothing.

    .venv/bin/python bench/books_bench.py [--rounds N]
"""

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from inprocess import in_process_client


def unit(index: int) -> dict[str, Any]:
    return {
        "id": f"profil_{index}",
        "name": f"Profil {index}",
        "text": "",
        "definition": {
            "profile": {
                "AC": 9,
                "CT": 4 + index % 4,
                "CC": 5,
                "FO": 4,
                "EN": 5,
                "PV": 1 + index % 6,
                "CO": 5,
                "SV": 2,
            },
            "size": "moyenne",
            "weapons": ["fusil_d_assaut"],
            "abilities": [],
            "vehicle": None,
        },
    }


def timed(what: Callable[[], Any], rounds: int) -> tuple[float, float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        what()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    rounds = parser.parse_args().rounds
    with in_process_client() as client:
        body = {"system": "nolimits", "name": "Bench", "units": [unit(i) for i in range(200)]}
        created = client.post("/api/v1/books", json=body)
        assert created.status_code == 201, created.text
        book = created.json()
        auth = {"Authorization": f"Bearer {book['edit_token']}"}
        version = [book["version"]]

        def publish_changed() -> None:
            body["name"] = f"Bench {version[0]}"
            replaced = client.put(
                f"/api/v1/books/{book['id']}",
                json=body,
                headers={**auth, "If-Match": str(version[0])},
            )
            version[0] = replaced.json()["version"]
            assert (
                client.post(f"/api/v1/books/{book['id']}/shares", headers=auth).status_code == 201
            )

        code = client.post(f"/api/v1/books/{book['id']}/shares", headers=auth).json()["code"]
        drawn = [
            {
                "custom": u["definition"],
                "name": u["name"],
                "count": 1,
                "source": {"book": code, "unit": u["id"]},
            }
            for u in body["units"][:50]
        ]
        roster = {"system": "nolimits", "name": "Tirée du livre", "entries": drawn}
        made = client.post("/api/v1/rosters", json=roster).json()
        shared = client.post(
            f"/api/v1/rosters/{made['id']}/shares",
            headers={"Authorization": f"Bearer {made['edit_token']}"},
        ).json()["code"]
        rows = [
            (
                "create 200 units (POST /api/v1/books)",
                timed(lambda: client.post("/api/v1/books", json=body), rounds),
            ),
            ("replace + publish 200 units (new version)", timed(publish_changed, rounds)),
            (
                "publish unchanged (200, same code)",
                timed(
                    lambda: client.post(f"/api/v1/books/{book['id']}/shares", headers=auth),
                    rounds,
                ),
            ),
            (
                "read published (GET /api/v1/book-shares/{code})",
                timed(lambda: client.get(f"/api/v1/book-shares/{code}"), rounds),
            ),
            ("page /a/{code}", timed(lambda: client.get(f"/a/{code}"), rounds)),
            (
                # Drawn from a book, the share page looks up each origin and whether the
                # book has a newer version: rendered every time (never memoized).
                "share page of the 50 drawn entries (/s/{code}, origins + newer)",
                timed(lambda: client.get(f"/s/{shared}"), rounds),
            ),
            (
                "its text export (/s/{code}.txt, with origins)",
                timed(lambda: client.get(f"/s/{shared}.txt"), rounds),
            ),
            (
                "validate 50 drawn entries (POST .../nolimits/validate, uncached)",
                timed(
                    lambda: client.post(
                        "/api/v1/systems/nolimits/validate",
                        json={**roster, "name": f"x{time.perf_counter()}"},
                    ),
                    rounds,
                ),
            ),
        ]
    print(f"rounds: {rounds}; milliseconds (median, max)")
    for label, (median, worst) in rows:
        print(f"{label:70s} {median:8.1f} {worst:8.1f}")


if __name__ == "__main__":
    main()
