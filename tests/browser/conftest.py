"""Browser fixtures: a live uvicorn server on its own database, and headless Chromium.

Debian's /usr/bin/chromium drives the tests (Playwright's own browser download is not used).
Without it the tests are skipped, unless CASERNE_REQUIRE_BROWSER=1 (CI), where that fails.
The database is a migrated SQLite file, or with DATABASE_URL set to a PostgreSQL URL a
schema of its own, dropped at the end.
"""

import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from app.cli import migrate
from app.main import create_app
from app.settings import Settings

try:
    from tests.conftest import DATABASE_URL, ON_POSTGRES, create_schema, drop_schema
except ImportError:  # pytest run without the repository root on sys.path
    from conftest import (  # type: ignore[no-redef]
        DATABASE_URL,
        ON_POSTGRES,
        create_schema,
        drop_schema,
    )

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STARTUP_TIMEOUT = 15.0
# Playwright's default is 30 s per action; a stuck page should fail well before that.
ACTION_TIMEOUT_MS = 10_000


@dataclass
class LiveServer:
    url: str
    database_url: str


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def chromium_executable() -> Path:
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    reason = f"{CHROMIUM} not found: install Debian's chromium to run the browser tests"
    if os.environ.get("CASERNE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (CASERNE_REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def playwright_instance(chromium_executable: Path) -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright, chromium_executable: Path) -> Iterator[Browser]:
    browser = playwright_instance.chromium.launch(
        executable_path=str(chromium_executable), args=CHROMIUM_ARGS, headless=True
    )
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database for the live server: a PostgreSQL schema, or a SQLite file."""
    if ON_POSTGRES:
        schema, url = create_schema(DATABASE_URL, "caserne_e2e")
        try:
            migrate(url)
            yield url
        finally:
            drop_schema(DATABASE_URL, schema)
        return
    path = tmp_path_factory.mktemp("e2e") / "caserne.sqlite3"
    url = f"sqlite:///{path}"
    migrate(url)
    yield url


@pytest.fixture(scope="module")
def live_server(database_url: str) -> Iterator[LiveServer]:
    """uvicorn serving create_app() in a background thread, on a free port."""
    app = create_app(Settings(database_url=database_url))
    port = _free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", access_log=False, lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="caserne-e2e-server", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while True:
        try:
            if httpx.get(f"{url}/", timeout=1.0).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            thread.join(timeout=5)
            pytest.fail(f"the live server did not answer on {url}", pytrace=False)
        time.sleep(0.05)
    try:
        yield LiveServer(url=url, database_url=database_url)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        app.state.engine.dispose()


def new_context(browser: Browser, server: LiveServer, **options: object) -> BrowserContext:
    context = browser.new_context(base_url=server.url, locale="fr-FR", **options)  # type: ignore[arg-type]
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    return context


@pytest.fixture
def context(browser: Browser, live_server: LiveServer) -> Iterator[BrowserContext]:
    """A fresh browser context (cookies, storage) for each test, allowed to use the clipboard."""
    context = new_context(
        browser, live_server, permissions=["clipboard-read", "clipboard-write"]
    )
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()
