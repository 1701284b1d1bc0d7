"""What newcomers and API users meet first (issue 7): at start-up, a database that cannot
be opened is one clear line on stderr and exit code 1, never a traceback; a share's
`created_at` carries its time zone."""

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, SQLModel, select

from app.db import make_engine, unreachable
from app.settings import ROOT
from app.store import rosters as store
from app.store.models import Roster, Share, as_utc
from tests.conftest import DATABASE_URL, ON_POSTGRES, create_schema, drop_schema


def caserne(*args: str, database_url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # A database that does not exist on the local server (or the server is down: the
        # line then says the connection was refused).
        (
            "postgresql+psycopg://postgres@127.0.0.1:5432/nope",
            "postgresql+psycopg://postgres@127.0.0.1:5432/nope",
        ),
        # Nothing listens on port 1; the password is never printed.
        (
            "postgresql+psycopg://postgres:secret@127.0.0.1:1/caserne",
            "postgresql+psycopg://postgres:***@127.0.0.1:1/caserne",
        ),
        ("sqlite:////nonexistent-caserne-dir/caserne.sqlite3", "nonexistent-caserne-dir"),
    ],
)
@pytest.mark.parametrize("command", ["migrate", "serve"])
def test_unreachable_database_is_one_clear_line(url: str, shown: str, command: str) -> None:
    done = caserne(command, database_url=url)
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("caserne: cannot open the database ")
    assert shown in lines[0] and "DATABASE_URL" in lines[0]
    assert "Traceback" not in done.stderr and "secret" not in done.stderr


def test_the_line_names_the_reason() -> None:
    error = OperationalError(
        "connect",
        {},
        Exception(
            'connection failed: connection to server at "127.0.0.1", port 5432 failed: '
            'FATAL:  database "nope" does not exist'
        ),
    )
    assert unreachable("postgresql+psycopg://postgres@127.0.0.1:5432/nope", error) == (
        "caserne: cannot open the database postgresql+psycopg://postgres@127.0.0.1:5432/nope: "
        'database "nope" does not exist (check DATABASE_URL)'
    )


def test_share_created_at_carries_a_time_zone(client: TestClient, session: Session) -> None:
    body = {"system": "dcsystem", "entries": [{"unit": "jaffa", "count": 2}]}
    created = client.post("/api/v1/rosters", json=body).json()
    token = {"Authorization": f"Bearer {created['edit_token']}"}
    code = client.post(f"/api/v1/rosters/{created['id']}/shares", headers=token).json()["code"]
    created_at = datetime.fromisoformat(client.get(f"/api/v1/shares/{code}").json()["created_at"])
    assert created_at.utcoffset() is not None
    shared = store.get_share(session=session, code=code)
    assert shared is not None
    assert created_at == as_utc(shared.created_at)


def test_naive_stored_times_are_utc() -> None:
    """SQLite gives back naive datetimes; PostgreSQL aware ones, kept as they are."""
    assert as_utc(datetime(2026, 11, 30, 13, 5)) == datetime(2026, 11, 30, 13, 5, tzinfo=UTC)
    aware = datetime(2026, 11, 30, 13, 5, tzinfo=UTC)
    assert as_utc(aware) is aware


@pytest.mark.parametrize(
    ("host", "port", "url"),
    [
        ("127.0.0.1", 8000, "http://127.0.0.1:8000/"),
        ("0.0.0.0", 8080, "http://127.0.0.1:8080/"),
        ("::", 8000, "http://[::1]:8000/"),
        ("::1", 8000, "http://[::1]:8000/"),
        ("caserne.local", 80, "http://caserne.local:80/"),
    ],
)
def test_serve_says_the_address_to_open(
    host: str,
    port: int,
    url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import uvicorn

    from app import cli

    ran: list[dict[str, object]] = []
    monkeypatch.setattr(cli, "migrate", lambda: None)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: ran.append(kwargs))
    cli.main(["serve", "--host", host, "--port", str(port)])
    assert capsys.readouterr().out == f"Caserne: open {url} (Ctrl+C stops it)\n"
    assert ran and ran[0]["host"] == host


def test_editable_install_is_a_plain_pth() -> None:
    # setuptools' import-finder strategy prints « Editable installation … Please be careful »
    # as if the install failed; with package-dir "" = "." (its simple layout) it writes a
    # plain .pth instead, silently. scripts/setup made this venv's install that way.
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["setuptools"]["package-dir"] == {"": "."}
    site = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    pth = list((site / "site-packages").glob("__editable__.caserne-*.pth"))
    if pth:  # installed by scripts/setup (not a plain checkout run by another Python)
        assert pth[0].read_text(encoding="utf-8").strip() == str(ROOT)
        assert not list((site / "site-packages").glob("__editable___caserne_*finder.py"))


