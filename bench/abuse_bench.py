"""What hostile requests cost one uvicorn worker (issue 13). Run from the repo root:

    .venv/bin/python bench/abuse_bench.py [--ports 20000] [--duration 10] [--json PATH]

Three measures, on a temporary SQLite database and one worker, as http_bench.py serves it:

1. `hostile`: the server CPU time of `GET /healthz?` + `%26` x 5,300 (a 16 KB query: 414
   since issue 13), of the same shape at the 2,048-byte bound (200), and of a plain
   `/healthz`: the mean over 200 requests on one connection (the server process's CPU, from
   /proc; uvicorn without access log, as http_bench.py runs it).
2. `stall`: `/healthz` latency (wrk, 1 connection) while wrk sends hostile queries on 2
   connections and heavy validations (a body over 64 kB, the offloaded path) on 8.
3. `heavy`: `/healthz` latency (wrk, 1 connection, one request every 10 ms) while 8 wrk
   connections post a 0.91 MB No Limits list (200 created units: the most entries a list
   may hold, weapons with house rules; under MAX_BODY_BYTES, 1,000,000) to its validate
   route in a loop: the offloaded path at its largest (issue 19). Also the serving
   process's CPU per validation (its own threads, from /proc) and the worker processes'.
4. `flood` (issue 25, item 7): one client (127.0.0.1) posts `--flood` copies of that list at
   once; a second later another client (from 127.0.0.2) posts one: its wait and status,
   the flood's statuses, the serving process's resident memory before and at its peak.
5. `kill` (issue 25, item 7): a heavy validation, then the pool's worker killed as the OOM
   killer would (SIGKILL), then three more heavy validations: their statuses and times.
6. `memory`: the worker's resident memory after `--ports` requests of an emoji-heavy share
   page, each with another `Host` port (`localhost:<port>`), then after one view of each of
   `--shares` emoji-heavy share pages from the allowed host. The page memory's bound is
   32 MB (README, Security).

It prints figures; it does not pass or fail.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_bench import (
    HOSTILE_PATH,
    LUA_DONE,
    WRK,
    BenchError,
    cpu_seconds,
    lua_string,
    migrate_database,
    parse_wrk,
    running_server,
    validate_roster,
)
from loop_bench import heavy_roster as largest_roster

EMOJI = "⚔️🛡️🎖️"  # 7 code points, 4-byte ones among them


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise BenchError("no VmRSS in /proc")


def emoji_roster(index: int) -> dict[str, Any]:
    """A DCSystem list whose 40 fighters have emoji names (a page of mostly 4-byte text)."""
    names = [f"{EMOJI * 11}{index}-{n}"[:80] for n in range(40)]
    return {
        "system": "dcsystem",
        "name": f"{EMOJI * 10} {index}",
        "entries": [{"unit": "jaffa", "count": 1, "name": name} for name in names],
    }


def share(client: httpx.Client, document: dict[str, Any]) -> str:
    created = client.post("/api/v1/rosters", json=document)
    if created.status_code != 201:
        raise BenchError(f"create: {created.status_code} {created.text[:300]}")
    body = created.json()
    shared = client.post(
        f"/api/v1/rosters/{body['id']}/shares",
        headers={"Authorization": f"Bearer {body['edit_token']}"},
    )
    if shared.status_code != 201:
        raise BenchError(f"share: {shared.status_code} {shared.text[:300]}")
    return str(shared.json()["code"])


def heavy_roster() -> dict[str, Any]:
    """The largest list the API takes (200 entries) of created fighters with long names:
    over 64 kB, so validated on the offloaded path."""
    roster = validate_roster(200)
    for index in range(len(roster["entries"])):
        roster["entries"][index] = {
            "custom": {"level": 3, "items": ["arme_tir_3", "arme_cc_2", "heros", "determine"]},
            "name": f"Fantassin numéro {index} " + "é" * 50,
            "count": 1 + index % 4,
        }
    return roster


def hostile_cpu(base: str, pid: int, path: str, requests: int = 200) -> tuple[float, int]:
    """Mean server CPU ms of one request of `path`, and its status."""
    with httpx.Client(base_url=base, timeout=30) as client:
        status = client.get(path).status_code  # warm
        before = cpu_seconds(pid)
        for _ in range(requests):
            client.get(path)
        after = cpu_seconds(pid)
    if before is None or after is None:
        raise BenchError("no /proc: CPU time unknown")
    return (after - before) * 1000 / requests, status


def wrk(base: str, path: str, connections: int, duration: int, workdir: Path, name: str,
        body: str | None = None, *, lua: str = "", timeout: int = 2,
        headers: dict[str, str] | None = None) -> subprocess.Popen[str]:  # fmt: skip
    script = workdir / f"{name}.lua"
    if body is not None:
        lua = (
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f"wrk.body = {lua_string(body)}\n"
        ) + lua
    for header, value in (headers or {}).items():
        lua = f"wrk.headers[ {lua_string(header)} ] = {lua_string(value)}\n" + lua
    script.write_text(lua + LUA_DONE)
    command = [
        WRK, "-t1", f"-c{connections}", f"-d{duration}s", f"--timeout={timeout}s",
        "-s", str(script), base + path,
    ]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def stall(base: str, duration: int, workdir: Path) -> dict[str, Any]:
    heavy = json.dumps(heavy_roster())
    if len(heavy) < 64_000:
        raise BenchError(f"the heavy body is only {len(heavy)} bytes")
    with httpx.Client(base_url=base, timeout=60) as client:
        answer = client.post(
            "/api/v1/systems/dcsystem/validate",
            content=heavy,
            headers={"Content-Type": "application/json"},
        )
        if answer.status_code != 200:
            raise BenchError(f"heavy validate: {answer.status_code} {answer.text[:300]}")
    load = [
        wrk(base, HOSTILE_PATH, 2, duration + 2, workdir, "hostile"),
        wrk(base, "/api/v1/systems/dcsystem/validate", 8, duration + 2, workdir, "heavy", heavy),
    ]
    time.sleep(1)
    probe = wrk(base, "/healthz", 1, duration, workdir, "healthz")
    out, _ = probe.communicate()
    results = {"healthz": parse_wrk("healthz", out)}
    for name, process in zip(("hostile", "heavy"), load, strict=True):
        text, _ = process.communicate()
        results[name] = parse_wrk(name, text)
    return {
        "heavy_body_bytes": len(heavy),
        **{
            name: {"req_s": round(r.rps, 1), "p50_ms": r.p50_ms, "p99_ms": r.p99_ms}
            for name, r in results.items()
        },
    }


# wrk waits this long before each request of the probe: a client checking now and then,
# not one more load (a closed loop on /healthz would take a core of its own).
PACED = "function delay()\n  return 10\nend\n"


def children_cpu(pid: int) -> float:
    """CPU seconds of `pid`'s child processes (the heavy pool's workers) so far."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            total += cpu_seconds(int(child)) or 0.0
    return total


