"""Issue 29: what each route costs when the database holds many clubs' data. Seeds a
database of N lists through Caserne's own store (bench/scale_seed.py: carnets of lists of
every system by the carnet file's restore, shares, army books with published versions, a
carnet of a few lists and one of 1,000, a club campaign of 50 gangs and 2,000 battles
recorded through the campaign service), then times each route in-process (TestClient, the
app as app/asgi.py builds it, every thread-pool call run inline so that one thread clock
sees all of a request's server work, as editor_bench.py does) and prints, for each, the
server's thread CPU (median and least of `--rounds` calls), the wall time (median and
90th percentile), the SQL statements of one call and the CPU as a multiple of
`GET /healthz`'s. A route the process remembers is timed « uncached » (its memories emptied
before each call) and « remembered »; one with an ETag, revalidated (304). Prints figures;
passes or fails on nothing.

    .venv/bin/python bench/scale_bench.py                        # 2,000 lists, SQLite (~5 min)
    createdb -h 127.0.0.1 -U postgres caserne_scale
    .venv/bin/python bench/scale_bench.py --rosters 300000 --keep \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/caserne_scale
    .venv/bin/python bench/scale_bench.py --reuse \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/caserne_scale

`--keep` leaves the seeded database; `--reuse` measures one seeded before without seeding
(its carnets get new keys; each run records `--rounds` more battles in the campaign, by
gangs the measured pages do not show). Without `--keep`, a database given by URL has its
tables dropped at the end.
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# First: it imports the systems before the campaign service (else an import cycle).
from app.main import create_app, settle_heap  # isort: split

import httpx
from campaign_pages_bench import Statements
from editor_bench import VERSION, Timed, inline_routes, long_list
from fastapi.testclient import TestClient
from http_bench import FormFields
from scale_seed import Seeded, located, seed
from sqlalchemy import event, func, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

from app.cli import migrate
from app.db import make_engine
from app.settings import Settings
from app.store import rosters as roster_store
from app.store.models import Battle, Roster, Share

REPO = Path(__file__).resolve().parent.parent
# What the app remembers (app.state), emptied for an « uncached » call.
CAMPAIGN_MEMORY = ("campaign_views", "campaign_pages", "campaign_losses")
GANG_MEMORY = ("gang_pages",)
SHARE_MEMORY = ("share_memory",)


@dataclass
class Row:
    name: str
    status: int
    cpu: list[float]
    walls: list[float]
    statements: int


class Bench:
    def __init__(
        self, app: Any, engine: Engine, rounds: int, only: list[str], skip: list[str]
    ) -> None:
        self.app, self.engine, self.rounds = app, engine, rounds
        self.only, self.skip = only, skip
        self.timed = Timed(app)
        self.client = TestClient(self.timed, follow_redirects=False)
        self.rows: list[Row] = []

    def forget(self, names: tuple[str, ...]) -> None:
        for name in names:
            setattr(self.app.state, name, None)

    def run(
        self,
        name: str,
        call: Callable[[], httpx.Response],
        forget: tuple[str, ...] = (),
        expect: tuple[int, ...] = (200,),
    ) -> httpx.Response | None:
        """`call` once to warm up, once to count its statements, then `rounds` times
        timed; `forget`: the memories emptied before each call."""
        if self.only and not any(word in name for word in self.only):
            return None
        if any(word in name for word in self.skip):
            return None
        self.forget(forget)
        first = call()
        assert first.status_code in expect, (name, first.status_code, first.text[:300])
        self.forget(forget)
        with Statements(self.engine) as said:
            call()
        cpus, walls = [], []
        for _ in range(self.rounds):
            self.forget(forget)
            cpu, wall = self.timed.cpu, time.perf_counter()
            response = call()
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((self.timed.cpu - cpu) * 1000)
            assert response.status_code in expect, (name, response.status_code)
        self.rows.append(Row(name, first.status_code, cpus, walls, said.count))
        return first

    def print(self) -> None:
        base = next((statistics.median(r.cpu) for r in self.rows if r.name == "GET /healthz"), 0)
        print(
            f"{'route':<52} {'status':>6} {'cpu ms':>7} {'least':>6} {'wall ms':>8} "
            f"{'p90':>6} {'stmts':>5} {'× healthz':>9}"
        )
        for r in self.rows:
            cpu = statistics.median(r.cpu)
            p90 = sorted(r.walls)[int(len(r.walls) * 0.9) - 1] if r.walls else 0.0
            ratio = f"{cpu / base:9.1f}" if base else ""
            print(
                f"{r.name:<52} {r.status:>6} {cpu:7.2f} {min(r.cpu):6.2f} "
                f"{statistics.median(r.walls):8.2f} {p90:6.2f} {r.statements:>5} {ratio}"
            )


def etag_call(client: TestClient, url: str, etag: str, **headers: str) -> Callable[[], Any]:
    return lambda: client.get(url, headers={**headers, "If-None-Match": etag})


def editor_saves(bench: Bench, seeded: Seeded) -> None:
    """The editor's page, a count save and a whole-form save of its 50 entries, as the
    page sends them (editor_bench.py), each based on the version the last answer gave."""
    client, path = bench.client, f"/r/{seeded.editor_list}"
    cookie = {"Cookie": f"caserne_carnet={seeded.light_carnet}.{seeded.light_key}"}
    bench.run("GET /r/{id} (editor, 50 entries)", lambda: client.get(path, headers=cookie))
    headers = {
        **cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        "Sec-Fetch-Site": "same-origin",
        "HX-Request": "true",
        "HX-Target": "editor",
        "HX-Trigger": "entry-0-count",
    }
    for name, target, counts_only in (
        ("POST /r/{id}/nombres (count save, 50 entries)", f"{path}/nombres", True),
        ("POST /r/{id} (whole-form save, 50 entries)", path, False),
    ):
        form = FormFields("editor")
        form.feed(client.get(path, headers=cookie).text)
        fields = dict(form.fields)
        state: dict[str, Any] = {"version": fields["version"], "turn": 0}
        kept = [(k, v) for k, v in form.fields if k not in ("version", "entry-0-count")]
        if counts_only:
            kept = [(k, v) for k, v in kept if k == "csrf" or k.endswith("-count")]

        def save(
            target: str = target, kept: list[tuple[str, str]] = kept, state: Any = state
        ) -> Any:
            state["turn"] = int(state["turn"]) + 1
            count = str(1 + int(state["turn"]) % 2)
            body = urlencode([*kept, ("entry-0-count", count), ("version", str(state["version"]))])
            answer = client.post(target, content=body, headers=headers)
            found = VERSION.search(answer.text)
            if found is not None:
                state["version"] = found.group(1) or found.group(2)
            return answer

        bench.run(name, save)


def pages(bench: Bench, seeded: Seeded) -> None:
    client = bench.client
    light = {"Cookie": f"caserne_carnet={seeded.light_carnet}.{seeded.light_key}"}
    heavy = {"Cookie": f"caserne_carnet={seeded.heavy_carnet}.{seeded.heavy_key}"}
    bench.run("GET /listes (Mes listes, 5 lists)", lambda: client.get("/listes", headers=light))
    bench.run("GET /listes (Mes listes, 1,000 lists)", lambda: client.get("/listes", headers=heavy))
    share = f"/s/{seeded.share}"
    bench.run("GET /s/{code} (share, uncached)", lambda: client.get(share), SHARE_MEMORY)
    first = bench.run("GET /s/{code} (share, remembered)", lambda: client.get(share))
    if first is not None:
        bench.run(
            "GET /s/{code} (share, 304)",
            etag_call(client, share, first.headers["etag"]),
            expect=(304,),
        )
    book = f"/a/{seeded.book_share}"
    bench.run("GET /a/{code} (book version)", lambda: client.get(book))


def campaign(bench: Bench, seeded: Seeded, session: Session) -> None:
    client = bench.client
    for name, url in (
        ("GET /c/{id}", f"/c/{seeded.campaign}"),
        ("GET /api/v1/campaigns/{id}", f"/api/v1/campaigns/{seeded.campaign}"),
    ):
        bench.run(f"{name} (uncached)", lambda url=url: client.get(url), CAMPAIGN_MEMORY)
        first = bench.run(f"{name} (remembered)", lambda url=url: client.get(url))
        if first is not None:
            bench.run(f"{name} (304)", etag_call(client, url, first.headers["etag"]), expect=(304,))
    for who, gang_id in (("40 own, 36 mirrored", seeded.gangs[1]), ("veteran", seeded.gangs[0])):
        last = roster_store.latest_share(session=session, roster_id=gang_id)
        assert last is not None
        url = f"/campagne/gang/{last.code}"
        bench.run(
            f"GET /campagne/gang/{{code}} ({who}, first)",
            lambda url=url: client.get(url),
            GANG_MEMORY,
        )
        first = bench.run(
            f"GET /campagne/gang/{{code}} ({who}, remembered)", lambda url=url: client.get(url)
        )
        if first is not None:
            bench.run(
                f"GET /campagne/gang/{{code}} ({who}, 304)",
                etag_call(client, url, first.headers["etag"]),
                expect=(304,),
            )
    recorder, opponent = seeded.gangs[-1], seeded.gangs[-2]
    state = {"version": session.get(Roster, recorder).version}  # type: ignore[union-attr]

    def record() -> Any:
        body = {
            "date": "2026-12-01",
            "result": "win",
            "scenario": "Embuscade",
            "campaign": seeded.campaign,
            "opponent_roster": opponent,
            "fighters": [{"entry": 1, "xp": 1}],
        }
        answer = client.post(
            f"/api/v1/rosters/{recorder}/battles",
            json=body,
            headers={
                "Authorization": f"Bearer {seeded.club_key}",
                "If-Match": f'"{state["version"]}"',
            },
        )
        if answer.status_code == 201:
            state["version"] = int(state["version"]) + 1
        return answer

    bench.run("POST /api/v1/rosters/{id}/battles (a battle)", record, expect=(201,))


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.node()}, {os.cpu_count()} cores {model}, Python {platform.python_version()}"


def header(session: Session, engine: Engine, seeded: Seeded, label: str) -> None:
    rosters = session.exec(select(func.count()).select_from(Roster)).one()
    shares = session.exec(select(func.count()).select_from(Share)).one()
    lines = session.exec(
        select(func.count()).select_from(Battle).where(Battle.campaign_id == seeded.campaign)
    ).one()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    code = label or f"commit {commit or '?'}"
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {code}, {machine()}")
    size = ""
    if engine.dialect.name == "postgresql":
        found = session.execute(text("SELECT pg_database_size(current_database())")).scalar()
        size = f", {int(found or 0) / 1e9:.2f} GB"
    print(
        f"{engine.dialect.name}: {rosters} lists, {shares} shares, the campaign "
        f"{len(seeded.gangs)} gangs and {lines} lines{size}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="", help="default: a new SQLite file")
    parser.add_argument("--rosters", type=int, default=2000, help="lists in all (≥ 1,100)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--battles", type=int, default=2000, help="the campaign's (a quick try)")
    parser.add_argument("--keep", action="store_true", help="leave the seeded database")
    parser.add_argument("--reuse", action="store_true", help="measure a database seeded before")
    parser.add_argument("--only", action="append", default=[], help="routes whose name holds it")
    parser.add_argument("--skip", action="append", default=[], help="routes whose name holds it")
    parser.add_argument("--label", default="", help="what code this is, in the header")
    parser.add_argument(
        "--no-migrate",
        action="store_true",
        help="measure the database as it is (older code on a database a newer one migrated)",
    )
    args = parser.parse_args()
    if (args.keep or args.reuse) and not args.database_url:
        parser.error("--keep and --reuse need --database-url")
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'scale.sqlite3'}"
        if not args.no_migrate:
            migrate(url)
        engine = make_engine(url)
        try:
            measure(engine, url, args)
        finally:
            if args.database_url and not args.keep and not args.reuse:
                SQLModel.metadata.drop_all(engine)
                with engine.begin() as connection:
                    connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
            engine.dispose()


def seeding_engine(url: str) -> Engine:
    """An engine for the seeding only: on PostgreSQL its commits do not wait for the disk
    (`synchronous_commit` off for its own connections: the same rows, 8 ms less a commit on
    this machine); the measured app keeps its own engine, as a server runs."""
    engine = make_engine(url)
    if engine.dialect.name == "postgresql":

        @event.listens_for(engine, "connect")
        def _no_wait(connection: Any, _record: Any) -> None:
            with connection.cursor() as cursor:
                cursor.execute("SET synchronous_commit TO OFF")

    return engine


def measure(engine: Engine, url: str, args: argparse.Namespace) -> None:
    settings = Settings(
        database_url=url, rate_limit_create="", rate_limit_share="", rate_limit_write=""
    )
    app = create_app(settings=settings, engine=engine)
    app.openapi()  # as app/asgi.py serves it
    with Session(engine) as session:
        if args.reuse:
            seeded = located(session, app.state.systems)
        else:
            editor = long_list(app.state.systems, "dcsystem", 50)
            seeding = seeding_engine(url)
            with Session(seeding) as writing:
                seeded = seed(
                    writing,
                    app.state.systems,
                    app.state.example_books,
                    args.rosters,
                    editor,
                    args.battles,
                )
            seeding.dispose()
        header(session, engine, seeded, args.label)
    settle_heap()
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    with TestClient(app), inline_routes(), Session(engine) as session:
        bench = Bench(app, engine, args.rounds, args.only, args.skip)
        bench.run("GET /healthz", lambda: bench.client.get("/healthz"))
        editor_saves(bench, seeded)
        pages(bench, seeded)
        campaign(bench, seeded, session)
    bench.print()
    after = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(f"load average {load} before the measures, {after} after; median of {args.rounds}")


if __name__ == "__main__":
    main()
