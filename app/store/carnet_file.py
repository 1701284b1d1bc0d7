"""What a carnet's file reads and writes (app/carnet_file; docs/carnet-file.md): everything
a carnet holds, documents included, in a few queries; a restore's rows, added to the
caller's transaction (it commits once: a file comes in whole or not at all)."""

import secrets
from collections.abc import Iterable
from typing import Any, TypeVar

from sqlmodel import Session, col, select

from app.store.models import (
    Battle,
    Book,
    BookShare,
    Campaign,
    CampaignGang,
    CarnetCampaign,
    CarnetRoster,
    Roster,
    Share,
)
from app.store.rosters import hash_token, new_token

RowT = TypeVar("RowT", BookShare, Battle, Share)
HeldT = TypeVar("HeldT", Roster, Campaign)


def _held(session: Session, model: type[HeldT], link: Any, carnet_id: str) -> list[HeldT]:
    """The carnet's rows of `model`, oldest first (a file's order): those its link table
    names in `link` (CarnetRoster.roster_id, CarnetCampaign.campaign_id)."""
    query = (
        select(model)
        .join(link.class_, col(link) == col(model.id))
        .where(link.class_.carnet_id == carnet_id)
        .order_by(col(model.created_at), col(model.id))
    )
    return list(session.exec(query).all())


def held_rosters(*, session: Session, carnet_id: str) -> list[Roster]:
    """The carnet's lists, documents loaded, oldest first (a file's order)."""
    return _held(session, Roster, CarnetRoster.roster_id, carnet_id)


def held_books(*, session: Session, carnet_id: str) -> list[Book]:
    query = (
        select(Book).where(Book.carnet_id == carnet_id).order_by(col(Book.created_at), col(Book.id))
    )
    return list(session.exec(query).all())


def _among(
    session: Session, model: type[RowT], column: Any, ids: Iterable[str], *order: Any
) -> list[RowT]:
    """The rows of `model` whose `column` is one of `ids`, in `order` (no ids: no query)."""
    wanted = sorted(set(ids))
    if not wanted:
        return []
    query = select(model).where(col(column).in_(wanted))
    return list(session.exec(query.order_by(*order) if order else query).all())


def published(*, session: Session, book_ids: Iterable[str]) -> list[BookShare]:
    """The published versions of these books, oldest first."""
    order = (col(BookShare.book_id), col(BookShare.version), col(BookShare.created_at))
    return _among(session, BookShare, BookShare.book_id, book_ids, *order)


def ledgers(*, session: Session, roster_ids: Iterable[str]) -> list[Battle]:
    """The battle lines these lists recorded, by list then number."""
    order = (col(Battle.roster_id), col(Battle.number))
    return _among(session, Battle, Battle.roster_id, roster_ids, *order)


def campaigns_of(*, session: Session, carnet_id: str) -> list[Campaign]:
    """The campaigns the carnet organises, oldest first."""
    return _held(session, Campaign, CarnetCampaign.campaign_id, carnet_id)


def gangs_of(*, session: Session, campaign_ids: Iterable[str]) -> list[tuple[str, str]]:
    """(campaign, roster) of every gang of these campaigns, in joining order."""
    ids = sorted(set(campaign_ids))
    if not ids:
        return []
    query = (
        select(CampaignGang.campaign_id, CampaignGang.roster_id)
        .where(col(CampaignGang.campaign_id).in_(ids))
        .order_by(col(CampaignGang.joined_at), col(CampaignGang.roster_id))
    )
    return [(campaign, roster) for campaign, roster in session.exec(query).all()]


def shares(*, session: Session, codes: Iterable[str]) -> dict[str, Share]:
    return {share.code: share for share in _among(session, Share, Share.code, codes)}


def new_row(model: type[Any], **fields: Any) -> Any:
    """A new roster, book or campaign row with a fresh id (its secrets drawn and dropped:
    the carnet's key opens what the carnet holds)."""
    if model is Campaign:
        return Campaign(
            id=secrets.token_hex(12),
            token_hash=hash_token(new_token()),
            join_hash=hash_token(code := secrets.token_urlsafe(12)),
            join_code=code,
            **fields,
        )
    return model(id=secrets.token_hex(12), token_hash=hash_token(new_token()), **fields)
