"""`caserne migrate` applies pending migrations; `caserne serve` does that, then serves;
`caserne prune` does that, then reports (or, with --apply, removes) the shares the retention
policy lets go (docs/retention.md) and the old versions of lists (docs/history.md)."""

import argparse
import os
import sys

from alembic.config import Config
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from alembic import command
from app.db import shown_url, unreachable
from app.settings import ROOT, get_settings
from app.store.history import DEFAULT_HISTORY_DAYS
from app.store.retention import DEFAULT_DAYS


class UnversionedDatabase(Exception):
    """Caserne's tables are there but alembic_version is not: migrating would fail on
    "table already exists", and guessing the revision could lose rows."""


def unversioned(url: str) -> str:
    return (
        f"caserne: the database {shown_url(url)} holds Caserne's tables but no "
        "alembic_version table (made without `caserne migrate`?): nothing was changed. "
        "Back it up, then mark the revision its tables match with `alembic stamp "
        "<revision>` (`alembic stamp head` if this version's models made them) and run "
        "`caserne migrate` again."
    )


def model_tables() -> set[str]:
    """The names of the tables Caserne's models make (their metadata, not a list of ours:
    the guard once looked for `rosters`/`shares`, while the tables are `roster`/`share`)."""
    from sqlmodel import SQLModel

    from app.store import models  # noqa: F401  (registers the tables)

    return set(SQLModel.metadata.tables)


def check_versioned(url: str) -> None:
    """UnversionedDatabase when the database has our tables without alembic_version.
    Checked before Alembic runs, so a refusal leaves the database as it was."""
    from sqlalchemy import inspect

    from app.db import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            tables = set(inspect(connection).get_table_names())
    finally:
        engine.dispose()
    if "alembic_version" not in tables and tables & model_tables():
        raise UnversionedDatabase(url)


def migrate(url: str | None = None) -> None:
    config = Config(str(ROOT / "alembic.ini"))
    if url is not None:
        config.attributes["url"] = url
    check_versioned(url or get_settings().database_url)
    command.upgrade(config, "head")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="caserne")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="apply pending database migrations")
    serve = sub.add_parser("serve", help="apply migrations, then serve the app")
    serve.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    serve.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "1")))
    prune = sub.add_parser(
        "prune",
        help="report the shares the retention policy removes (docs/retention.md); "
        "--apply removes them",
    )
    prune.add_argument(
        "--days",
        type=non_negative,
        default=DEFAULT_DAYS,
        help=f"remove unpinned shares not viewed for this many days (default {DEFAULT_DAYS})",
    )
    prune.add_argument(
        "--history-days",
        type=non_negative,
        default=DEFAULT_HISTORY_DAYS,
        help="remove the versions of lists saved this many days ago or more, but the newest "
        f"of each list and those among its last saves (default {DEFAULT_HISTORY_DAYS})",
    )
    prune.add_argument(
        "--apply", action="store_true", help="remove them (without it: a dry run, a report)"
    )
    args = parser.parse_args(argv)

    try:
        migrate()
    except (DBAPIError, ArgumentError, NoSuchModuleError) as error:
        # A missing database or a server down is one clear line, not a traceback.
        print(unreachable(get_settings().database_url, error), file=sys.stderr)
        raise SystemExit(1) from None
    except UnversionedDatabase:
        print(unversioned(get_settings().database_url), file=sys.stderr)
        raise SystemExit(1) from None
    if args.command == "prune":
        run_prune(
            get_settings().database_url,
            days=args.days,
            apply=args.apply,
            history_days=args.history_days,
        )
    if args.command == "serve":
        serve_app(args.host, args.port, args.workers)


def serve_app(host: str, port: int, workers: int) -> None:
    """Says the address to open (and, with several workers counting the rate limits in
    memory, that each counts on its own), then serves with uvicorn."""
    import uvicorn

    print(f"Caserne: open {served_url(host, port)} (Ctrl+C stops it)", flush=True)
    warning = limits_per_process(workers, get_settings().rate_limit_storage)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    uvicorn.run(
        "app.asgi:app",
        host=host,
        port=port,
        workers=workers,
        proxy_headers=True,
        forwarded_allow_ips=os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
    )


def limits_per_process(workers: int, storage: str) -> str:
    """One line when several processes each count the rate limits in their own memory."""
    if workers <= 1 or not storage.startswith(("memory://", "async+memory://")):
        return ""
    return (
        f"caserne: RATE_LIMIT_STORAGE is {storage}: each of the {workers} processes counts "
        f"the rate limits on its own, so a client gets up to {workers}× each limit; to share "
        "the counts, set RATE_LIMIT_STORAGE=redis://host:6379/0 (README « PostgreSQL and "
        "several processes »)"
    )


def non_negative(text: str) -> int:
    days = int(text)
    if days < 0:
        raise argparse.ArgumentTypeError("a number of days, 0 or more")
    return days


def run_prune(
    url: str, *, days: int, apply: bool, history_days: int = DEFAULT_HISTORY_DAYS
) -> None:
    """Prints the retention policy's reports (shares, then lists' versions); with `apply`,
    removes what they name."""
    from sqlmodel import Session

    from app.db import make_engine
    from app.store.history import prune_versions
    from app.store.retention import prune, today

    engine = make_engine(url)
    try:
        with Session(engine) as session:
            report = prune(session=session, days=days, apply=apply)
            versions = prune_versions(session=session, days=history_days, apply=apply, on=today())
    finally:
        engine.dispose()
    print("\n".join([*report.lines(), *versions.lines()]), flush=True)


def served_url(host: str, port: int) -> str:
    """The address a person opens in a browser: a wildcard host is this machine."""
    shown = "127.0.0.1" if host in ("", "0.0.0.0") else ("[::1]" if host == "::" else host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


if __name__ == "__main__":
    main()