def largest(base: str, pid: int, duration: int, workdir: Path, clients: int,
            gzip: bool) -> dict[str, Any]:  # fmt: skip
    """/healthz while `clients` connections validate the largest list the API admits."""
    body = largest_roster().decode()
    path = "/api/v1/systems/nolimits/validate"
    accept = {"Accept-Encoding": "gzip"} if gzip else {}
    with httpx.Client(base_url=base, timeout=120, headers=accept) as client:
        answer = client.post(path, content=body, headers={"Content-Type": "application/json"})
        if answer.status_code != 200:
            raise BenchError(f"largest validate: {answer.status_code} {answer.text[:300]}")
        answer_bytes = len(answer.content)
    before = (cpu_seconds(pid) or 0.0, children_cpu(pid))
    load = wrk(base, path, clients, duration + 2, workdir, "largest", body, timeout=120,
               headers=accept)  # fmt: skip
    time.sleep(1)
    probe = wrk(base, "/healthz", 1, duration, workdir, "paced", lua=PACED)
    out, _ = probe.communicate()
    text, _ = load.communicate()
    after = (cpu_seconds(pid) or 0.0, children_cpu(pid))
    healthz, heavy = parse_wrk("healthz", out), parse_wrk("largest", text)
    served = heavy.requests + healthz.requests  # the serving process's CPU is for both
    return {
        "body_bytes": len(body.encode()),
        "answer_bytes": answer_bytes,
        "accept_gzip": gzip,
        "clients": clients,
        "healthz": {
            "requests": healthz.requests, "p50_ms": healthz.p50_ms, "p99_ms": healthz.p99_ms,
            "errors": healthz.bad_status + healthz.socket_errors,
        },
        "validations": heavy.requests,
        "validation_errors": heavy.bad_status + heavy.socket_errors,
        "serving_cpu_ms_per_request": round((after[0] - before[0]) * 1000 / max(served, 1), 2),
        "workers_cpu_ms_per_validation": round(
            (after[1] - before[1]) * 1000 / max(heavy.requests, 1), 1
        ),
    }  # fmt: skip


def timed_post(base: str, path: str, body: str, local: str = "127.0.0.1") -> tuple[int, float]:
    """One POST from the address `local`: its status and seconds."""
    transport = httpx.HTTPTransport(local_address=local)
    with httpx.Client(base_url=base, timeout=600, transport=transport) as client:
        started = time.monotonic()
        answer = client.post(path, content=body, headers={"Content-Type": "application/json"})
        return answer.status_code, round(time.monotonic() - started, 2)


def flood(base: str, pid: int, count: int) -> dict[str, Any]:
    """`count` heavy validations at once from one client, and one from another."""
    body = largest_roster().decode()
    path = "/api/v1/systems/nolimits/validate"
    timed_post(base, path, body)  # the worker spawned, warm
    start_mb = rss_mb(pid)
    peak = [start_mb]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            peak[0] = max(peak[0], rss_mb(pid))

    results: list[tuple[int, float]] = []
    threads = [
        threading.Thread(target=lambda: results.append(timed_post(base, path, body)))
        for _ in range(count)
    ]
    sampler = threading.Thread(target=sample)
    sampler.start()
    for thread in threads:
        thread.start()
    time.sleep(1)
    other = timed_post(base, path, body, local="127.0.0.2")
    for thread in threads:
        thread.join()
    done.set()
    sampler.join()
    statuses: dict[int, int] = {}
    for status, _seconds in results:
        statuses[status] = statuses.get(status, 0) + 1
    return {
        "flood": count,
        "flood_statuses": statuses,
        "flood_last_s": max(seconds for _status, seconds in results),
        "other_client": {"status": other[0], "seconds": other[1]},
        "rss_start_mb": round(start_mb, 1),
        "rss_peak_mb": round(peak[0], 1),
    }


