"""Stored rosters and shares: SQLModel tables and the few functions that read and write them."""

from sqlalchemy import Table, inspect
from sqlalchemy.orm import QueryableAttribute, defer
from sqlalchemy.sql.base import ExecutableOption
from sqlmodel import SQLModel


def no_row_has(*keys: str) -> bool:
    """Whether a key sent by a client can name no row: one holding U+0000, which PostgreSQL
    cannot even compare (the query fails: a 500), and which no key Caserne makes holds. The
    getters answer None for it, on SQLite as on PostgreSQL."""
    return any("\x00" in key for key in keys)


def deferred(column: object) -> ExecutableOption:
    """`defer(column)`, for `.options(...)`: the column is read only when used. SQLModel
    types a model's column attribute as its value (`Roster.document: dict`), which `defer`
    refuses; at run time it is SQLAlchemy's instrumented attribute, checked here."""
    assert isinstance(column, QueryableAttribute)
    return defer(column)


def table_of(model: type[SQLModel]) -> Table:
    """A table model's `Table` (its `__table__`, which SQLModel's types do not declare)."""
    table = inspect(model).local_table
    assert isinstance(table, Table)
    return table
