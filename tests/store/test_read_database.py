"""DATABASE_READ_URL (issue 29, « PostgreSQL as operators run it »): the public reads (share
pages and exports, published books, campaign standings and public gang pages, catalogue
pages, GET /api/v1/shares/..., /book-shares/..., /campaigns/...) read from a second engine,
while the editor, every request carrying a carnet cookie or a token, and every write stay on
the primary. Checked by counting the statements each engine runs, on the database the suite
runs on: a SQLite file and the same file opened read-only (`?mode=ro`), or a PostgreSQL
schema and the same schema through a second URL whose transactions are read-only (a write
sent there would fail). A stale read database (a second SQLite file, a copy made before the
writes) still answers a share or a published version made since: asked of the primary."""

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from app.cli import migrate
from app.main import create_app
from app.settings import Settings
from app.systems.base import GameSystem
from tests.api.test_books import BOOK
from tests.api.test_campaigns import campaign_of, join, orlocks
from tests.api.test_rosters import DOCUMENT
from tests.conftest import DATABASE_URL, ON_POSTGRES, create_schema, drop_schema

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|TRUNCATE)\b", re.IGNORECASE)


@dataclass
class Statements:
    """The statements an engine ran, as SQL text, since the last `clear`."""

    seen: list[str] = field(default_factory=list)

    def listen(self, engine: Engine) -> None:
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.seen.append(statement)

    def writes(self) -> list[str]:
        return [s for s in self.seen if WRITE.match(s)]

    def reads(self) -> list[str]:
        return [s for s in self.seen if s.lstrip().upper().startswith("SELECT")]

    def clear(self) -> None:
        self.seen.clear()


@dataclass
class Served:
    client: TestClient
    primary: Statements
    read: Statements

    def clear(self) -> None:
        self.primary.clear()
        self.read.clear()


def read_only_url(url: str) -> str:
    """The same PostgreSQL database and schema, every transaction read-only."""
    parsed = make_url(url)
    options = f"{parsed.query.get('options', '')} -cdefault_transaction_read_only=on".strip()
    return parsed.update_query_dict({"options": options}).render_as_string(hide_password=False)