def workers(pid: int) -> list[int]:
    """The heavy pool's worker processes (not multiprocessing's resource tracker)."""
    children = [
        int(child)
        for task in Path(f"/proc/{pid}/task").iterdir()
        for child in (task / "children").read_text().split()
    ]
    return [
        child
        for child in children
        if b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes()
    ]


def kill(base: str, pid: int) -> dict[str, Any]:
    """The heavy worker killed (SIGKILL, as the OOM killer does): what comes next."""
    body = largest_roster().decode()
    path = "/api/v1/systems/nolimits/validate"
    first = timed_post(base, path, body)
    killed = workers(pid)
    for worker in killed:
        os.kill(worker, signal.SIGKILL)
    time.sleep(0.5)
    after = [timed_post(base, path, body) for _ in range(3)]
    healthz = httpx.get(f"{base}/healthz").status_code
    return {
        "before": {"status": first[0], "seconds": first[1]},
        "killed_workers": len(killed),
        "after": [{"status": status, "seconds": seconds} for status, seconds in after],
        "healthz": healthz,
    }


def memory(base: str, pid: int, ports: int, shares: int) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with httpx.Client(base_url=base, timeout=60) as client:
        code = share(client, emoji_roster(0))
        page = client.get(f"/s/{code}")
        figures["page_chars"] = len(page.text)
        figures["page_bytes"] = len(page.content)
        figures["start_mb"] = round(rss_mb(pid), 1)
        statuses: dict[int, int] = {}
        for port in range(ports):
            status = client.get(f"/s/{code}", headers={"Host": f"localhost:{10_000 + port}"})
            statuses[status.status_code] = statuses.get(status.status_code, 0) + 1
        figures["ports_statuses"] = statuses
        figures["after_ports_mb"] = round(rss_mb(pid), 1)
        codes = [share(client, emoji_roster(n)) for n in range(1, shares + 1)]
        for each in codes:
            client.get(f"/s/{each}")
        figures["after_pages_mb"] = round(rss_mb(pid), 1)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ports", type=int, default=20_000)
    parser.add_argument("--shares", type=int, default=300)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--clients", type=int, default=8, help="heavy's validating clients")
    parser.add_argument("--gzip", action="store_true", help="heavy's clients accept gzip")
    parser.add_argument("--flood", type=int, default=40, help="flood's validations at once")
    scenarios = ["hostile", "stall", "heavy", "flood", "kill", "memory"]
    parser.add_argument("--skip", choices=scenarios, action="append")
    parser.add_argument("--only", choices=scenarios, action="append")
    args = parser.parse_args(argv)
    skip = set(args.skip or []) | (set(scenarios) - set(args.only or scenarios))
    # The bench seeds hundreds of rosters and shares: no limits on this server.
    for kind in ("CREATE", "SHARE", "WRITE", "FAILED_AUTH", "FAILED_AUTH_ROSTER"):
        os.environ[f"RATE_LIMIT_{kind}"] = ""
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="caserne-abuse-") as tmp:
        workdir = Path(tmp)
        url = f"sqlite:///{workdir / 'bench.sqlite3'}"
        migrate_database(url)
        with running_server(url, workdir) as server:
            if "hostile" not in skip:
                for name, path in (("16k", HOSTILE_PATH), ("2k", "/healthz?" + "%26" * 682)):
                    cpu, status = hostile_cpu(server.base, server.pid, path)
                    report[f"hostile_{name}"] = {"cpu_ms": round(cpu, 3), "status": status}
                    print(f"hostile {name}: {cpu:.3f} ms of server CPU a request ({status})")
                cpu, status = hostile_cpu(server.base, server.pid, "/healthz")
                report["healthz"] = {"cpu_ms": round(cpu, 3), "status": status}
                print(f"healthz: {cpu:.3f} ms of server CPU a request ({status})")
            if "stall" not in skip:
                report["stall"] = stall(server.base, args.duration, workdir)
                print("stall:", json.dumps(report["stall"]))
            if "heavy" not in skip:
                report["heavy"] = largest(
                    server.base, server.pid, args.duration, workdir, args.clients, args.gzip
                )
                print("heavy:", json.dumps(report["heavy"]))
            if "flood" not in skip:
                report["flood"] = flood(server.base, server.pid, args.flood)
                print("flood:", json.dumps(report["flood"]))
            if "kill" not in skip:
                report["kill"] = kill(server.base, server.pid)
                print("kill:", json.dumps(report["kill"]))
            if "memory" not in skip:
                report["memory"] = memory(server.base, server.pid, args.ports, args.shares)
                print("memory:", json.dumps(report["memory"]))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
