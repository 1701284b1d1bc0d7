"""The tables. Alembic owns the schema (alembic/versions); tests may create_all."""

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field, SQLModel

from app.dates import as_utc
from app.store.compressed import CompressedJson

__all__ = [
    "Battle",
    "Book",
    "BookShare",
    "Campaign",
    "CampaignGang",
    "Carnet",
    "CarnetCampaign",
    "CarnetRoster",
    "DeletedItem",
    "HeldDocument",
    "JsonDocument",
    "RetiredKey",
    "Roster",
    "RosterVersion",
    "Share",
    "ShareGone",
    "as_utc",
    "utcnow",
]

JsonDocument = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


def stamped() -> Any:
    """A moment column (timezone-aware, required), now by default: a fresh Column each call."""
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


def json_document() -> Any:
    """A required JSON document column (JsonDocument: JSONB on PostgreSQL)."""
    return Field(sa_column=Column(JsonDocument, nullable=False))


class HeldDocument(SQLModel):
    """The columns of a document held by an edit token (a roster, a book): its system, its
    name, the document, the version a writer must name, the token's hash."""

    id: str = Field(primary_key=True, max_length=32)
    system: str = Field(max_length=32, index=True)
    name: str = Field(default="", max_length=100)
    # sa_type rather than a Column: each table that derives from this one gets its own.
    document: dict[str, Any] = Field(sa_type=JsonDocument, nullable=False)
    version: int = Field(default=1)
    token_hash: str = Field(max_length=64)


class Roster(HeldDocument, table=True):
    """A draft: readable and writable only with its edit token."""

    created_at: datetime = stamped()
    updated_at: datetime = stamped()
    # What « Mes listes » shows of the list (budgets, totals, validity), computed at each
    # save with the catalogue version it was computed with: a library view reads it and
    # never validates a list (app/carnet_service.py, card()).
    card: dict[str, Any] | None = Field(default=None, sa_column=Column(JsonDocument, nullable=True))


class RosterVersion(SQLModel, table=True):
    """One kept save of a list (docs/history.md, revision 0010): the document as that save
    left it (compressed like a share's snapshot), its total, what changed in a player's
    words. `version` is the roster's version that save made; a list's versions are kept
    within its last HISTORY_SAVES saves, count changes made in a row merged into one
    (`counts`), and `caserne prune` removes the old ones."""

    __tablename__ = "roster_version"

    # No foreign key (as `share`): a list in the trash (`deleted_item`) comes back with its
    # versions; `caserne prune` removes those of a list neither here nor there.
    roster_id: str = Field(sa_column=Column(String(32), primary_key=True))
    version: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    saved_at: datetime = stamped()
    document: dict[str, Any] = Field(sa_column=Column(CompressedJson, nullable=False))
    # The list's points total (null: a system without points, or a list no longer valid).
    points: int | None = Field(default=None)
    summary: list[str] = json_document()
    # A save that changed counts only: each changed entry's (label, before, after), keyed
    # by its place, so that the next count change within a few minutes merges into it.
    counts: dict[str, Any] | None = Field(
        default=None, sa_column=Column(JsonDocument, nullable=True)
    )
    # Where the save came from: "page", "api", "campaign", "file", "upgrade".
    origin: str = Field(default="page", max_length=16)


class Carnet(SQLModel, table=True):
    """A player's library: owns their lists (and, next, army books and campaigns). Its key
    (256 random bits) is shown once, to the browser's cookie or an API client; only its
    hash is stored."""

    id: str = Field(primary_key=True, max_length=32)
    key_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = stamped()
    key_changed_at: datetime = stamped()


class RetiredKey(SQLModel, table=True):
    """The hash of a key a carnet had before its last rotations (the store keeps its newest
    few: app/store/carnets.py): such a key opens nothing, and is told from a wrong one
    (`carnet_key_rotated`, docs/api-codes.md)."""

    __tablename__ = "retired_key"

    key_hash: str = Field(primary_key=True, max_length=64)
    carnet_id: str = Field(
        sa_column=Column(
            String(32), ForeignKey("carnet.id", ondelete="CASCADE"), nullable=False, index=True
        )
    )
    retired_at: datetime = stamped()


class CarnetRoster(SQLModel, table=True):
    """What a carnet holds: a roster today (`kind` "roster"); army books and campaigns will
    be other kinds of the same link. A roster may be in several carnets (opened with its
    edit link elsewhere); deleting either side deletes the link."""

    __tablename__ = "carnet_roster"

    carnet_id: str = Field(
        sa_column=Column(String(32), ForeignKey("carnet.id", ondelete="CASCADE"), primary_key=True)
    )
    roster_id: str = Field(
        sa_column=Column(
            String(32), ForeignKey("roster.id", ondelete="CASCADE"), primary_key=True, index=True
        )
    )
    kind: str = Field(default="roster", max_length=16)
    added_at: datetime = stamped()


