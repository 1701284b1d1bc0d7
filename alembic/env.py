"""Alembic environment: Caserne's settings give the URL; PostgreSQL migrations take a lock
so that several app processes starting together apply them once."""

from logging.config import fileConfig

from sqlalchemy import Connection, Engine, text
from sqlmodel import SQLModel

from alembic import context
from app.db import make_engine
from app.settings import get_settings
from app.store import models  # noqa: F401  (registers the tables)

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata
MIGRATION_LOCK = 7_263_114_501  # pg_advisory_lock key, any constant


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
        context.run_migrations()


def run_migrations_online() -> None:
    given = config.attributes.get("connection")  # a Connection (our tests) or an Engine
    if isinstance(given, Connection):
        run_migrations(given)
        return
    if isinstance(given, Engine):
        with given.connect() as connection:
            run_migrations(connection)
            connection.commit()
        return
    url = config.attributes.get("url") or get_settings().database_url
    engine = make_engine(url)
    with engine.connect() as connection:
        run_migrations(connection)
    engine.dispose()


if context.is_offline_mode():
    context.configure(
        url=get_settings().database_url, target_metadata=target_metadata, literal_binds=True
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
