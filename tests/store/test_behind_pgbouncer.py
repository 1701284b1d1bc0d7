"""Caserne run as operators run it on PostgreSQL (issue 29): PgBouncer in transaction pooling
in front of the server, `caserne serve --workers 2` (two processes) through it with
DATABASE_PREPARE_THRESHOLD=0, small pools, and a read URL (a second PgBouncer database whose
server connections are read-only) for the public reads. The concurrency tests' scenarios,
replayed over HTTP against that server, hold there: twenty joins at once keep a campaign's
cap (tests/campaigns/test_join_race.py), two battles recorded at once on one gang store one
(tests/store/test_battle_writers.py), ten replacements of one version under If-Match store
one (api-v1.md « Concurrent edits »), twenty key rotations with one key accept one
(tests/store/test_key_rotations.py). PgBouncer's own counts show the public reads went
through the read database.

Only on the PostgreSQL run (DATABASE_URL); needs Debian's pgbouncer (scripts/test installs it
as root), skipped with a message without it unless CASERNE_REQUIRE_PGBOUNCER=1 (CI)."""

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import URL, make_url

from app.db import make_engine
from app.settings import ROOT
from tests.api.test_rosters import DOCUMENT
from tests.conftest import DATABASE_URL, ON_POSTGRES, missing

PGBOUNCER = shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin:/sbin")
STARTUP = 120.0  # seconds: migrations through PgBouncer, then two workers importing the app
PROFILE = {"M": 4, "CC": 3, "CT": 3, "F": 3, "E": 3, "PV": 1, "I": 3, "A": 1, "Cd": 7}
MAX_GANGS = 64
T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def pgbouncer_or_skip() -> str:
    if not ON_POSTGRES:
        pytest.skip("PgBouncer sits in front of PostgreSQL: the PostgreSQL run (DATABASE_URL)")
    if PGBOUNCER is None:
        reason = "pgbouncer not found: install Debian's pgbouncer (scripts/test does as root)"
        missing(reason, "CASERNE_REQUIRE_PGBOUNCER")
    return PGBOUNCER


def server_entry(server: URL, database: str, extra: str = "") -> str:
    """A [databases] line's connection string: `database` on the suite's server."""
    parts = [
        f"host={server.host or '127.0.0.1'}",
        f"port={server.port or 5432}",
        f"dbname={database}",
        f"user={server.username or 'postgres'}",
    ]
    if server.password:
        parts.append(f"password={server.password}")
    return " ".join(parts) + extra


def pgbouncer_ini(server: URL, database: str, port: int) -> str:
    read_only = " connect_query='SET default_transaction_read_only = on'"
    return f"""[databases]
caserne = {server_entry(server, database)}
caserne_read = {server_entry(server, database, read_only)}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = any
pool_mode = transaction
max_client_conn = 500
default_pool_size = 4
"""


def wait_for(ready: Callable[[], bool], process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + STARTUP
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"{what} did not start", pytrace=False)
        time.sleep(0.1)


def accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@dataclass
class Deployment:
    base: str  # the app, served by two worker processes
    pgbouncer_port: int
    server_log: Path
    workers: list[int]  # the app's worker processes

    def stats(self) -> dict[str, int]:
        """PgBouncer's count of queries per database (its admin console, SHOW STATS)."""
        with psycopg.connect(
            host="127.0.0.1",
            port=self.pgbouncer_port,
            dbname="pgbouncer",
            user="pgbouncer",
            autocommit=True,
            cursor_factory=psycopg.ClientCursor,
        ) as console:
            rows = console.execute("SHOW STATS").fetchall()
        return {str(row[0]): int(row[2]) for row in rows}


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line
            )
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.append(int(status.parent.name))
    return found


