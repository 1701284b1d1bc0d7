"""Does a heavy request stall everyone? /healthz latency while eight heavy validations run.

Run from the repo root:

    .venv/bin/python bench/loop_bench.py [--duration 10] [--heavy 8] [--source DIR]

It starts one uvicorn worker (as bench/http_bench.py does) on a temporary SQLite database,
measures `GET /healthz` alone, then again while `--heavy` clients each post a ≈0.9 MB No
Limits roster to `POST /api/v1/systems/nolimits/validate` in a loop (from another process,
so that the load generator's own work does not delay the probe), and prints p50 / p99 /
max of /healthz in both phases. `--source DIR` serves another checkout of Caserne (e.g. the
code before a change) with the same virtualenv, for before/after figures. It prints
figures; it does not pass or fail.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from http_bench import BenchError, free_port, migrate_database, stop, wait_until_up  # noqa: E402

VALIDATE = "/api/v1/systems/nolimits/validate"


def heavy_roster(target_bytes: int = 900_000) -> bytes:
    """A valid No Limits roster of about `target_bytes`: 200 custom units, each with
    weapons carrying house rules (every one priced by the engine and reported)."""

    def weapon(index: int, text: int) -> dict[str, Any]:
        return {
            "name": f"Arme {index}", "CU": 3, "PC": [6, 1], "PI": [12, 0], "PL": [18, -1],
            "CdA": 2, "FO": 5, "DG": 1,
            "rules": [{"name": f"Règle {j}", "points": 1, "text": "x" * text} for j in range(2)],
        }  # fmt: skip

    def document(text: int) -> bytes:
        unit = {
            "profile": {"AC": 9, "CT": 5, "CC": 5, "FO": 4, "EN": 5, "PV": 1, "CO": 5, "SV": 2},
            "size": "moyenne",
            "weapons": [weapon(i, text) for i in range(20)],
            "abilities": ["determine", {"name": "Sang-froid", "points": 4}],
        }
        entries = [{"custom": unit, "name": f"Unité {i}", "count": 1} for i in range(200)]
        roster = {"system": "nolimits", "name": "Lourde", "points_limit": 100_000}
        return json.dumps({**roster, "entries": entries}).encode()

    text = 300
    while text > 0 and len(document(text)) > target_bytes:
        text -= 5
    return document(text)


@contextmanager
def server(source: Path, workdir: Path) -> Iterator[str]:
    url = f"sqlite:///{workdir / 'bench.sqlite3'}"
    migrate_database(url)
    port = free_port()
    log_path = workdir / "server.log"
    uvicorn = Path(sys.executable).with_name("uvicorn")
    command = [
        str(uvicorn), "app.asgi:app", "--host", "127.0.0.1", "--port", str(port),
        "--workers", "1", "--no-access-log", "--log-level", "warning",
    ]  # fmt: skip
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "PYTHONPATH": str(source),
        # The load is one client posting validations, not a script to stop.
        "RATE_LIMIT_WRITE": "",
    }
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=source, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process, log_path)
        yield base
    finally:
        stop(process)


def probe(base: str, seconds: float, interval: float = 0.01) -> list[float]:
    """/healthz latencies in ms, one request every `interval` seconds for `seconds`."""
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=30) as client:
        while time.monotonic() < deadline:
            start = time.perf_counter()
            response = client.get("/healthz")
            latencies.append((time.perf_counter() - start) * 1000)
            if response.status_code != 200:
                raise BenchError(f"/healthz answered {response.status_code}")
            time.sleep(interval)
    return latencies


def load_main(base: str, heavy: int, seconds: float, body_path: str) -> None:
    """The load process: `heavy` threads posting the roster in a loop; prints a count."""
    body = Path(body_path).read_bytes()
    done: list[int] = []
    deadline = time.monotonic() + seconds

    def worker() -> None:
        count = 0
        with httpx.Client(base_url=base, timeout=120) as client:
            while time.monotonic() < deadline:
                response = client.post(
                    VALIDATE, content=body, headers={"Content-Type": "application/json"}
                )
                if response.status_code != 200:
                    raise SystemExit(f"validate answered {response.status_code}")
                count += 1
        done.append(count)

    threads = [threading.Thread(target=worker) for _ in range(heavy)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({"validations": sum(done)}))


def percentiles(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return {
        "n": len(ordered),
        "p50": statistics.median(ordered),
        "p99": p99,
        "max": ordered[-1],
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    body = heavy_roster()
    with tempfile.TemporaryDirectory(prefix="caserne-loop-bench-") as tmp:
        workdir = Path(tmp)
        body_path = workdir / "roster.json"
        body_path.write_bytes(body)
        with server(Path(args.source).resolve(), workdir) as base:
            first = httpx.post(
                f"{base}{VALIDATE}", content=body,
                headers={"Content-Type": "application/json"}, timeout=60,
            )  # fmt: skip
            if first.status_code != 200:
                raise BenchError(f"validate answered {first.status_code}: {first.text[:300]}")
            start = time.perf_counter()
            httpx.post(
                f"{base}{VALIDATE}", content=body,
                headers={"Content-Type": "application/json"}, timeout=60,
            )  # fmt: skip
            single_ms = (time.perf_counter() - start) * 1000
            headers = "content-security-policy" in httpx.get(f"{base}/healthz").headers
            idle = probe(base, args.duration / 2)
            load = subprocess.Popen(
                [sys.executable, __file__, "--load", base, str(args.heavy),
                 str(args.duration + 1), str(body_path)],
                stdout=subprocess.PIPE,
            )  # fmt: skip
            time.sleep(1)  # the heavy requests are under way
            loaded = probe(base, args.duration)
            output, _ = load.communicate(timeout=args.duration + 300)
            if load.returncode != 0:
                raise BenchError("the load process failed")
    return {
        "source": str(Path(args.source).resolve()),
        "security_headers": headers,
        "body_bytes": len(body),
        "single_validation_ms": single_ms,
        "heavy_clients": args.heavy,
        "validations_during_load": json.loads(output)["validations"],
        "healthz_idle_ms": percentiles(idle),
        "healthz_loaded_ms": percentiles(loaded),
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--load":
        base, heavy, seconds, body_path = argv[1:5]
        load_main(base, int(heavy), float(seconds), body_path)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds under load")
    parser.add_argument("--heavy", type=int, default=8, help="concurrent heavy validations")
    parser.add_argument("--source", default=str(REPO), help="the Caserne checkout to serve")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    try:
        result = run(args)
    except BenchError as exc:
        print(f"loop_bench: {exc}", file=sys.stderr)
        return 1
    idle, loaded = result["healthz_idle_ms"], result["healthz_loaded_ms"]
    print(f"source: {result['source']} (security middleware: {result['security_headers']})")
    print(
        f"body: {result['body_bytes'] / 1e6:.2f} MB; one validation alone: "
        f"{result['single_validation_ms']:.0f} ms; {result['heavy_clients']} clients completed "
        f"{result['validations_during_load']} validations under load"
    )
    print("| /healthz | n | p50 ms | p99 ms | max ms |")
    print("| --- | --- | --- | --- | --- |")
    for name, figures in (("idle", idle), (f"{args.heavy} heavy validations", loaded)):
        print(
            f"| {name} | {figures['n']} | {figures['p50']:.1f} | {figures['p99']:.1f} "
            f"| {figures['max']:.1f} |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
