"""Issue 25, item 9: concurrent joins keep a campaign's cap (64 gangs). Twenty threads,
each its own session and connection, join twenty lists to a campaign of 60 gangs at once:
exactly 4 join, 16 hear « full ». On the test database (PostgreSQL with DATABASE_URL) and
on a SQLite file (an in-memory database has one connection)."""

import threading
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from app.campaigns.service import CAMPAIGN_MAX_GANGS, CampaignFull, CampaignService
from app.cli import migrate
from app.db import make_engine
from app.store import campaigns as store
from app.store import rosters as roster_store
from app.systems.base import GameSystem
from tests.conftest import ON_POSTGRES


def race(engine: Engine, systems: dict[str, GameSystem]) -> tuple[int, int, int]:
    with Session(engine) as session:
        campaign, _token, _join = store.create_campaign(
            session=session, system="bastos", name="Chicago", notes="", carnet_id=None
        )
        ids = []
        for n in range(CAMPAIGN_MAX_GANGS - 4 + 20):
            roster, _ = roster_store.create_roster(
                session=session,
                system="bastos",
                name=f"Gang {n}",
                document={"system": "bastos", "name": f"Gang {n}", "entries": []},
            )
            ids.append(roster.id)
        campaign_id = campaign.id
        service = CampaignService(session, systems)
        for roster_id in ids[: CAMPAIGN_MAX_GANGS - 4]:
            service.join_held(campaign, service.rosters.get(roster_id))
    start = threading.Barrier(20)
    outcomes: list[str] = []

    def join(roster_id: str) -> None:
        with Session(engine) as own:
            service = CampaignService(own, systems)
            mine = service.get(campaign_id)
            roster = service.rosters.get(roster_id)
            start.wait()
            try:
                service.join_held(mine, roster)
                outcomes.append("joined")
            except CampaignFull:
                outcomes.append("full")

    threads = [threading.Thread(target=join, args=(i,)) for i in ids[CAMPAIGN_MAX_GANGS - 4 :]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with Session(engine) as session:
        count = store.count_gangs(session=session, campaign_id=campaign_id)
    return count, outcomes.count("joined"), outcomes.count("full")


@pytest.mark.skipif(not ON_POSTGRES, reason="the PostgreSQL run (DATABASE_URL)")
def test_twenty_concurrent_joins_keep_the_cap_on_postgresql(
    engine: Engine, systems: dict[str, GameSystem]
) -> None:
    assert race(engine, systems) == (64, 4, 16)


def test_twenty_concurrent_joins_keep_the_cap_on_a_sqlite_file(
    tmp_path: Path, systems: dict[str, GameSystem]
) -> None:
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    migrate(url)
    engine = make_engine(url)
    try:
        assert race(engine, systems) == (64, 4, 16)
    finally:
        engine.dispose()