@pytest.fixture(scope="module")
def deployment() -> Iterator[Deployment]:
    pgbouncer = pgbouncer_or_skip()
    server = make_url(DATABASE_URL)
    database = f"caserne_pgb_{os.getpid()}_{secrets.token_hex(3)}"
    admin = make_engine(DATABASE_URL)
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text(f'CREATE DATABASE "{database}"'))
    # PgBouncer refuses to run as root; it reads its configuration as the user it becomes.
    folder = Path(tempfile.mkdtemp(prefix="caserne-pgbouncer-"))
    folder.chmod(0o755)
    port = free_port()
    ini = folder / "pgbouncer.ini"
    ini.write_text(pgbouncer_ini(server, database, port))
    ini.chmod(0o644)
    as_user = ["-u", "nobody"] if os.geteuid() == 0 else []
    with (folder / "pgbouncer.log").open("wb") as log:
        bouncer = subprocess.Popen([pgbouncer, *as_user, str(ini)], stdout=log, stderr=log)
    app: subprocess.Popen[bytes] | None = None
    try:
        wait_for(lambda: accepts(port), bouncer, "pgbouncer")
        through = f"postgresql+psycopg://{server.username or 'postgres'}@127.0.0.1:{port}"
        app_port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": f"{through}/caserne",
            "DATABASE_READ_URL": f"{through}/caserne_read",
            "DATABASE_PREPARE_THRESHOLD": "0",
            "DATABASE_POOL_SIZE": "5",
            "DATABASE_MAX_OVERFLOW": "5",
            "HEAVY_PROCESSES": "0",
            "CASERNE_EXTRA_SYSTEMS": "",
            **{f"RATE_LIMIT_{kind}": "" for kind in ("CREATE", "SHARE", "WRITE", "KEY")},
        }
        server_log = folder / "server.log"
        command = [sys.executable, "-m", "app.cli", "serve", "--workers", "2"]
        with server_log.open("wb") as log:
            app = subprocess.Popen(
                [*command, "--port", str(app_port)], cwd=ROOT, env=env, stdout=log, stderr=log
            )
        base = f"http://127.0.0.1:{app_port}"
        wait_for(lambda: healthy(base), app, f"caserne serve ({server_log.read_text()})")
        yield Deployment(base, port, server_log, children(app.pid))
    finally:
        if app is not None:
            stop(app)
        stop(bouncer)
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
        admin.dispose()
        shutil.rmtree(folder, ignore_errors=True)


def at_once(count: int, request: Callable[[int], T]) -> list[T]:
    """`count` requests sent together (each thread its own connection), their answers."""
    barrier = threading.Barrier(count)
    answers: list[T] = []
    lock = threading.Lock()

    def send(index: int) -> None:
        barrier.wait(timeout=30)
        answer = request(index)
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def posted(base: str, path: str, body: Any = None, **headers: str) -> dict[str, Any]:
    response = httpx.post(f"{base}{path}", json=body, headers=headers, timeout=60)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def statuses(answers: list[httpx.Response]) -> list[int]:
    return sorted(answer.status_code for answer in answers)


def test_two_worker_processes_serve_through_pgbouncer(deployment: Deployment) -> None:
    assert len(deployment.workers) >= 2, deployment.workers
    # Each process counts the rate limits on its own: `serve` said so.
    assert "each of the 2 processes counts" in deployment.server_log.read_text()


def test_twenty_concurrent_joins_keep_the_cap(deployment: Deployment) -> None:
    base = deployment.base
    campaign = posted(base, "/api/v1/campaigns", {"system": "bastos", "name": "Chicago"})
    gangs = [
        posted(
            base,
            "/api/v1/rosters",
            {"system": "bastos", "name": f"Gang {n}", "entries": []},
        )
        for n in range(MAX_GANGS - 4 + 20)
    ]

    def join(gang: dict[str, Any]) -> httpx.Response:
        return httpx.post(
            f"{base}/api/v1/campaigns/{campaign['id']}/gangs",
            json={
                "roster": gang["id"],
                "edit_token": gang["edit_token"],
                "join_code": campaign["join_code"],
            },
            timeout=60,
        )

    for gang in gangs[: MAX_GANGS - 4]:
        assert join(gang).status_code == 201
    late = gangs[MAX_GANGS - 4 :]
    answers = at_once(20, lambda i: join(late[i]))
    assert statuses(answers) == [201] * 4 + [409] * 16
    standings = httpx.get(f"{base}/api/v1/campaigns/{campaign['id']}", timeout=60)
    assert standings.status_code == 200
    assert len(standings.json()["gangs"]) == MAX_GANGS


def test_two_battles_at_once_store_one(deployment: Deployment) -> None:
    base = deployment.base
    gang = posted(
        base,
        "/api/v1/rosters",
        {
            "system": "necrowarzone",
            "name": "Orlocks",
            "entries": [{"name": "Chef", "custom": {"leader": True, "xp": 10, "profile": PROFILE}}],
        },
    )
    url = f"{base}/api/v1/rosters/{gang['id']}/battles"

    def record(index: int) -> httpx.Response:
        body = {"date": "2026-12-01", "result": "win", "fighters": [{"entry": 0, "xp": 5 + index}]}
        headers = {**bearer(gang["edit_token"]), "If-Match": '"1"'}
        return httpx.post(url, json=body, headers=headers, timeout=60)

    answers = at_once(2, record)
    assert statuses(answers) == [201, 409]
    refused = next(a for a in answers if a.status_code == 409)
    assert refused.headers["ETag"] == '"2"'
    ledger = httpx.get(url, headers=bearer(gang["edit_token"]), timeout=60)
    assert [line["battle"] for line in ledger.json()["battles"]] == [1]