@pytest.fixture
def urls(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(DATABASE_URL, DATABASE_READ_URL) of one migrated database that keeps its rows."""
    if ON_POSTGRES:
        schema, url = create_schema(DATABASE_URL, "caserne_read")
        migrate(url)
        yield url, read_only_url(url)
        drop_schema(DATABASE_URL, schema)
        return
    path = tmp_path / "primary.sqlite3"
    migrate(f"sqlite:///{path}")
    yield f"sqlite:///{path}", f"sqlite:///file:{path}?mode=ro&uri=true"


@contextmanager
def serve(systems: dict[str, GameSystem], url: str, read_url: str) -> Iterator[Served]:
    settings = Settings(database_url=url, database_read_url=read_url)
    app = create_app(settings, systems=systems)
    primary, read = Statements(), Statements()
    primary.listen(app.state.engine)
    read.listen(app.state.read_engine)
    try:
        with TestClient(app) as client:
            yield Served(client, primary, read)
    finally:
        app.state.engine.dispose()
        app.state.read_engine.dispose()


@pytest.fixture
def served(urls: tuple[str, str], systems: dict[str, GameSystem]) -> Iterator[Served]:
    with serve(systems, *urls) as done:
        yield done


def created(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def bearer(made: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {made['edit_token']}"}


def shared(client: TestClient, roster: dict[str, Any]) -> str:
    response = client.post(f"/api/v1/rosters/{roster['id']}/shares", headers=bearer(roster))
    assert response.status_code == 201, response.text
    code: str = response.json()["code"]
    return code


def published(client: TestClient) -> str:
    book = created(client, "/api/v1/books", BOOK)
    response = client.post(f"/api/v1/books/{book['id']}/shares", headers=bearer(book))
    assert response.status_code == 201, response.text
    code: str = response.json()["code"]
    return code


def public_gets(served: Served) -> dict[str, str]:
    """Every kind of public read, each of something the primary just stored."""
    client = served.client
    roster = created(client, "/api/v1/rosters", DOCUMENT)
    code = shared(client, roster)
    book = published(client)
    campaign = campaign_of(client)
    gang = created(client, "/api/v1/rosters", orlocks())
    assert join(client, campaign, gang).status_code == 201
    gang_code = shared(client, gang)
    return {
        "share page": f"/s/{code}",
        "share export": f"/s/{code}.bbcode",
        "share json": f"/s/{code}.json",
        "play sheet": f"/s/{code}/feuille",
        "mode partie": f"/s/{code}/partie",
        "API share": f"/api/v1/shares/{code}",
        "published book": f"/a/{book}",
        "book export": f"/a/{book}.md",
        "API book share": f"/api/v1/book-shares/{book}",
        "standings": f"/c/{campaign['id']}",
        "API campaign": f"/api/v1/campaigns/{campaign['id']}",
        "public gang": f"/campagne/gang/{gang_code}",
        "public ledger": f"/api/v1/rosters/{gang['id']}/battles?share={gang_code}",
        "catalogue": "/dcsystem/catalogue",
    }


def test_public_reads_use_the_read_database_and_writes_never_do(served: Served) -> None:
    pages = public_gets(served)
    assert served.read.seen == []  # every write above went to the primary
    assert served.primary.writes() != []
    for name, path in pages.items():
        served.clear()
        response = served.client.get(path)
        assert response.status_code == 200, (name, response.text)
        assert served.read.writes() == [], name
        if name != "catalogue":  # a visitor without a carnet: the page reads nothing
            assert served.read.reads() != [], name
        # The primary only records a share's view (once a day: docs/retention.md).
        assert [
            s for s in served.primary.seen if not s.lstrip().startswith("UPDATE share")
        ] == [], (name, served.primary.seen)


def test_the_read_url_here_refuses_writes(served: Served) -> None:
    """What these tests count is also what the database enforces: a write sent to the read
    URL fails (a SQLite file opened read-only, PostgreSQL's read-only transactions)."""
    app: Any = served.client.app
    with pytest.raises(DBAPIError), app.state.read_engine.begin() as connection:
        connection.execute(text("UPDATE share SET last_viewed = NULL"))


def test_the_editor_an_owner_and_a_token_read_the_primary(served: Served) -> None:
    client = served.client
    roster = created(client, "/api/v1/rosters", DOCUMENT)
    code = shared(client, roster)
    served.clear()
    # The edit link puts the list in this browser's carnet (its cookie).
    claimed = client.get(
        f"/r/{roster['id']}/modifier",
        params={"t": roster["edit_token"]},
        headers={"Sec-Fetch-Site": "none"},
        follow_redirects=False,
    )
    assert claimed.status_code == 303, claimed.text
    assert "caserne_carnet" in client.cookies
    for path in (f"/r/{roster['id']}", f"/s/{code}", f"/s/{code}.json", "/dcsystem/catalogue"):
        response = client.get(path)
        assert response.status_code == 200, (path, response.text)
    owners = client.get(f"/s/{code}")
    assert owners.headers["Cache-Control"] == "private, no-store"  # its « Modifier » page
    client.cookies.clear()
    with_token = client.get(f"/api/v1/shares/{code}", headers=bearer(roster))
    assert with_token.status_code == 200
    replaced = client.put(
        f"/api/v1/rosters/{roster['id']}",
        json={**DOCUMENT, "name": "Autre nom"},
        headers={**bearer(roster), "If-Match": '"1"'},
    )
    assert replaced.status_code == 200, replaced.text
    assert served.read.seen == []
    assert served.primary.reads() != [] and served.primary.writes() != []


def test_without_a_read_url_there_is_one_engine(
    urls: tuple[str, str], systems: dict[str, GameSystem]
) -> None:
    app = create_app(Settings(database_url=urls[0]), systems=systems)
    try:
        assert app.state.read_engine is None and app.state.read_session_factory is None
        with TestClient(app) as client:
            code = shared(client, created(client, "/api/v1/rosters", DOCUMENT))
            assert client.get(f"/s/{code}").status_code == 200
            assert client.get(f"/api/v1/shares/{code}").status_code == 200
    finally:
        app.state.engine.dispose()


@pytest.mark.skipif(ON_POSTGRES, reason="two SQLite files stand for a replica that lags")
def test_a_lagging_read_database_still_answers_what_was_just_made(
    tmp_path: Path, systems: dict[str, GameSystem]
) -> None:
    """The read database is a copy made before the writes: a share and a published version
    made since are found on the primary (they never change once made); a code that never
    was is still a 404, asked of both."""
    primary = tmp_path / "primary.sqlite3"
    replica = tmp_path / "replica.sqlite3"
    migrate(f"sqlite:///{primary}")
    with sqlite3.connect(primary) as source, sqlite3.connect(replica) as copy:
        source.backup(copy)
    read_url = f"sqlite:///file:{replica}?mode=ro&uri=true"
    with serve(systems, f"sqlite:///{primary}", read_url) as served:
        client = served.client
        code = shared(client, created(client, "/api/v1/rosters", DOCUMENT))
        book = published(client)
        paths = (
            f"/s/{code}",
            f"/api/v1/shares/{code}",
            f"/a/{book}",
            f"/api/v1/book-shares/{book}",
        )
        for path in paths:
            served.clear()
            assert client.get(path).status_code == 200, path
            assert served.read.reads() != [] and served.read.writes() == []
            assert served.primary.reads() != []
        served.clear()
        assert client.get("/s/AAAAAAAAAAAA").status_code == 404
        missing = client.get("/api/v1/shares/AAAAAAAAAAAA")
        assert missing.status_code == 404, missing.text
        assert missing.json()["errors"][0]["code"] == "share_not_found"
        assert served.read.reads() != [] and served.primary.reads() != []
