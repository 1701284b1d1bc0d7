"""Reading and writing campaigns and ledgers. A battle line is inserted once and never
updated; recording one swaps the roster's version in the same transaction, so that of two
writers on one version exactly one wins (the other's transaction changes nothing)."""

import hmac
import secrets
from collections.abc import Iterable
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import func, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.store import no_row_has
from app.store.carnets import rows_changed
from app.store.history import Kept, keep
from app.store.models import (
    Battle,
    Campaign,
    CampaignGang,
    CarnetCampaign,
    Roster,
    Share,
    utcnow,
)
from app.store.rosters import Frozen, hash_token, new_share_code, new_token


class Lost(Exception):
    """Another writer got in first: nothing of this write is stored."""


# The gangs one campaign holds at most (a join past it is refused: CampaignFull).
CAMPAIGN_MAX_GANGS = 64


def create_campaign(
    *, session: Session, system: str, name: str, notes: str, carnet_id: str | None
) -> tuple[Campaign, str, str]:
    token, join = new_token(), secrets.token_urlsafe(12)
    campaign = Campaign(
        id=secrets.token_hex(12),
        system=system,
        name=name,
        notes=notes,
        token_hash=hash_token(token),
        join_hash=hash_token(join),
        join_code=join,
    )
    session.add(campaign)
    if carnet_id is not None:
        session.flush()
        session.add(CarnetCampaign(carnet_id=carnet_id, campaign_id=campaign.id))
    session.commit()
    session.refresh(campaign)
    return campaign, token, join


def get_campaign(*, session: Session, campaign_id: str) -> Campaign | None:
    return None if no_row_has(campaign_id) else session.get(Campaign, campaign_id[:64])


def join_matches(campaign: Campaign, code: str) -> bool:
    return hmac.compare_digest(campaign.join_hash, hash_token(code))


class Full(Exception):
    """The campaign holds its cap of gangs already: nothing joined."""


def bump(*, session: Session, campaign_id: str) -> None:
    """The campaign has changed in a way no gang's version shows (a join, a line recorded,
    its verdict, its void): its version goes up, in the caller's transaction. Every write
    that bumps takes the campaign's row before any battle row (PostgreSQL's row locks are
    then always taken in one order: roster, campaign, battle)."""
    session.execute(
        update(Campaign)
        .where(col(Campaign.id) == campaign_id)
        .values(version=col(Campaign.version) + 1)
    )


def join_capped(*, session: Session, campaign_id: str, roster_id: str, cap: int) -> None:
    """The roster joins unless the campaign holds `cap` gangs (Full; nothing stored);
    idempotent for a gang that joined already. One transaction that first writes the
    campaign's row (its version: `bump`): a concurrent join waits for it on both databases
    (PostgreSQL's row lock, SQLite's write lock), so it counts the gangs this one added and
    the cap holds under any number of concurrent joins (the count-then-insert it replaces
    let 20 concurrent joins take a 64-gang campaign to 68)."""
    session.commit()  # what this session read before is no snapshot of this write
    try:
        bump(session=session, campaign_id=campaign_id)
        if session.get(CampaignGang, (campaign_id, roster_id)) is None:
            if count_gangs(session=session, campaign_id=campaign_id) >= cap:
                raise Full(campaign_id)
            session.add(CampaignGang(campaign_id=campaign_id, roster_id=roster_id))
        session.commit()
    except BaseException:
        session.rollback()
        raise


def count_gangs(*, session: Session, campaign_id: str) -> int:
    query = (
        select(func.count())
        .select_from(CampaignGang)
        .where(CampaignGang.campaign_id == campaign_id)
    )
    return int(session.exec(query).one())


def gangs(*, session: Session, campaign_id: str) -> list[Roster]:
    query = (
        select(Roster)
        .join(CampaignGang, col(CampaignGang.roster_id) == col(Roster.id))
        .where(CampaignGang.campaign_id == campaign_id)
        .order_by(col(CampaignGang.joined_at), col(Roster.id))
    )
    return list(session.exec(query).all())


def is_gang(*, session: Session, campaign_id: str, roster_id: str) -> bool:
    if no_row_has(campaign_id, roster_id):
        return False
    return session.get(CampaignGang, (campaign_id, roster_id)) is not None


def carnet_campaigns(*, session: Session, carnet_id: str) -> list[Campaign]:
    query = (
        select(Campaign)
        .join(CarnetCampaign, col(CarnetCampaign.campaign_id) == col(Campaign.id))
        .where(CarnetCampaign.carnet_id == carnet_id)
        .order_by(col(Campaign.created_at).desc(), col(Campaign.id))
    )
    return list(session.exec(query).all())


