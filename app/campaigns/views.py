"""A club's standings and its gangs' public pages: computed in a bounded number of queries
whatever the campaign's history, and named by the version of what they show, so that the
edges answer them with an ETag (304 when unchanged) and remember them per version (issue
29; docs/campaigns.md « Views remembered per version »).

A view's version is a hash of what may change it: the campaign's own `version` (a join, a
line recorded, confirmed, disputed or voided: app/store/campaigns.py `bump`), its gangs'
versions (a line, a rename, any write to a gang) and, for the standings, each gang's latest
share (its page's link). The edges add what the app draws it with (its code, templates and
catalogue)."""

import hashlib
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from sqlmodel import Session

from app.campaigns import ledger
from app.campaigns import states as fighters_of
from app.campaigns.models import CampaignOut
from app.store import campaign_reads as reads
from app.store.campaign_reads import GangVersion, LedgerRow
from app.store.models import Campaign


def version_of(parts: Iterable[object]) -> str:
    """A short hash of `parts`, one a line."""
    text = "\n".join(str(part) for part in parts)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def standings_version(session: Session, campaign: Campaign) -> tuple[str, list[GangVersion]]:
    """The standings' version, and the gangs it was read from (one query)."""
    gangs = reads.gang_versions(session=session, campaign_id=campaign.id)
    parts = [campaign.id, campaign.version, campaign.name, campaign.notes, *gangs]
    return version_of(parts), gangs


def gang_page_version(session: Session, roster_id: str, code: str) -> str:
    """The version of a gang's public page by its share `code` (any page of it): the share
    freezes the gang; what others recorded against it, the verdicts and voids, and the
    names of the gangs it shows change with its campaigns' versions (one query)."""
    return version_of([roster_id, code, *reads.page_versions(session=session, roster_id=roster_id)])


V = TypeVar("V")


class Result(NamedTuple):
    """A line of the campaign as the standings count it (ledger's `Outcome`), without its
    fighters: a plain tuple (a Line of each of 2,000 lines took 5 ms)."""

    battle: int
    result: str
    points: int | None
    corrects: int | None
    opponent_roster: str | None
    counted: bool
    voided: bool


class Remembers(Protocol[V]):
    """Where computed things are kept by version (app/http_cache.py `Memo`, `Entries`)."""

    def get(self, key: Hashable) -> V | None: ...
    def put(self, key: Hashable, value: V) -> None: ...


def remembered_view(
    session: Session, campaign: Campaign, views: Remembers[str], known: Remembers[ledger.Losses]
) -> tuple[str, str]:
    """The version of the campaign's view and get_campaign's body (CampaignOut, as JSON
    text): remembered by `views` for that version, or computed (then remembered)."""
    version, gangs = standings_version(session, campaign)
    body = views.get(version)
    if body is None:
        data = view(campaign, standings(session, campaign, gangs, known))
        body = CampaignOut.model_validate(data).model_dump_json()
        views.put(version, body)
    return version, body


def standings(
    session: Session,
    campaign: Campaign,
    gangs: Sequence[GangVersion],
    known: Remembers[ledger.Losses],
) -> list[ledger.Standing]:
    """The table (app/campaigns/ledger.py): every line's result, verdict and void read
    again (one query of plain columns), and what each gang's lines did to its fighters as
    `known` remembers it for the gang's version (a line's fighters never change, and a new
    line or a changed list is a new version): read, with the gang's list, for the gangs
    whose version it does not know (two queries)."""
    done: dict[str, ledger.Losses] = {}
    missing = []
    for gang in gangs:
        found = known.get((campaign.id, gang.id, gang.version))
        if found is None:
            missing.append(gang)
        else:
            done[gang.id] = found
    if missing:
        done.update(losses(session, campaign, missing, known))
    ledgers: dict[str, list[Result]] = {}
    for row in reads.campaign_results(session=session, campaign_id=campaign.id):
        counted = fighters_of.counts(row.verdict, bool(row.voided), row.confirms_id)
        ledgers.setdefault(row.roster_id, []).append(
            Result(
                row.number,
                row.result,
                row.points,
                row.corrects,
                row.opponent_roster_id,
                counted,
                bool(row.voided),
            )
        )
    table = [(gang.id, gang.name, gang.share) for gang in gangs if gang.id in done]
    return ledger.table_of(table, ledgers, done)


def losses(
    session: Session,
    campaign: Campaign,
    gangs: Sequence[GangVersion],
    known: Remembers[ledger.Losses],
) -> dict[str, ledger.Losses]:
    """What these gangs' lines of the campaign did to their fighters (their lists and lines
    read, two queries), remembered per gang version."""
    documents = reads.gang_documents(session=session, ids=[gang.id for gang in gangs])
    rows: dict[str, list[LedgerRow]] = {gang_id: [] for gang_id in documents}
    for row in reads.campaign_lines(session=session, campaign_id=campaign.id, roster_ids=rows):
        rows[row.roster_id].append(row)
    done = {}
    for gang in gangs:
        if gang.id not in documents:  # deleted since its version was read
            continue
        document = documents[gang.id]
        sizes = [int(e.get("count", 1)) for e in document.get("entries", [])]
        done[gang.id] = ledger.losses(fighters_of.lines_of(rows[gang.id], document), sizes)
        known.put((campaign.id, gang.id, gang.version), done[gang.id])
    return done


def view(campaign: Campaign, table: Sequence[ledger.Standing]) -> dict[str, Any]:
    """get_campaign's body (CampaignOut)."""
    return {
        "id": campaign.id,
        "name": campaign.name,
        "system": campaign.system,
        "notes": campaign.notes,
        "gangs": [
            {
                "roster": s.roster,
                "name": s.name,
                "share": s.share,
                "battles": s.battles,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "points": s.points,
                "xp": s.xp,
                "fighters_lost": s.fighters_lost,
            }
            for s in table
        ],
    }
