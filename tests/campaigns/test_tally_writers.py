"""The standings kept by the writes (app/campaigns/tallies.py) hold when writers meet: a
verdict, a void, two lines recorded and a verdict on another line of one campaign, each in
its own session and thread at once (as five processes would), leave the kept tallies those
every ledger gives (each write counts its recorder's lines again after taking the
campaign's row, so the last one reads what the others wrote); on SQLite and PostgreSQL."""

import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session

from app.campaigns.models import BattleIn, CampaignIn
from app.campaigns.service import CampaignService
from app.campaigns.views import standings
from app.store import campaign_reads
from app.store.models import Campaign
from tests.api.test_campaigns import orlocks
from tests.campaigns.test_campaign_views import reference
from tests.store.test_battle_writers import shared_engine  # noqa: F401 (a fixture)
from tests.store.test_migration_0013 import Memory


def line(campaign: str, opponent: str, result: str = "win", xp: int = 2) -> BattleIn:
    body = {"date": "2026-12-01", "result": result, "campaign": campaign}
    body.update(opponent_roster=opponent, fighters=[{"entry": 1, "xp": xp}])
    return BattleIn.model_validate(body)


def club(service: CampaignService, *names: str) -> tuple[Campaign, list[str]]:
    """A Necromunda–Warzone campaign and, joined to it, one gang of Orlocks a name: its
    lists' ids."""
    campaign, _token, _join = service.create(CampaignIn(system="necrowarzone", name="R"), None)
    model = service.systems["necrowarzone"].roster_model
    gangs = []
    for name in names:
        roster, _edit = service.rosters.create(model.model_validate(orlocks(name)))
        service.join_held(campaign, roster)
        gangs.append(roster.id)
    return campaign, gangs


def kept(engine: Engine, campaign_id: str) -> tuple[list[Any], list[Any]]:
    """The standings as the tallies keep them, and as every ledger gives them."""
    with Session(engine) as session:
        campaign = session.get(Campaign, campaign_id)
        assert campaign is not None
        gangs = campaign_reads.gang_versions(session=session, campaign_id=campaign_id)
        table = [
            (s.roster, s.battles, s.wins, s.draws, s.losses, s.points, s.xp, s.fighters_lost)
            for s in standings(session, campaign, gangs, Memory())
        ]
        return table, reference(session, campaign_id)


def test_writers_of_one_campaign_at_once_keep_its_standings(
    shared_engine: Engine,  # noqa: F811
    systems: dict[str, Any],
) -> None:
    with Session(shared_engine) as session:
        service = CampaignService(session, systems)
        campaign, gangs = club(service, "Alpha", "Bravo", "Charlie", "Delta")
        alpha, bravo, charlie, delta = gangs
        for number in range(3):
            recorder = service.rosters.get(bravo)
            service.record(recorder, recorder.version, line(campaign.id, alpha, xp=number))
        campaign_id = campaign.id
    barrier = threading.Barrier(5)
    errors: list[BaseException] = []

    def run(write: Callable[[CampaignService], Any]) -> None:
        with Session(shared_engine) as session:
            service = CampaignService(session, systems)
            barrier.wait()
            try:
                write(service)
            except BaseException as error:
                errors.append(error)

    def record(recorder: str, opponent: str) -> Callable[[CampaignService], Any]:
        def write(service: CampaignService) -> Any:
            mine = service.rosters.get(recorder)
            return service.record(mine, mine.version, line(campaign_id, opponent, "loss", 4))

        return write

    writes = [
        lambda s: s.verdict(s.rosters.get(alpha), bravo, 1, "disputed"),
        lambda s: s.void(s.get(campaign_id), bravo, 2),
        lambda s: s.verdict(s.rosters.get(alpha), bravo, 3, "confirmed"),
        record(charlie, bravo),
        record(delta, alpha),
    ]
    threads = [threading.Thread(target=run, args=(write,)) for write in writes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    table, expected = kept(shared_engine, campaign_id)
    assert table == expected
    # Bravo: its line 3 (a win) and Charlie's loss against it; Alpha: the loss of line 3,
    # Delta's loss against it (a win).
    by = {row[0]: row[1:5] for row in table}
    assert by[bravo] == (2, 2, 0, 0) and by[alpha] == (2, 1, 0, 1)