class Share(SQLModel, table=True):
    """An immutable snapshot of a roster and its validation, behind a short public code."""

    # A list's newest share (every editor view, every count save) and its share of one exact
    # snapshot are index lookups, whatever the number of its shares (a gang gets one per
    # battle): revision 0007.
    __table_args__ = (
        Index("ix_share_roster_id_created_at", "roster_id", "created_at"),
        Index("ix_share_roster_id_etag", "roster_id", "etag"),
    )

    code: str = Field(primary_key=True, max_length=16)
    roster_id: str | None = Field(default=None, max_length=32)
    system: str = Field(max_length=32)
    catalogue_version: str = Field(max_length=64)
    # Compressed (zlib of the compact JSON, app/store/compressed.py): revision 0008.
    snapshot: dict[str, Any] = Field(sa_column=Column(CompressedJson, nullable=False))
    etag: str = Field(max_length=64)
    created_at: datetime = stamped()
    # The last day (UTC) its page, an export or the API showed it, written at most once a
    # day (app/store/retention.py); null: not viewed since it was made (or since 0008,
    # which set the day of the upgrade on every share it found). `caserne prune` reads it.
    last_viewed: date | None = Field(default=None, sa_column=Column(Date, nullable=True))


class ShareGone(SQLModel, table=True):
    """The code of a share `caserne prune` removed: its page answers 410 rather than 404,
    and the code is never drawn again for another share."""

    __tablename__ = "share_gone"

    code: str = Field(primary_key=True, max_length=16)
    gone_at: datetime = stamped()


class Book(HeldDocument, table=True):
    """An army book (a player's own units of one system): a draft like a roster, readable
    and writable with its edit token (or the key of the carnet that owns it). A book has
    one owning carnet at most (`carnet_id`, its own column rather than a kind of
    carnet_roster, whose link points at roster rows)."""

    carnet_id: str | None = Field(
        default=None,
        sa_column=Column(
            String(32), ForeignKey("carnet.id", ondelete="SET NULL"), nullable=True, index=True
        ),
    )
    created_at: datetime = stamped()
    updated_at: datetime = stamped()


class BookShare(SQLModel, table=True):
    """A published version of a book: immutable, behind a short public code. It outlives
    its book (no foreign key: deleting a book keeps what was published)."""

    __tablename__ = "book_share"
    # A book's newest version: an index lookup (revision 0007).
    __table_args__ = (Index("ix_book_share_book_id_created_at", "book_id", "created_at"),)

    code: str = Field(primary_key=True, max_length=16)
    book_id: str = Field(max_length=32)
    version: int
    system: str = Field(max_length=32)
    snapshot: dict[str, Any] = Field(sa_column=Column(CompressedJson, nullable=False))
    etag: str = Field(max_length=64)
    created_at: datetime = stamped()


class Campaign(SQLModel, table=True):
    """A club's campaign of one system (api-v1.md « Campaigns »): the organiser keeps its
    edit token, players join with its join code; both are stored as hashes only."""

    id: str = Field(primary_key=True, max_length=32)
    system: str = Field(max_length=32)
    name: str = Field(max_length=100)
    notes: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    token_hash: str = Field(max_length=64)
    join_hash: str = Field(max_length=64)
    # The join code itself, for the organiser's page (it only lets a list join; the
    # organiser's token stays hashed). Null for a campaign made before revision 0006.
    join_code: str | None = Field(default=None, max_length=64)
    created_at: datetime = stamped()
    # Counts the changes no gang's version shows: a gang joined, a line of the campaign
    # recorded, confirmed, disputed or voided (revision 0011). With its gangs' versions and
    # latest shares, it names a version of the standings and of its gangs' public pages
    # (app/campaigns/views.py).
    version: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


class CampaignGang(SQLModel, table=True):
    """A roster that joined a campaign."""

    __tablename__ = "campaign_gang"

    campaign_id: str = Field(
        sa_column=Column(
            String(32), ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True
        )
    )
    roster_id: str = Field(
        sa_column=Column(
            String(32), ForeignKey("roster.id", ondelete="CASCADE"), primary_key=True, index=True
        )
    )
    joined_at: datetime = stamped()
    # Counts the changes of what this gang's public page shows that its own version does not
    # (revision 0013): a line naming it recorded, confirmed, disputed, voided or brought back.
    # With its campaigns' gangs' names it names a version of that page (app/campaigns/views.py):
    # a battle changes the pages of the two gangs it names, not every page of the campaign.
    version: int = Field(default=1, sa_column_kwargs={"server_default": "1"})


