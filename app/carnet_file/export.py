"""« Télécharger mon carnet » (docs/carnet-file.md): everything a carnet holds as one
CarnetFile — its lists, its army books and their published versions, the ledgers of its
gangs, the campaigns it organises — read in a few queries."""

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from sqlmodel import Session

from app.carnet_file.models import FORMAT, FORMAT_VERSION, LINE_FIELDS, CarnetFile
from app.dates import as_utc
from app.roster_service import RosterError
from app.store import campaigns as campaign_store
from app.store import carnet_file as store
from app.store.models import Battle, BookShare, Carnet, utcnow
from app.systems.base import AnySystem


class FileTooLarge(RosterError):
    """The carnet holds more than one file may (models.py's bounds)."""


def _published(share: BookShare) -> dict[str, Any]:
    snapshot = share.snapshot
    return {
        "code": share.code,
        "version": share.version,
        "created_at": as_utc(share.created_at),
        "name": snapshot.get("name", ""),
        "army": snapshot.get("army", ""),
        "description": snapshot.get("description", ""),
        "units": snapshot.get("units", []),
    }


def _line(
    row: Battle,
    index: Mapping[str, int],
    campaigns: Mapping[str, int],
    same: Mapping[int, Battle],
) -> dict[str, Any]:
    """A ledger line as the file says it: other lists and campaigns by their index in the
    file (null when the file does not hold them)."""
    campaign = campaigns.get(row.campaign_id or "")
    opponent = index.get(row.opponent_roster_id or "") if campaign is not None else None
    other = same.get(row.confirms_id) if row.confirms_id is not None else None
    same_as = None
    if other is not None and other.roster_id in index:
        same_as = {"roster": index[other.roster_id], "battle": other.number}
    return {
        "battle": row.number,
        **{name: getattr(row, name) for name in LINE_FIELDS},
        "campaign": campaign,
        "opponent_roster": opponent,
        "voided_at": as_utc(row.voided_at) if row.voided_at is not None else None,
        "same_as": same_as,
        "share": row.share_code,
        "recorded_at": as_utc(row.created_at),
    }


def _books(
    session: Session, systems: Mapping[str, AnySystem], carnet: Carnet
) -> list[dict[str, Any]]:
    """The carnet's army books, each with its published versions."""
    books = [b for b in store.held_books(session=session, carnet_id=carnet.id)]
    books = [b for b in books if b.system in systems]
    versions: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for share in store.published(session=session, book_ids=[b.id for b in books]):
        versions[share.book_id].append(_published(share))
    return [
        {
            "name": book.name,
            "system": book.system,
            "document": book.document,
            "created_at": as_utc(book.created_at),
            "updated_at": as_utc(book.updated_at),
            "published": versions[book.id],
        }
        for book in books
    ]


def export_carnet(session: Session, systems: Mapping[str, AnySystem], carnet: Carnet) -> CarnetFile:
    """The carnet as one file (lists and books of systems this app serves). FileTooLarge
    past a file's bounds."""
    rosters = [r for r in store.held_rosters(session=session, carnet_id=carnet.id)]
    rosters = [r for r in rosters if r.system in systems]
    index = {roster.id: i for i, roster in enumerate(rosters)}
    campaigns = [c for c in store.campaigns_of(session=session, carnet_id=carnet.id)]
    campaigns = [c for c in campaigns if c.system in systems]
    campaign_index = {campaign.id: i for i, campaign in enumerate(campaigns)}
    gangs: dict[str, list[int]] = defaultdict(list)
    for campaign_id, roster_id in store.gangs_of(session=session, campaign_ids=campaign_index):
        if roster_id in index:
            gangs[campaign_id].append(index[roster_id])
    lines = store.ledgers(session=session, roster_ids=index)
    same = campaign_store.lines_by_id(
        session=session, ids=[row.confirms_id for row in lines if row.confirms_id is not None]
    )
    ledgers: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in lines:
        ledgers[row.roster_id].append(_line(row, index, campaign_index, same))
    content = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": utcnow(),
        "rosters": [
            {
                "name": roster.name,
                "system": roster.system,
                "document": roster.document,
                "created_at": as_utc(roster.created_at),
                "updated_at": as_utc(roster.updated_at),
            }
            for roster in rosters
        ],
        "books": _books(session, systems, carnet),
        "gangs": [
            {"roster": index[roster.id], "battles": ledgers[roster.id]}
            for roster in rosters
            if ledgers[roster.id]
        ],
        "campaigns": [
            {
                "name": campaign.name,
                "system": campaign.system,
                "notes": campaign.notes,
                "created_at": as_utc(campaign.created_at),
                "gangs": gangs[campaign.id],
            }
            for campaign in campaigns
        ],
    }
    try:
        return CarnetFile.model_validate(content)
    except ValidationError as error:
        raise FileTooLarge(str(error.errors()[0]["msg"])) from None
