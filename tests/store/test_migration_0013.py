"""Revision 0013 (campaign tallies) upgrades a database made by the previous head: every
campaign's standings, as the app reads them from the tallies the revision fills, are those
every ledger gives (app/campaigns/ledger.py `standings`, as before the revision): wins,
losses, a disputed line, a line recorded again by the other gang, a correction with points,
a voided line, a dead fighter whose list has two figures of him, a dead fighter whose entry
left the list, a line of another campaign and one of none. Every gang's page counter starts
at 1; down and up again gives the same tallies."""

from collections.abc import Hashable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text
from sqlmodel import Session

from app.campaigns import views
from app.store import campaign_reads
from app.store.models import Campaign
from tests.campaigns.test_campaign_views import reference

PREVIOUS_HEAD = "0012"  # retired keys
WHEN = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


class Memory:
    def __init__(self) -> None:
        self.kept: dict[Hashable, Any] = {}

    def get(self, key: Hashable) -> Any:
        return self.kept.get(key)

    def put(self, key: Hashable, value: Any) -> None:
        self.kept[key] = value


def gang(name: str) -> dict[str, Any]:
    entries = [
        {"id": f"e{n}", "name": f"Ganger {n}", "count": 2 if n == 3 else 1, "custom": {"xp": 10}}
        for n in range(4)
    ]
    return {"system": "necrowarzone", "name": name, "points_limit": None, "entries": entries}


def fighter(entry: str, xp: int = 0, state: str | None = None, count: int = 1) -> dict[str, Any]:
    return {"entry": 0, "id": entry, "xp": xp, "state": state, "count": count, "changes": []}


# (recorder, number, campaign, opponent, result, points, corrects, verdict, voided, fighters)
LINES: list[tuple[Any, ...]] = [
    ("r0", 1, "c0", "r1", "win", None, None, "confirmed", False, [fighter("e1", 5)]),
    ("r0", 2, "c0", "r1", "loss", None, None, "disputed", False, [fighter("e2", 2)]),
    ("r0", 3, "c0", "r2", "win", 3, None, "pending", False, []),
    ("r0", 4, "c0", "r2", "loss", 7, 3, None, False, [fighter("e0", -1)]),
    ("r0", 5, None, None, "win", None, None, None, False, [fighter("e0", 4)]),
    ("r1", 1, "c0", "r0", "loss", None, None, "confirmed", False, [fighter("e0", 1)]),
    ("r1", 2, "c0", "r2", "draw", None, None, "pending", True, [fighter("e2", 3)]),
    ("r1", 3, "c0", None, "win", 4, None, None, False, [fighter("e3", 2, "dead")]),
    ("r2", 1, "c0", "r0", "win", None, None, None, False, [fighter("gone", 1, "dead", 3)]),
    ("r2", 2, "c1", None, "win", 2, None, None, False, [fighter("e1", 6)]),
]


def seeded(alembic_runner: Any) -> None:
    """Three gangs of campaign c0 (r2 in c1 too) and their lines, as 0012 stored them."""
    for n, name in enumerate(("Alpha", "Bravo", "Charlie")):
        document = gang(name)
        if n == 2:  # its entry e3 left the list since its dead fighter's line
            document["entries"] = document["entries"][:3]
        alembic_runner.insert_into(
            "roster",
            {
                "id": f"r{n}",
                "system": "necrowarzone",
                "name": name,
                "document": document,
                "version": 4,
                "token_hash": "a" * 64,
                "created_at": WHEN,
                "updated_at": WHEN,
                "card": None,
            },
        )
    for campaign in ("c0", "c1"):
        alembic_runner.insert_into(
            "campaign",
            {
                "id": campaign,
                "system": "necrowarzone",
                "name": "La Ruche",
                "notes": "",
                "token_hash": "b" * 64,
                "join_hash": "c" * 64,
                "created_at": WHEN,
            },
        )
    places = [("c0", "r0"), ("c0", "r1"), ("c0", "r2"), ("c1", "r2")]
    for campaign, roster in places:
        alembic_runner.insert_into(
            "campaign_gang", {"campaign_id": campaign, "roster_id": roster, "joined_at": WHEN}
        )
    for at, line in enumerate(LINES, start=1):
        recorder, number, campaign, opponent, result, points, corrects, said, voided, fought = line
        alembic_runner.insert_into(
            "battle",
            {
                "id": at,
                "roster_id": recorder,
                "number": number,
                "campaign_id": campaign,
                "opponent_roster_id": opponent,
                "date": "2026-12-01",
                "opponent": "",
                "scenario": "",
                "result": result,
                "points": points,
                "notes": "",
                "fighters": fought,
                "recruits": [],
                "corrects": corrects,
                "share_code": f"code{at}",
                "verdict": said,
                "voided_at": WHEN if voided else None,
                # Bravo's first line records again Alpha's first (one battle).
                "confirms_id": 1 if (recorder, number) == ("r1", 1) else None,
                "created_at": WHEN,
            },
        )


def standings(engine: Any, campaign_id: str) -> list[tuple[Any, ...]]:
    """The standings as the app reads them from the tallies."""
    with Session(engine) as session:
        campaign = session.get(Campaign, campaign_id)
        assert campaign is not None
        gangs = campaign_reads.gang_versions(session=session, campaign_id=campaign_id)
        table = views.standings(session, campaign, gangs, Memory())
        return [
            (s.roster, s.battles, s.wins, s.draws, s.losses, s.points, s.xp, s.fighters_lost)
            for s in table
        ]


def test_0013_counts_every_campaign_as_its_ledgers_give(
    alembic_runner: Any, alembic_engine: Any
) -> None:
    alembic_runner.migrate_up_to(PREVIOUS_HEAD)
    seeded(alembic_runner)
    alembic_runner.migrate_up_to("0013")
    with Session(alembic_engine) as session:
        expected = {c: reference(session, c) for c in ("c0", "c1")}
    # Alpha: its confirmed win, its corrected line 3 (a loss, 7 points) and Charlie's win
    # against it; its disputed line counts for no one. Bravo: Alpha's win against it, its
    # own win (its voided draw counts nowhere). Charlie: Alpha's line 3 (a win for it), its
    # win. XP of every line not voided; the dead: Bravo's e3 (two figures), Charlie's
    # departed entry (three, as its line recorded).
    assert expected["c0"] == [
        ("r2", 2, 2, 0, 0, 0, 1, 3),
        ("r0", 3, 1, 0, 2, 7, 6, 0),
        ("r1", 2, 1, 0, 1, 4, 3, 2),
    ]
    assert expected["c1"] == [("r2", 1, 1, 0, 0, 2, 6, 0)]
    for campaign, table in expected.items():
        assert standings(alembic_engine, campaign) == table, campaign
    with alembic_engine.connect() as connection:
        counters = connection.execute(text("SELECT version FROM campaign_gang")).all()
        assert counters == [(1,)] * 4
    alembic_runner.migrate_down_one()
    alembic_runner.migrate_up_one()
    for campaign, table in expected.items():
        assert standings(alembic_engine, campaign) == table, campaign
