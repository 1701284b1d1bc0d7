"""campaign tallies: each gang's lines of a campaign counted once, when they change, so that
its standings add a few rows a gang whatever the number of battles; and a counter of what
each gang's public page shows, so that a battle changes the pages of the gangs it names only
(issue 29, docs/campaigns.md « Views remembered per version »)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06

A table `campaign_tally` (a gang's lines of a campaign: what they count for it and for each
gang they name), filled here from every ledger as the app counts it (app/campaigns/ledger.py
`tally`, `losses`: the same rules, written again so that this revision stays what it is when
the app's code moves on), one campaign at a time; and a column `campaign_gang.version` (not
null, 1 for every gang).
"""

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
OPPOSITE = {"win": "loss", "loss": "win", "draw": "draw"}
COUNTS = ("battles", "wins", "draws", "losses", "points")
roster = sa.table(
    "roster",
    sa.column("id", sa.String),
    sa.column("version", sa.Integer),
    sa.column("document", JSON_DOCUMENT),
)
battle = sa.table(
    "battle",
    *(
        sa.column(name, sa.String)
        for name in ("roster_id", "campaign_id", "opponent_roster_id", "result", "verdict")
    ),
    *(sa.column(name, sa.Integer) for name in ("number", "points", "corrects", "confirms_id")),
    sa.column("voided_at", sa.DateTime(timezone=True)),
    sa.column("fighters", JSON_DOCUMENT),
)


def upgrade() -> None:
    op.create_table(
        "campaign_tally",
        sa.Column(
            "campaign_id",
            sa.String(length=32),
            sa.ForeignKey("campaign.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "recorder_id",
            sa.String(length=32),
            sa.ForeignKey("roster.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("subject_id", sa.String(length=32), primary_key=True),
        *(
            sa.Column(name, sa.Integer(), nullable=False, server_default="0")
            for name in (*COUNTS, "xp", "fighters_lost")
        ),
        sa.Column("lost_version", sa.Integer(), nullable=True),
    )
    with op.batch_alter_table("campaign_gang") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
    bind = op.get_bind()
    names = ("campaign_id", "recorder_id", "subject_id", *COUNTS, "xp", "fighters_lost")
    tally = sa.table("campaign_tally", *(sa.column(c) for c in (*names, "lost_version")))
    query = sa.select(battle.c.campaign_id).where(battle.c.campaign_id.is_not(None)).distinct()
    for campaign_id in sorted(row[0] for row in bind.execute(query)):
        rows = list(tallies(bind, campaign_id))
        if rows:
            bind.execute(sa.insert(tally), rows)


def tallies(bind: Any, campaign_id: str) -> Iterator[dict[str, Any]]:
    """Every tally row of the campaign: its lines, by recorder then number."""
    query = (
        sa.select(battle)
        .where(battle.c.campaign_id == campaign_id)
        .order_by(battle.c.roster_id, battle.c.number)
    )
    by: dict[str, list[Mapping[str, Any]]] = {}
    for row in bind.execute(query).mappings():
        by.setdefault(row["roster_id"], []).append(row)
    lists = sa.select(roster.c.id, roster.c.version, roster.c.document).where(
        roster.c.id.in_(sorted(by))
    )
    for recorder, version, document in bind.execute(lists):
        for row in counted(recorder, by[recorder], version, document or {}):
            yield {"campaign_id": campaign_id, "recorder_id": recorder, **row}


def counted(
    recorder: str, lines: Sequence[Mapping[str, Any]], version: int, document: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """What one gang's lines of a campaign count (app/campaigns/tallies.py `rows_of`)."""
    table: dict[str, dict[str, Any]] = {}

    def row_of(subject: str) -> dict[str, Any]:
        fresh = {"subject_id": subject, **dict.fromkeys((*COUNTS, "xp", "fighters_lost"), 0)}
        return table.setdefault(subject, {**fresh, "lost_version": None})

    def count(subject: str, result: str, points: int) -> None:
        row = row_of(subject)
        row["battles"] += 1
        row[{"win": "wins", "draw": "draws", "loss": "losses"}[result]] += 1
        row["points"] += points

    numbers = {line["number"]: line for line in lines}
    latest = {line["corrects"]: line["number"] for line in lines if line["corrects"] is not None}
    own = row_of(recorder)
    for line in lines:
        if line["corrects"] is not None:
            continue
        result, points = line["result"], line["points"]
        fix = numbers.get(latest.get(line["number"], -1))
        if fix is not None:
            result = fix["result"]
            points = fix["points"] if fix["points"] is not None else points
        other = line["opponent_roster_id"]
        named = other is not None and other != recorder
        if named:  # every gang named has its row, counted or not (app: ledger.py `tally`)
            row_of(other)
        if line["voided_at"] is None and line["verdict"] != "disputed" and line["confirms_id"] is None:
            count(recorder, result, points or 0)
            if named:
                count(other, OPPOSITE[result], 0)
    own["xp"] = sum(
        sum(f.get("xp", 0) for f in line["fighters"] or [])
        for line in lines
        if line["voided_at"] is None
    )
    own["fighters_lost"], dead = lost(lines, document)
    own["lost_version"] = version if dead else None
    return list(table.values())


def lost(lines: Sequence[Mapping[str, Any]], document: Mapping[str, Any]) -> tuple[int, int]:
    """The figures dead after the lines, counted on the list as it is (ledger.py `losses`),
    and how many entries are dead."""
    entries = document.get("entries", [])
    where: dict[str, int] = {}
    for index, entry in enumerate(entries):
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            where.setdefault(entry["id"], index)
    past = max(len(entries), 1_000_000)  # an entry no longer in the list: a place past it
    states: dict[int, str] = {}
    recorded: dict[int, int] = {}
    for line in lines:
        for fighter in line["fighters"] or []:
            if fighter.get("id") is None:
                index = int(fighter["entry"])
            else:
                index = where.setdefault(str(fighter["id"]), past + len(where))
            if fighter.get("state") is not None:
                states[index] = fighter["state"]
            if isinstance(fighter.get("count"), int):
                recorded[index] = fighter["count"]
    sizes = [int(e.get("count", 1)) for e in entries]
    dead = [i for i, state in states.items() if state == "dead"]
    return sum(sizes[i] if i < len(sizes) else recorded.get(i, 1) for i in dead), len(dead)


def downgrade() -> None:
    with op.batch_alter_table("campaign_gang") as batch:
        batch.drop_column("version")
    op.drop_table("campaign_tally")