def ledger(*, session: Session, roster_id: str) -> list[Battle]:
    query = select(Battle).where(Battle.roster_id == roster_id).order_by(col(Battle.number))
    return list(session.exec(query).all())


class Mirrored(NamedTuple):
    """What another gang's page shows of a line recorded against it (no fighters: they are
    the recorder's)."""

    id: int
    roster_id: str
    number: int
    campaign_id: str | None
    opponent_roster_id: str | None
    date: str
    opponent: str
    scenario: str
    result: str
    points: int | None
    notes: str
    corrects: int | None
    share_code: str
    created_at: Any
    verdict: str | None
    voided_at: Any


_MIRRORED = [getattr(Battle, name) for name in Mirrored._fields]


def mirrored(
    *, session: Session, roster_id: str, limit: int, until: datetime | None = None
) -> list[Mirrored]:
    """Lines other gangs recorded against this one, and the corrections of those lines
    (a correction names the opponent its line named), but those that record again a line
    of this gang (`confirms_id`): the latest `limit`, oldest first.
    One query of plain rows, whatever the recorders' own ledgers hold."""
    query = (
        select(*_MIRRORED)
        .where(Battle.opponent_roster_id == roster_id, Battle.roster_id != roster_id)
        # A line recording again a battle this gang recorded is this gang's own line.
        .where(col(Battle.confirms_id).is_(None))
        .order_by(col(Battle.created_at).desc(), col(Battle.id).desc())
        .limit(limit)
    )
    if until is not None:
        query = query.where(col(Battle.created_at) <= until)
    return [Mirrored(*row) for row in reversed(session.exec(query).all())]


def names(*, session: Session, roster_ids: Iterable[str]) -> dict[str, str]:
    """Roster id → name, in one query, without reading any document."""
    ids = sorted(set(roster_ids))
    if not ids:
        return {}
    query = select(Roster.id, Roster.name).where(col(Roster.id).in_(ids))
    return {roster_id: name for roster_id, name in session.exec(query).all()}


def opponents(*, session: Session, roster_id: str) -> list[tuple[Campaign, list[tuple[str, str]]]]:
    """The campaigns a roster joined (at most 50) and, for each, the other gangs' ids and
    names (the form's opponent list): two queries, no document read."""
    campaigns = campaigns_of(session=session, roster_id=roster_id)
    if not campaigns:
        return []
    query = (
        select(CampaignGang.campaign_id, Roster.id, Roster.name)
        .join(Roster, col(Roster.id) == col(CampaignGang.roster_id))
        .where(col(CampaignGang.campaign_id).in_([c.id for c in campaigns]))
        .where(CampaignGang.roster_id != roster_id)
        .order_by(col(CampaignGang.joined_at), col(Roster.id))
    )
    by: dict[str, list[tuple[str, str]]] = {c.id: [] for c in campaigns}
    for campaign_id, gang_id, name in session.exec(query).all():
        by[campaign_id].append((gang_id, name))
    return [(c, by[c.id]) for c in campaigns]


def line_by_share(*, session: Session, roster_id: str, code: str) -> Battle | None:
    """The roster's line whose share is `code` (each line pins one share of its recorder)."""
    query = select(Battle).where(Battle.roster_id == roster_id, Battle.share_code == code)
    return session.exec(query.limit(1)).first()


def line_of(*, session: Session, roster_id: str, number: int) -> Battle | None:
    if no_row_has(roster_id):
        return None
    query = select(Battle).where(Battle.roster_id == roster_id, Battle.number == number)
    return session.exec(query).first()


def lines_by_id(*, session: Session, ids: Iterable[int]) -> dict[int, Battle]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    query = select(Battle).where(col(Battle.id).in_(wanted))
    return {row.id or 0: row for row in session.exec(query).all()}


def unconfirmed_against(
    *, session: Session, recorder: str, opponent: str, campaign_id: str
) -> list[Battle]:
    """`recorder`'s lines of the campaign naming `opponent` that the opponent neither
    confirmed nor disputed and the organiser did not void, oldest first (at most 1,000:
    a ledger's own bound)."""
    query = (
        select(Battle)
        .where(
            Battle.roster_id == recorder,
            Battle.opponent_roster_id == opponent,
            Battle.campaign_id == campaign_id,
            col(Battle.corrects).is_(None),
            col(Battle.voided_at).is_(None),
            or_(col(Battle.verdict).is_(None), col(Battle.verdict) == "pending"),
        )
        .order_by(col(Battle.number))
        .limit(1000)
    )
    return list(session.exec(query).all())


def set_verdict(*, session: Session, line: Battle, verdict: str) -> None:
    """The named gang's verdict on a line (which names a campaign: its version goes up)."""
    if line.campaign_id is not None:
        bump(session=session, campaign_id=line.campaign_id)
    line.verdict = verdict
    session.add(line)
    session.commit()


