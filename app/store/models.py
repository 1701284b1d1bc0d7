"""The tables. Alembic owns the schema (alembic/versions); tests may create_all."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field, SQLModel

from app.dates import as_utc

__all__ = ["JsonDocument", "Roster", "Share", "as_utc", "utcnow"]

JsonDocument = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Roster(SQLModel, table=True):
    """A draft: readable and writable only with its edit token."""

    id: str = Field(primary_key=True, max_length=32)
    system: str = Field(max_length=32, index=True)
    name: str = Field(default="", max_length=100)
    document: dict[str, Any] = Field(sa_column=Column(JsonDocument, nullable=False))
    version: int = Field(default=1)
    token_hash: str = Field(max_length=64)
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
    updated_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False)
    )


class Share(SQLModel, table=True):
    """An immutable snapshot of a roster and its validation, behind a short public code."""

    code: str = Field(primary_key=True, max_length=16)
    roster_id: str | None = Field(default=None, max_length=32, index=True)
    system: str = Field(max_length=32)
    catalogue_version: str = Field(max_length=64)
    snapshot: dict[str, Any] = Field(sa_column=Column(JsonDocument, nullable=False))
    etag: str = Field(max_length=64)
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
