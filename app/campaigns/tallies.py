"""A campaign's standings kept by its writes (issue 29): what each gang's lines of a campaign
count — its results and points, the XP they gave, its fighters lost, and the opposite
results of the gangs they name — computed again from those lines inside the transaction of
every write that changes them (a line recorded, its verdict, its void, a list brought back),
after the campaign's row is taken (app/store/campaigns.py `bump`: two writers of one
campaign then run one after the other, and the second reads what the first wrote). The
standings add these rows (app/campaigns/views.py): what a view reads is bounded by the
number of gangs, not of battles.

A gang's fighters lost count the figures of its dead as its list has them now: a row names
the version of the list it counted them on (`lost_version`, when any fighter is dead), and
a view counts them again for a gang whose list changed since (views.py `standings`)."""

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from sqlmodel import Session

from app import hooks
from app.campaigns import ledger
from app.campaigns import states as fighters_of
from app.store import campaign_reads as reads
from app.store import tallies as store
from app.store.campaign_reads import LedgerRow
from app.store.models import Roster


class Result(NamedTuple):
    """A line of the campaign as the standings count it (ledger's `Outcome`), without its
    fighters: a plain tuple."""

    battle: int
    result: str
    points: int | None
    corrects: int | None
    opponent_roster: str | None
    counted: bool
    voided: bool


def result_of(row: LedgerRow) -> Result:
    voided = row.voided_at is not None
    counted = fighters_of.counts(row.verdict, voided, row.confirms_id)
    return Result(
        row.number, row.result, row.points, row.corrects, row.opponent_roster_id, counted, voided
    )


def xp_of(row: LedgerRow) -> int:
    """The XP a line gave (its fighters' together)."""
    return sum(int(f.get("xp", 0) or 0) for f in row.fighters)


def losses_of(rows: Sequence[LedgerRow], document: Mapping[str, Any]) -> ledger.Losses:
    """What the lines did to the fighters, counted on the list `document` as it is."""
    sizes = [int(e.get("count", 1)) for e in document.get("entries", [])]
    return ledger.losses(fighters_of.lines_of(rows, document), sizes)


def rows_of(
    recorder: str, rows: Sequence[LedgerRow], lost: int, lost_version: int | None
) -> list[dict[str, Any]]:
    """The tally rows of `recorder`'s lines `rows` of one campaign (none: no row)."""
    if not rows:
        return []
    counted = ledger.tally(recorder, [result_of(row) for row in rows])
    xp = sum(xp_of(row) for row in rows if row.voided_at is None)
    out = []
    for subject, standing in counted.items():
        own = subject == recorder
        out.append(
            {
                "subject_id": subject,
                "battles": standing.battles,
                "wins": standing.wins,
                "draws": standing.draws,
                "losses": standing.losses,
                "points": standing.points,
                "xp": xp if own else 0,
                "fighters_lost": lost if own else 0,
                "lost_version": lost_version if own else None,
            }
        )
    return out


def retally(
    session: Session,
    campaign_id: str,
    recorder_id: str,
    document: Mapping[str, Any] | None = None,
    version: int | None = None,
) -> None:
    """The recorder's tally of the campaign counted again from its lines, in the caller's
    transaction (after the campaign's row: `bump`). `document` and `version`: its list as
    the write leaves it (a line recorded, a list restored); without them (a verdict, a void:
    neither changes what the lines did to the fighters) its fighters lost stay counted."""
    rows = reads.campaign_lines(session=session, campaign_id=campaign_id, roster_ids=[recorder_id])
    if document is not None:
        done = losses_of(rows, document)
        lost, lost_version = done.fighters_lost, version if done.dead else None
    else:
        lost, lost_version = store.own(
            session=session, campaign_id=campaign_id, roster_id=recorder_id
        )
    store.replace(
        session=session,
        campaign_id=campaign_id,
        recorder_id=recorder_id,
        rows=rows_of(recorder_id, rows, lost, lost_version),
    )


def recorded(
    session: Session,
    campaign_id: str,
    before: Sequence[LedgerRow],
    line: LedgerRow,
    document: Mapping[str, Any],
    version: int,
) -> None:
    """A line just recorded (`line`, after the recorder's lines `before`, as read for it),
    in the recording's transaction. A battle of its own adds its counts to its recorder's
    tally and its opponent's line of it, without reading a line (nothing it adds to depends
    on another line's verdict or void: a line corrects no later one); its fighters lost are
    counted on all its lines' fighters, which never change. A correction changes another
    line's result: its recorder's lines are counted again (`retally`)."""
    if line.corrects is not None:
        retally(session, campaign_id, line.roster_id, document, version)
        return
    mine = [row for row in before if row.campaign_id == campaign_id]
    done = losses_of([*mine, line], document)
    rows = rows_of(line.roster_id, [line], done.fighters_lost, version if done.dead else None)
    store.add(session=session, campaign_id=campaign_id, recorder_id=line.roster_id, rows=rows)


def restored(session: Session, roster: Roster) -> None:
    """A list back from the trash (app/hooks.py `restored`): its tally of each campaign it is
    a gang of again, counted from its lines."""
    for campaign_id in store.campaigns_of(session=session, roster_id=roster.id):
        retally(session, campaign_id, roster.id, roster.document, roster.version)


def install() -> None:
    """At app start-up, the campaign feature's hooks (app/hooks.py): a gang's dead and
    retired leave every total, a gang back from the trash counts again."""
    fighters_of.install()
    hooks.register_restored(restored)