class Counts(SQLModel):
    """What a gang's lines count in a campaign's standings: defined once for the tally rows
    (CampaignTally), what the standings add of them (app/store/tallies.py `Kept`) and a
    gang's line of the table (app/campaigns/ledger.py `Standing`)."""

    battles: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    xp: int = 0
    fighters_lost: int = 0

    def counts(self) -> dict[str, int]:
        """The counts by name, in their order."""
        return {name: getattr(self, name) for name in Counts.model_fields}


class CampaignTally(Counts, table=True):
    """What one gang's lines of a campaign count in its standings (revision 0013), kept by
    every write of those lines in its own transaction (app/campaigns/tallies.py): for the gang
    itself (`subject_id` = `recorder_id`: its results, points, the XP its lines gave, its
    fighters lost) and for each gang they name (the opposite results). The standings add the
    rows of the campaign's gangs: a few rows a gang, whatever the number of battles (issue 29).
    `lost_version`: the gang's version its fighters lost were counted against, when they
    depend on its list (a dead fighter's figures); null when they do not."""

    __tablename__ = "campaign_tally"

    campaign_id: str = Field(
        sa_column=Column(
            String(32), ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True
        )
    )
    recorder_id: str = Field(
        sa_column=Column(String(32), ForeignKey("roster.id", ondelete="CASCADE"), primary_key=True)
    )
    subject_id: str = Field(sa_column=Column(String(32), primary_key=True))
    lost_version: int | None = None


class CarnetCampaign(SQLModel, table=True):
    """A campaign a carnet holds (its organiser's)."""

    __tablename__ = "carnet_campaign"

    carnet_id: str = Field(
        sa_column=Column(String(32), ForeignKey("carnet.id", ondelete="CASCADE"), primary_key=True)
    )
    campaign_id: str = Field(
        sa_column=Column(
            String(32), ForeignKey("campaign.id", ondelete="CASCADE"), primary_key=True
        )
    )
    added_at: datetime = stamped()


class Battle(SQLModel, table=True):
    """One line of a roster's ledger: written once, never changed (a correction is a new
    line naming the one it corrects). `number` counts from 1 per roster; the unique pair
    (roster, number) is what makes two writers' lines never merge into one."""

    __table_args__ = (UniqueConstraint("roster_id", "number", name="uq_battle_roster_number"),)

    id: int | None = Field(default=None, primary_key=True)
    roster_id: str = Field(
        sa_column=Column(
            String(32), ForeignKey("roster.id", ondelete="CASCADE"), nullable=False, index=True
        )
    )
    number: int
    campaign_id: str | None = Field(default=None, max_length=32, index=True)
    opponent_roster_id: str | None = Field(default=None, max_length=32, index=True)
    date: str = Field(max_length=10)
    opponent: str = Field(default="", max_length=100)
    scenario: str = Field(default="", max_length=100)
    result: str = Field(max_length=8)
    points: int | None = Field(default=None)
    score: dict[str, Any] | None = Field(
        default=None, sa_column=Column(JsonDocument, nullable=True)
    )
    notes: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    fighters: list[Any] = json_document()
    recruits: list[Any] = json_document()
    corrects: int | None = Field(default=None)
    # Indexed (revision 0008): `caserne prune` asks of every share whether a line names it.
    share_code: str = Field(max_length=16, index=True)
    # A line naming another gang of its campaign: "pending" (null before revision 0006,
    # read alike), "confirmed" or "disputed" by that gang; `voided_at` when the organiser
    # voided it; `confirms_id` the other gang's line this line is the same battle as.
    # These three change after the line is written; nothing else of it does.
    verdict: str | None = Field(default=None, max_length=16)
    voided_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    confirms_id: int | None = Field(default=None)
    created_at: datetime = stamped()


class DeletedItem(SQLModel, table=True):
    """Something a player deleted from the pages, kept so that « Annuler » (or « Listes
    supprimées », a book's « Unités retirées ») brings it back whole, under the carnet that
    deleted it: a list (`kind` "roster", `id` its id: its row, the carnets and campaigns that
    held it and its ledger's lines), an army book ("book", its id: its row) or a book's unit
    ("unit", an id of its own, `parent_id` the book: the unit and its place). What is kept is
    in `rows`, compressed. `caserne prune` removes those older than its trash days
    (app/store/trash.py, docs/retention.md)."""

    __tablename__ = "deleted_item"

    id: str = Field(primary_key=True, max_length=32)
    kind: str = Field(max_length=16)
    parent_id: str | None = Field(default=None, max_length=32, index=True)
    carnet_id: str | None = Field(
        default=None,
        sa_column=Column(
            String(32), ForeignKey("carnet.id", ondelete="CASCADE"), nullable=True, index=True
        ),
    )
    system: str = Field(max_length=32)
    name: str = Field(default="", max_length=100)
    deleted_at: datetime = Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, index=True),
    )
    rows: dict[str, Any] = Field(sa_column=Column(CompressedJson, nullable=False))
