"""The database engines (the primary, and an optional read database for the public reads)
and the primary's session dependency; the read sessions' is app/deps.py's ReadSessionDep."""

import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractContextManager, asynccontextmanager
from contextvars import ContextVar
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import Depends, Request
from sqlalchemy import Engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

T = TypeVar("T")

# The bytes of JSON documents the current request had the database store (rosters, shares,
# books, ledgers; a snapshot as its compressed bytes, count_bytes): the rate limits charge
# them to the client (app/security/ratelimit.py).
# A list set per request by the middleware; the thread pool runs the route in a copy of
# its context, so the route's writes land in the same list.
WRITTEN: ContextVar[list[int] | None] = ContextVar("caserne_written", default=None)


def count_written(text: str) -> str:
    """`text`, a JSON document about to be stored, counted into the current request's
    WRITTEN (for a statement given JSON text rather than the value to serialize)."""
    counted = WRITTEN.get()
    if counted is not None:
        counted.append(len(text))
    return text


def count_bytes(data: bytes) -> bytes:
    """`data`, bytes about to be stored (a compressed snapshot, app/store/compressed.py),
    counted into the current request's WRITTEN as they weigh."""
    counted = WRITTEN.get()
    if counted is not None:
        counted.append(len(data))
    return data


def written_json(value: Any) -> str:
    """json.dumps (the serializer SQLAlchemy and psycopg use by default), counting the
    text's length into the current request's WRITTEN."""
    return count_written(json.dumps(value))


def make_engine(
    url: str, *, pool_size: int = 10, max_overflow: int = 10, prepare_threshold: int = 5
) -> Engine:
    """Engine for SQLite (embedded default) or PostgreSQL (scale-out), one code path.
    `pool_size` and `max_overflow` size PostgreSQL's pool (settings DATABASE_POOL_SIZE and
    DATABASE_MAX_OVERFLOW), `prepare_threshold` psycopg's (0: never prepare, for PgBouncer in
    transaction mode); SQLite keeps one connection per thread of the pool."""
    if url.startswith("sqlite"):
        in_memory = url in ("sqlite://", "sqlite:///:memory:")
        options: dict[str, Any] = {
            "connect_args": {"check_same_thread": False},
            "json_serializer": written_json,
        }
        if in_memory:
            options["poolclass"] = StaticPool
        else:
            # As many connections as the thread pool has threads (anyio's default, 40): a
            # smaller pool keeps opening and closing SQLite connections under load.
            options.update(pool_size=40, max_overflow=0)
        engine = create_engine(url, **options)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if not in_memory:
                cursor.execute("PRAGMA journal_mode=WAL")
                # SQLite's advice for WAL: a commit no longer waits for the disk (the WAL is
                # synced at checkpoints); the database stays consistent on a crash, and only
                # a power cut can lose the last commits (issue 19: a save's wall time).
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=pool_size,
        max_overflow=max_overflow,
        json_serializer=written_json,
        connect_args={"prepare_threshold": prepare_threshold or None},
    )


def shown_url(url: str) -> str:
    """A database URL as it may be printed: without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL: say so rather than fail again
        return url


def unreachable(url: str, error: BaseException) -> str:
    """One line saying which database could not be reached and why (a start-up error)."""
    shown = shown_url(url)
    reason = str(getattr(error, "orig", None) or error)
    reason = reason.rsplit(" failed: ", 1)[-1].removeprefix("FATAL:")
    reason = " ".join(reason.split()) or type(error).__name__
    return f"caserne: cannot open the database {shown}: {reason} (check DATABASE_URL)"


SessionFactory = Callable[[], AbstractContextManager[Session]]

# A read session's `info` key for the request's primary session (app/deps.py): the one its
# writes go to, and the one asked for a row the read database has not seen yet.
PRIMARY = "caserne_primary"


def session_factory(engine: Engine) -> SessionFactory:
    """How the app opens a session (tests swap in one that rolls back at the end)."""
    return lambda: Session(engine)


def primary_of(session: Session) -> Session:
    """The session writes go to: `session` itself, or the primary of a read session."""
    primary: Session = session.info.get(PRIMARY, session)
    return primary


def on_primary(session: Session, find: Callable[[Session], T | None]) -> T | None:
    """`find` asked of the primary when `session` reads from the read database (None when
    it is the primary itself): for a row made a moment ago that a replica has not caught up
    with, such as a share an API client reads right after making it (README « PostgreSQL
    and several processes »). Only for rows that never change once made."""
    primary = session.info.get(PRIMARY)
    return None if primary is None else find(primary)


async def close(
    manager: AbstractContextManager[Session], session: Session, error: BaseException | None
) -> None:
    """Closes a request's session (`manager`'s): in the thread pool when a transaction is
    still open or the request failed (closing hands its connection back, with a ROLLBACK),
    shielded from the request's cancellation so that it is always closed; on the loop when
    none is open (nothing to hand back: no trip to the thread pool)."""
    if error is None and not session.in_transaction():
        manager.__exit__(None, None, None)
        return
    with anyio.CancelScope(shield=True):
        await anyio.to_thread.run_sync(
            manager.__exit__,
            None if error is None else type(error),
            error,
            None if error is None else error.__traceback__,
        )


@asynccontextmanager
async def opened(manager: AbstractContextManager[Session]) -> AsyncIterator[Session]:
    """A request's session, `manager`'s: opened on the event loop (a session does no I/O
    before its first query), closed by `close`, the request's error (if any) passed on. A
    plain generator would cost two trips to the thread pool and back (issue 19)."""
    session = manager.__enter__()
    try:
        yield session
    except BaseException as error:
        await close(manager, session, error)
        raise
    await close(manager, session, None)


async def get_session(request: Request) -> AsyncIterator[Session]:
    """The request's session on the primary database (DATABASE_URL): every write, and every
    read that must see the writes (the public reads' is app/deps.py's ReadSessionDep)."""
    async with opened(request.app.state.session_factory()) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]