def void(*, session: Session, line: Battle, voided: bool = True) -> None:
    """Voids a line (`voided` False: it counts again). Idempotent: a line voided once keeps
    its first date (and its campaign's version)."""
    if (line.voided_at is None) == voided:
        if line.campaign_id is not None:
            bump(session=session, campaign_id=line.campaign_id)
        line.voided_at = utcnow() if voided else None
        session.add(line)
        session.commit()


def new_join_code(*, session: Session, campaign: Campaign, expected_hash: str) -> str | None:
    """A new join code replaces the old one (that link stops working), compare-and-swap on
    the code the organiser's page showed: of two clicks, one changes it; None when the code
    had changed already."""
    join = secrets.token_urlsafe(12)
    swapped = session.execute(
        update(Campaign)
        .where(col(Campaign.id) == campaign.id, col(Campaign.join_hash) == expected_hash)
        .values(join_hash=hash_token(join), join_code=join)
    )
    session.commit()
    session.refresh(campaign)
    return join if rows_changed(swapped) == 1 else None


def recent_lines(
    *, session: Session, campaign_id: str, offset: int, limit: int
) -> tuple[list[Mirrored], int]:
    """A page of the campaign's battles, newest first (corrections and lines recording a
    battle again left out), and how many there are: two queries."""
    where = (
        Battle.campaign_id == campaign_id,
        col(Battle.corrects).is_(None),
        col(Battle.confirms_id).is_(None),
    )
    query = (
        select(*_MIRRORED)
        .where(*where)
        .order_by(col(Battle.created_at).desc(), col(Battle.id).desc())
        .offset(offset)
        .limit(limit)
    )
    total = session.exec(select(func.count()).select_from(Battle).where(*where)).one()
    return [Mirrored(*row) for row in session.exec(query).all()], int(total)


def token_matches(campaign: Campaign, token: str) -> bool:
    return hmac.compare_digest(campaign.token_hash, hash_token(token))


def is_organiser(*, session: Session, carnet_id: str, campaign_id: str) -> bool:
    return session.get(CarnetCampaign, (carnet_id, campaign_id)) is not None


def record(
    *,
    session: Session,
    roster: Roster,
    expected_version: int,
    document: dict[str, Any],
    card: dict[str, Any],
    battle: dict[str, Any],
    share: Frozen,
    confirms: Battle | None = None,
    history: Kept | None = None,
) -> tuple[Battle, Share]:
    """One transaction: the roster's version swapped, the share of the state after it and
    the battle line inserted, the new version kept (`history`). Lost when the version moved
    on or the number was taken."""
    code = new_share_code(session=session)
    stamp = utcnow()
    swapped = session.execute(
        update(Roster)
        .where(col(Roster.id) == roster.id, col(Roster.version) == expected_version)
        .values(
            name=document.get("name", ""),
            document=document,
            card=card,
            version=Roster.version + 1,
            updated_at=stamp,
        )
    )
    if rows_changed(swapped) != 1:
        session.rollback()
        raise Lost
    if battle.get("campaign_id") is not None:
        bump(session=session, campaign_id=battle["campaign_id"])
    if history is not None:
        keep(
            session=session,
            roster_id=roster.id,
            version=expected_version + 1,
            kept=history,
            stamp=stamp,
        )
    stored_share = Share(code=code, roster_id=roster.id, **share._asdict())
    line = Battle(roster_id=roster.id, share_code=code, **battle)
    session.add(stored_share)
    session.add(line)
    if confirms is not None:
        # The other gang's line of the same battle: confirmed by this one, in the same
        # transaction (both or neither).
        confirms.verdict = "confirmed"
        session.add(confirms)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise Lost from None
    session.refresh(line)
    session.refresh(roster)
    return line, stored_share


def listing(*, session: Session, carnet_id: str) -> list[dict[str, str]]:
    """A carnet's campaigns as its listing gives them (api-v1.md « Carnets »)."""
    campaigns = carnet_campaigns(session=session, carnet_id=carnet_id)
    return [{"id": c.id, "name": c.name, "system": c.system} for c in campaigns]


def campaigns_of(*, session: Session, roster_id: str) -> list[Campaign]:
    """The campaigns a roster joined, and (for the form's opponent list) nothing more."""
    query = (
        select(Campaign)
        .join(CampaignGang, col(CampaignGang.campaign_id) == col(Campaign.id))
        .where(CampaignGang.roster_id == roster_id)
        .order_by(col(Campaign.created_at).desc())
        .limit(50)
    )
    return list(session.exec(query).all())
