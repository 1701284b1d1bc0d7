"""A list deleted (« Supprimer », kept in the trash) while a line of its ledger is voided, on
PostgreSQL: every write takes its rows in one order — the roster's, the campaign's, then the
campaign's gangs' and lines' (app/store/campaigns.py `bump`). The deletion took the roster's
row, then its lines' (the delete's cascade), then the campaign's; a void or a verdict takes
the campaign's, then the line's: each waited for the other and PostgreSQL ended one of them
(a deadlock, found in review). The void here holds the campaign's row when the deletion
starts, as its first step does; the deletion must wait for it before it takes a line, so that
the void writes its line and ends, and the deletion then keeps that line as voided.

SQLite takes one lock for the whole database: no row order to get wrong there."""

import threading
import time
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, text, update
from sqlmodel import Session, col

from app.campaigns.service import CampaignService
from app.store import trash
from app.store.models import Battle, Campaign, DeletedItem, Roster, utcnow
from tests.campaigns.test_tally_writers import club, line
from tests.conftest import ON_POSTGRES
from tests.store.test_battle_writers import shared_engine  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(
    not ON_POSTGRES, reason="row locks: the PostgreSQL run (DATABASE_URL)"
)


def wait_until_someone_waits_on(
    connection: Connection, errors: list[BaseException], seconds: float = 20.0
) -> None:
    """Until another session waits for a lock this connection holds (or `errors` says why
    it never will)."""
    deadline = time.monotonic() + seconds
    query = text(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE pg_blocking_pids(pid) @> ARRAY[pg_backend_pid()]"
    )
    # pg_stat_activity is read once a transaction unless its snapshot is cleared.
    clear = text("SELECT pg_stat_clear_snapshot()")
    while connection.execute(clear) and connection.execute(query).scalar_one() == 0:
        assert errors == []
        assert time.monotonic() < deadline, "the deletion never waited for the campaign's row"
        time.sleep(0.02)


def test_a_list_deleted_while_its_line_is_voided(
    shared_engine: Engine,  # noqa: F811
    systems: dict[str, Any],
) -> None:
    with Session(shared_engine) as session:
        service = CampaignService(session, systems)
        campaign, gangs = club(service, "Alpha", "Bravo")
        alpha, bravo = gangs
        recorder = service.rosters.get(bravo)
        service.record(recorder, recorder.version, line(campaign.id, alpha))
        campaign_id = campaign.id
        line_id = session.exec(
            text("SELECT id FROM battle WHERE roster_id = :r"), params={"r": bravo}
        ).scalar_one()

    # The void's first step: the campaign's row (store/campaigns.py `bump`), not yet ended.
    voider = shared_engine.connect()
    voiding = voider.begin()
    voider.execute(
        update(Campaign)
        .where(col(Campaign.id) == campaign_id)
        .values(version=col(Campaign.version) + 1)
    )
    errors: list[BaseException] = []

    def delete() -> None:
        with Session(shared_engine) as deleter:
            roster = deleter.get(Roster, bravo)
            assert roster is not None
            try:
                trash.discard(session=deleter, roster=roster, carnet_id=None)
            except BaseException as error:
                errors.append(error)

    deletion = threading.Thread(target=delete)
    deletion.start()
    try:
        wait_until_someone_waits_on(voider, errors)
        # The void's second step: its line. A deletion holding it would deadlock here.
        voider.execute(text("SET LOCAL lock_timeout = '15s'"))
        voider.execute(update(Battle).where(col(Battle.id) == line_id).values(voided_at=utcnow()))
        voiding.commit()
    finally:
        voider.close()
        deletion.join(timeout=30)
    assert not deletion.is_alive()
    assert errors == []
    with Session(shared_engine) as session:
        assert session.get(Roster, bravo) is None
        kept = session.get(DeletedItem, bravo)
        assert kept is not None
        # What the trash keeps is the line as the void left it.
        assert [b["voided_at"] is not None for b in kept.rows["battles"]] == [True]