@pytest.fixture
def unversioned_url(tmp_path: Path) -> Iterator[str]:
    """A database whose tables the models made (`create_all`, no Alembic): a file on
    SQLite, a schema of its own on PostgreSQL."""
    if ON_POSTGRES:
        schema, url = create_schema(DATABASE_URL, "caserne_unversioned")
        try:
            yield url
        finally:
            drop_schema(DATABASE_URL, schema)
    else:
        yield f"sqlite:///{tmp_path / 'made-by-hand.sqlite3'}"


def test_tables_without_alembic_version_get_the_stamp_advice(unversioned_url: str) -> None:
    """Issue 13, finding 8: tables made without migrations (no alembic_version) made
    `caserne migrate` say « cannot open the database … (check DATABASE_URL) ». Issue 25,
    item 11: the guard looked for `rosters`/`shares` while the models make `roster`/`share`,
    so the real tables still got that line, and an `alembic_version` table was left behind."""
    engine = make_engine(unversioned_url)
    try:
        SQLModel.metadata.create_all(engine)
        made = set(inspect(engine).get_table_names())
        assert made == set(SQLModel.metadata.tables)  # the real tables, not a name of ours
        with Session(engine) as session:
            session.add(Roster(id="kept", system="dcsystem", document={}, token_hash="x"))
            session.commit()
        done = caserne("migrate", database_url=unversioned_url)
        assert done.returncode == 1
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert "no alembic_version table" in lines[0]
        assert "alembic stamp" in lines[0] and "caserne migrate" in lines[0]
        assert "cannot open the database" not in lines[0] and "Traceback" not in done.stderr
        # Nothing changed, nothing left behind.
        assert set(inspect(engine).get_table_names()) == made
        with Session(engine) as session:
            assert [roster.id for roster in session.exec(select(Roster))] == ["kept"]
    finally:
        engine.dispose()


def test_prune_reports_by_default_and_removes_with_apply(unversioned_url: str) -> None:
    """Issue 29: `caserne prune` is a dry run that says what it would remove; `--apply`
    removes it, and a pinned share (a list's newest) stays."""
    assert caserne("migrate", database_url=unversioned_url).returncode == 0
    engine = make_engine(unversioned_url)
    long_ago = datetime(2025, 1, 2, tzinfo=UTC)
    try:
        with Session(engine) as session:
            session.add(Roster(id="kept", system="dcsystem", document={}, token_hash="x"))
            for number, roster_id in enumerate(["kept", "kept", "deleted"]):
                session.add(
                    Share(
                        code=f"code{number}",
                        roster_id=roster_id,
                        system="dcsystem",
                        catalogue_version="1",
                        snapshot={"n": number},
                        etag=f"e{number}",
                        created_at=long_ago + timedelta(hours=number),
                    )
                )
            session.commit()
        dry = caserne("prune", database_url=unversioned_url)
        assert dry.returncode == 0, dry.stderr
        lines = dry.stdout.splitlines()
        assert lines[0].startswith("caserne prune: 3 shares; not viewed since ")
        assert lines[0].endswith("(180 days) or of a deleted list: 2")
        assert lines[1:4] == [
            "  of deleted lists: 1",
            "  not viewed for 180 days: 1",
            "  kept, pinned (a battle, a campaign, the newest of a list): 1",
        ]
        assert lines[6] == "would remove: 2 shares (dry run: nothing removed; --apply removes)"
        # Then the lists' versions (docs/history.md): none kept here.
        assert lines[7:] == [
            "caserne prune: 0 list versions; saved before "
            f"{(datetime.now(UTC).date() - timedelta(days=365)).isoformat()} (365 days), not "
            "among their list's last 10 saves nor its newest, or of a deleted list: 0",
            "  their documents as stored: 0 bytes",
            "would remove: 0 list versions (dry run: nothing removed; --apply removes)",
        ]
        done = caserne(
            "prune", "--apply", "--days", "30", "--history-days", "30", database_url=unversioned_url
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[6] == "removed: 2 shares"
        assert "(30 days)" in done.stdout.splitlines()[7]
        assert done.stdout.splitlines()[-1] == "removed: 0 list versions"
        with Session(engine) as session:
            left = session.exec(select(Share.code)).all()
        assert left == ["code1"]
        refused = caserne("prune", "--days", "-1", database_url=unversioned_url)
        assert refused.returncode == 2 and "0 or more" in refused.stderr
    finally:
        engine.dispose()
