"""Issue 29: what a club's campaign and its gangs' pages cost whatever their history. A
Necromunda–Warzone campaign of 50 gangs and 2,000 battles, seeded through the campaign
service (each battle recorded as the API records it: the line, its share, the roster), one
gang a veteran who recorded a fifth of them. Then, with no credentials: the standings
(`GET /c/{id}`), the API's campaign (`GET /api/v1/campaigns/{id}`), the veteran's page and
an ordinary gang's page (`GET /campagne/gang/{code}`), each timed (wall and CPU of this
process, median of `--rounds`), its SQL statements counted (a SQLAlchemy event listener),
and the same again with `If-None-Match` set to the ETag it got (304 when it has one).
In-process (TestClient), so it measures Caserne's own work, not the network. Prints
figures; passes or fails on nothing.

    .venv/bin/python bench/campaign_pages_bench.py [--gangs 50] [--battles 2000] [--rounds 20]
    createdb -h 127.0.0.1 -U postgres hcamp
    .venv/bin/python bench/campaign_pages_bench.py \\
        --database postgresql+psycopg://postgres@127.0.0.1:5432/hcamp
    dropdb -h 127.0.0.1 -U postgres hcamp

The tables are made in the database given and dropped at the end; with `--keep` they are
left, and a database seeded before is measured again without seeding (after a change of
code: `--database sqlite:////tmp/campaign.sqlite3 --keep`).
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# First: it imports the systems before the campaign service (else an import cycle).
from app.main import create_app  # isort: split

from app.campaigns.models import BattleIn, CampaignIn
from app.campaigns.service import CampaignService
from app.db import make_engine
from app.settings import Settings
from app.store import campaigns as store
from app.store import rosters as roster_store
from app.store.models import Campaign, Roster

PROFILE = {"M": 4, "CC": 3, "CT": 3, "F": 3, "E": 3, "PV": 1, "I": 3, "A": 1, "Cd": 7}
FIGHTERS = 9


def gang(name: str) -> dict[str, Any]:
    chef = {"name": "Chef", "custom": {"leader": True, "xp": 80, "profile": PROFILE}}
    gangers = [
        {"name": f"Ganger {n}", "custom": {"xp": 10, "profile": PROFILE}}
        for n in range(1, FIGHTERS)
    ]
    return {"system": "necrowarzone", "name": name, "entries": [chef, *gangers]}


def battle(
    number: int,
    chance: random.Random,
    dead: dict[str, int],
    recorder: str,
    campaign: str,
    opponent: dict[str, str],
) -> dict[str, Any]:
    """The body of the `number`th line `recorder` records in `campaign` against `opponent`
    (`{"opponent_roster": id}` or `{"opponent": name}`): two fighters gain XP, or now and
    then one dies (never the chef, at most four a gang: `dead` counts them)."""
    fighters: list[dict[str, Any]] = [
        {"entry": chance.randrange(1, FIGHTERS), "xp": chance.randint(1, 6)},
        {"entry": 0, "xp": chance.randint(0, 3)},
    ]
    if chance.random() < 0.05 and dead.get(recorder, 0) < 4:
        dead[recorder] = dead.get(recorder, 0) + 1
        fighters = [{"entry": dead[recorder] + 3, "state": "dead"}, fighters[1]]
    return {
        "date": f"2026-{1 + number // 200:02d}-{1 + number % 28:02d}",
        "result": chance.choice(["win", "loss", "draw"]),
        "scenario": "Embuscade",
        "notes": "Une bataille du club.",
        "fighters": fighters,
        "campaign": campaign,
        **opponent,
    }


def confirmation(body: dict[str, Any], recorder: str) -> dict[str, Any]:
    """The same battle as its opponent records it (one battle, confirmed)."""
    result = {"win": "loss", "loss": "win", "draw": "draw"}[body["result"]]
    fighters = [{"entry": 0, "xp": 1}]
    return {**body, "result": result, "opponent_roster": recorder, "fighters": fighters}


def follow_up(
    service: CampaignService,
    campaign: Campaign,
    number: int,
    line: Any,
    body: dict[str, Any],
    recorder: Roster,
    opponent: Roster | None,
    confirmable: bool,
) -> None:
    """What follows the `number`th line now and then: its opponent (a gang of the campaign)
    records the same battle (one in fifty, where `confirmable`) or disputes it, or the
    organiser voids it."""
    if opponent is not None and confirmable and number % 50 == 7:
        again = confirmation(body, recorder.id)
        service.record(opponent, opponent.version, BattleIn.model_validate(again))
    elif opponent is not None and number % 17 == 3:
        service.verdict(opponent, recorder.id, line.number, "disputed")
    elif number % 97 == 11:
        service.void(campaign, recorder.id, line.number)


def seed(service: CampaignService, gangs: int, battles: int) -> tuple[str, list[Roster]]:
    """A campaign of `gangs` gangs and `battles` lines; gangs[0] records every fifth line.
    Most lines name another gang of the campaign; some of those are disputed, one in fifty
    is recorded again by its opponent (the same battle), a few are voided; a fighter dies
    now and then (never the chef, at most four a gang)."""
    system = service.systems["necrowarzone"]
    campaign, _token, _join = service.create(
        CampaignIn(system="necrowarzone", name="Bench", notes="Règles du club."), None
    )
    rosters = []
    for n in range(gangs):
        document = system.roster_model.model_validate(gang(f"Gang {n:02d}"))
        roster, _edit = service.rosters.create(document)
        service.join_held(campaign, roster)
        rosters.append(roster)
    chance = random.Random(29)
    dead: dict[str, int] = {}
    started = time.perf_counter()
    for number in range(battles):
        recorder = rosters[0] if number % 5 == 0 else chance.choice(rosters[1:])
        opponent = chance.choice([r for r in rosters if r.id != recorder.id])
        named = chance.random() < 0.8
        against = {"opponent_roster": opponent.id} if named else {"opponent": "Un gang de passage"}
        body = battle(number, chance, dead, recorder.id, campaign.id, against)
        line, _share = service.record(recorder, recorder.version, BattleIn.model_validate(body))
        named_opponent = opponent if named else None
        follow_up(service, campaign, number, line, body, recorder, named_opponent, True)
        if (number + 1) % 250 == 0:
            took = time.perf_counter() - started
            print(f"  seeded {number + 1} battles ({took:.0f} s)", file=sys.stderr)
    return campaign.id, rosters


class Statements:
    """Counts the SQL statements `engine` runs between entering and leaving it."""

    def __init__(self, engine: Engine) -> None:
        self.engine, self.count = engine, 0

    def one(self, *_args: Any) -> None:
        self.count += 1

    def __enter__(self) -> "Statements":
        event.listen(self.engine, "before_cursor_execute", self.one)
        return self

    def __exit__(self, *_exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self.one)


def timed(what: Callable[[], Any], rounds: int) -> tuple[float, float, float]:
    """Median wall, median CPU and least CPU milliseconds of `what` (after one call that
    warms it). The least is the figure to compare on a loaded machine: other processes
    only ever add to it."""
    what()
    walls, cpus = [], []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        what()
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
    return statistics.median(walls), statistics.median(cpus), min(cpus)


# What the app remembers of computed views (app.state), by version: the views and pages
# (emptied before a « computed » call) and what each gang's lines did to its fighters, by
# gang version (kept by « computed », emptied too by « cold »: a process's first view).
VIEWS = ("campaign_views", "campaign_pages", "gang_pages")
GANGS = ("campaign_losses",)


def forget(client: TestClient, names: tuple[str, ...]) -> None:
    for name in names:
        setattr(client.app.state, name, None)  # type: ignore[attr-defined]


def measure(client: TestClient, engine: Engine, url: str, rounds: int) -> None:
    """`url` computed cold (every memory emptied first), computed (the views' memories
    emptied: what a view costs after a battle), remembered, and revalidated."""

    def get(headers: dict[str, str] | None = None, fresh: tuple[str, ...] = ()) -> Any:
        forget(client, fresh)
        response = client.get(url, headers=headers or {})
        assert response.status_code in (200, 304), (url, response.status_code)
        return response

    def row(what: str, status: int, call: Callable[[], Any], said: Statements) -> None:
        wall, cpu, least = timed(call, rounds)
        print(
            f"  {what:<12} {status}  wall {wall:6.1f} ms  cpu {cpu:6.1f} ms "
            f"(least {least:5.1f})  {said.count:3d} statements"
        )

    forget(client, VIEWS + GANGS)
    with Statements(engine) as said:
        first = get()
    print(f"{url}  {len(first.content) / 1024:.1f} KB  {first.headers.get('cache-control')}")
    row("cold", first.status_code, lambda: get(fresh=VIEWS + GANGS), said)
    etag = first.headers.get("etag")
    if etag is None:
        return
    with Statements(engine) as said:
        status = get(fresh=VIEWS).status_code
    row("computed", status, lambda: get(fresh=VIEWS), said)
    with Statements(engine) as said:
        status = get().status_code
    row("remembered", status, get, said)
    again = {"If-None-Match": etag}
    with Statements(engine) as said:
        status = get(again).status_code
    row("revalidated", status, lambda: get(again), said)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", default="", help="a database URL (default: a new SQLite)")
    parser.add_argument("--gangs", type=int, default=50)
    parser.add_argument("--battles", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument(
        "--keep",
        action="store_true",
        help="measure the campaign the database holds, if any (else seed it) and leave it",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        engine = make_engine(url)
        SQLModel.metadata.create_all(engine)
        with Session(engine) as session:
            seeded = args.keep and session.exec(select(Campaign)).first() is not None
        try:
            run(engine, url, args, seeded)
        finally:
            if args.database and not args.keep:
                SQLModel.metadata.drop_all(engine)
            engine.dispose()


def kept(service: CampaignService) -> tuple[str, list[Roster]]:
    """The campaign and gangs of a database seeded before (--keep)."""
    found = service.session.exec(select(Campaign)).one()
    return found.id, store.gangs(session=service.session, campaign_id=found.id)


def run(engine: Engine, url: str, args: argparse.Namespace, seeded: bool) -> None:
    settings = Settings(
        database_url=url, rate_limit_create="", rate_limit_share="", rate_limit_write=""
    )
    app = create_app(settings=settings, engine=engine)
    started = time.perf_counter()
    with Session(engine) as session:
        service = CampaignService(session, app.state.systems)
        if seeded:
            campaign, rosters = kept(service)
        else:
            campaign, rosters = seed(service, args.gangs, args.battles)
        codes = []
        for roster in (rosters[0], rosters[1]):
            last = roster_store.latest_share(session=session, roster_id=roster.id)
            assert last is not None
            lines = len(service.battles(roster))
            codes.append((last.code, lines, roster.version - 1))
    print(
        f"{engine.dialect.name}: {args.gangs} gangs, {args.battles} battles "
        f"(seeded in {time.perf_counter() - started:.0f} s), median of {args.rounds}"
    )
    for code, lines, own in codes:
        print(f"  gang page {code}: {own} own lines, {lines - own} recorded against it")
    with TestClient(app, follow_redirects=False) as client:
        wall, cpu, least = timed(lambda: client.get("/healthz"), args.rounds)
        print(f"/healthz (the stack)  wall {wall:.1f} ms  cpu {cpu:.1f} ms (least {least:.1f})")
        for path in (f"/c/{campaign}", f"/api/v1/campaigns/{campaign}"):
            measure(client, engine, path, args.rounds)
        for code, _lines, _own in codes:
            measure(client, engine, f"/campagne/gang/{code}", args.rounds)


if __name__ == "__main__":
    main()
