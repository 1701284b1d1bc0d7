"""Two writers record a battle on one gang at once, each in its own session and thread (as
two processes would): exactly one line is stored, the other writer gets StaleVersion (the
API's 409) and nothing of its line is kept; on SQLite and on PostgreSQL."""

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from app.campaigns.models import BattleIn
from app.campaigns.service import CampaignService
from app.cli import migrate
from app.db import make_engine
from app.roster_service import RosterService, StaleVersion
from app.store import campaigns as store
from tests.conftest import DATABASE_URL, ON_POSTGRES, create_schema, drop_schema

PROFILE = {"M": 4, "CC": 3, "CT": 3, "F": 3, "E": 3, "PV": 1, "I": 3, "A": 1, "Cd": 7}


@pytest.fixture
def shared_engine(tmp_path: Path) -> Iterator[Engine]:
    """A database two sessions really share (not the rolled-back test transaction)."""
    if ON_POSTGRES:
        schema, url = create_schema(DATABASE_URL, "caserne_writers")
        migrate(url)
        engine = make_engine(url)
        yield engine
        engine.dispose()
        drop_schema(DATABASE_URL, schema)
    else:
        url = f"sqlite:///{tmp_path / 'writers.sqlite3'}"
        migrate(url)
        engine = make_engine(url)
        yield engine
        engine.dispose()


def test_two_writers_at_once_one_wins_one_is_refused(
    shared_engine: Engine, systems: dict[str, Any]
) -> None:
    document = {
        "system": "necrowarzone",
        "name": "Orlocks",
        "entries": [{"name": "Chef", "custom": {"leader": True, "xp": 10, "profile": PROFILE}}],
    }
    with Session(shared_engine) as session:
        service = RosterService(session, systems)
        model = systems["necrowarzone"].roster_model
        roster, _token = service.create(model.model_validate(document))
        roster_id = roster.id
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def write(xp: int) -> None:
        with Session(shared_engine) as session:
            campaigns = CampaignService(session, systems)
            mine = campaigns.rosters.get(roster_id)
            body = BattleIn.model_validate(
                {"date": "2026-12-01", "result": "win", "fighters": [{"entry": 0, "xp": xp}]}
            )
            barrier.wait()
            try:
                campaigns.record(mine, 1, body)
                outcomes.append(f"won {xp}")
            except StaleVersion as stale:
                outcomes.append(f"stale {stale.current}")

    threads = [threading.Thread(target=write, args=(xp,)) for xp in (5, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(o.split()[0] for o in outcomes) == ["stale", "won"]
    assert [o for o in outcomes if o.startswith("stale")] == ["stale 2"]
    with Session(shared_engine) as session:
        lines = store.ledger(session=session, roster_id=roster_id)
        assert len(lines) == 1
        won = int(next(o for o in outcomes if o.startswith("won")).split()[1])
        assert lines[0].fighters[0]["xp"] == won
        roster = RosterService(session, systems).get(roster_id)
        assert roster.version == 2
        assert roster.document["entries"][0]["custom"]["xp"] == 10 + won
