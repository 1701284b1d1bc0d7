"""Issue 25, item 1: what a gang page costs when another gang of the same client recorded
1,000 lines against it. One client makes two gangs in its own campaign; the recorder
records one battle naming the victim through the API, and its 999 copies go straight into
the database (recording them through the API takes ~50 s and changes nothing measured
here). Then, with no credentials: `GET /campagne/gang/{code}` and
`GET /api/v1/rosters/{id}/battles?share=` alone, and a normal `GET /api/v1/rosters/{id}`'s
p50/p99 while four such views run at once. A real server (uvicorn, one process, its thread
pool) on a SQLite file, over HTTP on 127.0.0.1. Prints figures; passes or fails on nothing.

    .venv/bin/python bench/ledger_bench.py [--lines 1000] [--reads 200]
"""

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from sqlmodel import Session, SQLModel, select

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.db import make_engine
from app.main import create_app
from app.settings import Settings
from app.store.models import Battle

PROFILE = {"M": 4, "CC": 3, "CT": 3, "F": 3, "E": 3, "PV": 1, "I": 3, "A": 1, "Cd": 7}


def gang(name: str) -> dict[str, Any]:
    chef = {"name": "Chef", "custom": {"leader": True, "xp": 80, "profile": PROFILE}}
    gangers = [{"name": f"Ganger {n}", "custom": {"xp": 10, "profile": PROFILE}} for n in range(8)]
    return {"system": "necrowarzone", "name": name, "entries": [chef, *gangers]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def seed(http: httpx.Client, engine: Any, lines: int) -> tuple[dict[str, Any], str]:
    made = http.post("/api/v1/campaigns", json={"system": "necrowarzone", "name": "Bench"})
    campaign = made.json()
    victim = http.post("/api/v1/rosters", json=gang("Victime")).json()
    recorder = http.post("/api/v1/rosters", json=gang("Tricheur")).json()
    for roster in (victim, recorder):
        body = {
            "roster": roster["id"],
            "edit_token": roster["edit_token"],
            "join_code": campaign["join_code"],
        }
        joined = http.post(f"/api/v1/campaigns/{campaign['id']}/gangs", json=body)
        assert joined.status_code == 201, joined.text
    recorded = http.post(
        f"/api/v1/rosters/{recorder['id']}/battles",
        json={
            "date": "2026-12-01",
            "result": "win",
            "campaign": campaign["id"],
            "opponent_roster": victim["id"],
            "notes": "x" * 45,
        },
        headers={"Authorization": f"Bearer {recorder['edit_token']}", "If-Match": '"1"'},
    )
    assert recorded.status_code == 201, recorded.text
    with Session(engine) as session:
        first = session.exec(select(Battle).where(Battle.roster_id == recorder["id"])).one()
        copied = first.model_dump(exclude={"id"})
        for number in range(2, lines + 1):
            session.add(Battle(**{**copied, "number": number}))
        session.commit()
    shared = http.post(
        f"/api/v1/rosters/{victim['id']}/shares",
        headers={"Authorization": f"Bearer {victim['edit_token']}"},
    )
    assert shared.status_code == 201, shared.text
    return victim, shared.json()["code"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--reads", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        engine = make_engine(url)
        SQLModel.metadata.create_all(engine)
        off = {f"rate_limit_{k}": "" for k in ("create", "share", "write")}
        app = create_app(settings=Settings(database_url=url, **off), engine=engine)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
        threading.Thread(target=server.run, daemon=True).start()
        while not server.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=600) as http:
            victim, code = seed(http, engine, args.lines)
            views = {
                "GET /campagne/gang/{code}": f"/campagne/gang/{code}",
                "GET /api/v1/rosters/{id}/battles?share=": (
                    f"/api/v1/rosters/{victim['id']}/battles?share={code}"
                ),
            }
            for name, path in views.items():
                times = []
                for _ in range(10):
                    start = time.perf_counter()
                    answer = http.get(path)
                    times.append(ms(start))
                    assert answer.status_code == 200, answer.text[:200]
                print(
                    f"{args.lines} lines against the gang  {name:<40} "
                    f"median {statistics.median(times):7.1f} ms  max {max(times):7.1f} ms"
                )
            read = f"/api/v1/rosters/{victim['id']}"
            token = {"Authorization": f"Bearer {victim['edit_token']}"}

            def reads() -> list[float]:
                times = []
                for _ in range(args.reads):
                    start = time.perf_counter()
                    assert http.get(read, headers=token).status_code == 200
                    times.append(ms(start))
                return sorted(times)

            def p(times: list[float], q: float) -> float:
                return times[min(len(times) - 1, int(q * len(times)))]

            alone = reads()
            stop = threading.Event()
            view_times: list[float] = []

            def view(path: str) -> None:
                with httpx.Client(base_url=base, timeout=600) as own:
                    while not stop.is_set():
                        start = time.perf_counter()
                        own.get(path)
                        view_times.append(ms(start))

            paths = [*views.values(), *views.values()]
            workers = [threading.Thread(target=view, args=(path,)) for path in paths]
            for worker in workers:
                worker.start()
            loaded = reads()
            stop.set()
            for worker in workers:
                worker.join()
            print(
                f"GET /api/v1/rosters/{{id}} alone: p50 {p(alone, 0.5):.1f} ms  "
                f"p99 {p(alone, 0.99):.1f} ms"
            )
            print(
                f"GET /api/v1/rosters/{{id}} with 4 views running: p50 {p(loaded, 0.5):.1f} ms  "
                f"p99 {p(loaded, 0.99):.1f} ms ({len(view_times)} views, "
                f"median {statistics.median(view_times):.1f} ms)"
            )
        server.should_exit = True


if __name__ == "__main__":
    main()