def test_ten_replacements_of_one_version_store_one(deployment: Deployment) -> None:
    base = deployment.base
    roster = posted(base, "/api/v1/rosters", DOCUMENT)
    url = f"{base}/api/v1/rosters/{roster['id']}"

    def replace(index: int) -> httpx.Response:
        headers = {**bearer(roster["edit_token"]), "If-Match": '"1"'}
        body = {**DOCUMENT, "name": f"Version {index}"}
        return httpx.put(url, json=body, headers=headers, timeout=60)

    answers = at_once(10, replace)
    assert statuses(answers) == [200] + [409] * 9
    won = next(a for a in answers if a.status_code == 200).json()
    stored = httpx.get(url, headers=bearer(roster["edit_token"]), timeout=60).json()
    assert (stored["version"], stored["roster"]["name"]) == (2, won["roster"]["name"])


def test_twenty_key_rotations_with_one_key_accept_one(deployment: Deployment) -> None:
    base = deployment.base
    carnet = posted(base, "/api/v1/carnets")
    url = f"{base}/api/v1/carnets/{carnet['id']}"
    answers = at_once(
        20, lambda _i: httpx.post(f"{url}/key", headers=bearer(carnet["key"]), timeout=60)
    )
    assert statuses(answers) == [200] + [403] * 19
    new = next(a for a in answers if a.status_code == 200).json()["key"]
    assert httpx.get(url, headers=bearer(new), timeout=60).status_code == 200
    assert httpx.get(url, headers=bearer(carnet["key"]), timeout=60).status_code == 403


def test_many_clients_share_few_server_connections(deployment: Deployment) -> None:
    """Sixteen clients at once, each creating a list and saving it twelve times, over
    PgBouncer's four server connections per database: every write answered. (With
    DATABASE_PREPARE_THRESHOLD=5, by hand, 3 of 320 creations and 1 of 304 saves answered
    500 in one run, « prepared statement "_pg3_1" does not exist »; rare enough that this
    test may pass then: the next one checks the engine itself.)"""
    base = deployment.base

    def saves(_index: int) -> httpx.Response:
        with httpx.Client(base_url=base, timeout=60) as client:
            made = client.post("/api/v1/rosters", json=DOCUMENT)
            if made.status_code != 201:
                return made
            roster = made.json()
            url = f"/api/v1/rosters/{roster['id']}"
            for version in range(1, 13):
                answer = client.put(
                    url,
                    json={**DOCUMENT, "name": f"Version {version + 1}"},
                    headers={**bearer(roster["edit_token"]), "If-Match": f'"{version}"'},
                )
                if answer.status_code != 200:
                    return answer
            return client.get(url, headers=bearer(roster["edit_token"]))

    answers = at_once(16, saves)
    assert statuses(answers) == [200] * 16, [a.text for a in answers if a.status_code != 200]
    assert {a.json()["version"] for a in answers} == {13}


def test_the_engine_never_prepares_behind_pgbouncer(deployment: Deployment) -> None:
    """DATABASE_PREPARE_THRESHOLD=0: sixteen threads each running fifty transactions of one
    statement through PgBouncer, more clients than its four server connections, without an
    error. psycopg prepares a statement run 5 times on a connection (and forgets them at a
    rollback, not at a commit); PgBouncer 1.18 in transaction mode then sends the next
    transaction to any server connection. The same with the threshold at 5: 102 of 800
    failed here (« prepared statement "_pg3_0" already exists », or « does not exist »)."""
    url = f"postgresql+psycopg://postgres@127.0.0.1:{deployment.pgbouncer_port}/caserne"
    engine = make_engine(url, pool_size=10, max_overflow=10, prepare_threshold=0)
    failed: list[str] = []

    def run(_index: int) -> None:
        for n in range(50):
            try:
                with engine.begin() as connection:
                    connection.execute(text("SELECT CAST(:n AS integer) + 1"), {"n": n}).one()
            except Exception as error:  # counted, and shown if any
                failed.append(str(error))

    try:
        at_once(16, run)
        with engine.connect() as connection:
            raw = connection.connection.dbapi_connection
            assert raw is not None and raw.prepare_threshold is None  # type: ignore[attr-defined]
    finally:
        engine.dispose()
    assert failed == []


def test_public_reads_go_through_the_read_database(deployment: Deployment) -> None:
    base = deployment.base
    roster = posted(base, "/api/v1/rosters", DOCUMENT)
    code = posted(
        base, f"/api/v1/rosters/{roster['id']}/shares", None, **bearer(roster["edit_token"])
    )["code"]
    before = deployment.stats()
    for path in (f"/s/{code}", f"/s/{code}.json", f"/api/v1/shares/{code}", f"/a/{code}"):
        response = httpx.get(f"{base}{path}", timeout=60)
        assert response.status_code == (404 if path.startswith("/a/") else 200), response.text
    after = deployment.stats()
    assert after["caserne_read"] > before.get("caserne_read", 0)
    # The read database's server connections are read-only: a write sent there would
    # have failed, and every answer above was a 200.
