"""A club's standings and its gangs' public pages: computed in a bounded number of queries
whatever the campaign's history, and named by the version of what they show, so that the
edges answer them with an ETag (304 when unchanged) and remember them per version (issue
29; docs/campaigns.md « Views remembered per version »).

A view's version is a hash of what may change it. The standings': the campaign's own
`version` (a join, a line recorded, confirmed, disputed or voided: app/store/campaigns.py
`bump`), its gangs' versions (a line, a rename, any write to a gang) and each gang's latest
share (its page's link). A gang's page: its counters (app/store/tallies.py `touch`) and the
names of its campaigns' gangs. The edges add what the app draws it with (its code,
templates and catalogue)."""

import hashlib
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from sqlmodel import Session

from app.campaigns import ledger, tallies
from app.campaigns.models import CampaignOut
from app.store import campaign_reads as reads
from app.store import tallies as tally_store
from app.store.campaign_reads import GangPage, GangVersion, LedgerRow
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


def gang_page_version(found: GangPage, code: str) -> str:
    """The version of a gang's public page by its share `code` (any page of it): the share
    freezes the gang; what others recorded against it, its lines' verdicts and voids change
    its counter in each of its campaigns (`campaign_gang.version`, raised for the gangs a
    change names: a battle elsewhere in the campaign leaves it), and the names it shows are
    those of its campaigns' gangs (read with the gang: app/store/campaign_reads.py
    `gang_page`)."""
    return version_of([found.roster.id, code, *found.places])


V = TypeVar("V")


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
    """The table: each gang's line as the campaign's tallies keep it (one query, a few rows a
    gang whatever the number of battles: app/campaigns/tallies.py). A gang whose fighters
    lost were counted on another version of its list than this one (a dead fighter's
    figures, changed since) has them counted again, on its list and lines, as `known`
    remembers them per gang version (two queries, for those gangs only)."""
    kept = tally_store.kept(session=session, campaign_id=campaign.id)
    stale = [
        gang
        for gang in gangs
        if gang.id in kept and kept[gang.id].lost_version not in (None, gang.version)
    ]
    recounted: dict[str, ledger.Losses] = {}
    missing = []
    for gang in stale:
        found = known.get((campaign.id, gang.id, gang.version))
        if found is None:
            missing.append(gang)
        else:
            recounted[gang.id] = found
    if missing:
        recounted.update(losses(session, campaign, missing, known))
    table = []
    for gang in gangs:
        counts = kept.get(gang.id)
        kept_counts = counts.counts() if counts else {}
        line = ledger.Standing(roster=gang.id, name=gang.name, share=gang.share, **kept_counts)
        if gang.id in recounted:
            line.fighters_lost = recounted[gang.id].fighters_lost
        table.append(line)
    return ledger.ranked(table)


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
        done[gang.id] = tallies.losses_of(rows[gang.id], documents[gang.id])
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
