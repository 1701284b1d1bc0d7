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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from app.cli import migrate
from app.main import create_app
from app.settings import Settings
from tests.conftest import DATABASE_URL, ON_POSTGRES, create_schema, drop_schema, missing

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


def _listening_socket() -> socket.socket:
    """A socket bound to a free port on 127.0.0.1, handed to uvicorn (no race for the port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@pytest.fixture(scope="session")
def chromium_executable() -> Path:
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    missing(
        f"{CHROMIUM} not found: install Debian's chromium to run the browser tests",
        "CASERNE_REQUIRE_BROWSER",
    )


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


@contextmanager
def serving(settings: Settings) -> Iterator[str]:
    """The base URL of uvicorn serving create_app(settings) in a background thread, on a
    free port; stopped afterwards."""
    app = create_app(settings)
    sock = _listening_socket()
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", access_log=False, lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="caserne-e2e-server", daemon=True
    )
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not _answers(url):
            if not thread.is_alive() or time.monotonic() > deadline:
                pytest.fail(f"the live server did not answer on {url}", pytrace=False)
            time.sleep(0.05)
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        app.state.engine.dispose()


@pytest.fixture(scope="module")
def live_server(database_url: str) -> Iterator[str]:
    """The base URL of the app served on the module's database."""
    with serving(Settings(database_url=database_url)) as url:
        yield url


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/", timeout=1.0).status_code == 200
    except httpx.TransportError:
        return False


@pytest.fixture
def new_context(browser: Browser, live_server: str) -> Iterator[Callable[..., BrowserContext]]:
    """Opens browser contexts on the live server (options as Browser.new_context); closes them."""
    opened: list[BrowserContext] = []

    def factory(**options: Any) -> BrowserContext:
        context = browser.new_context(base_url=live_server, locale="fr-FR", **options)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        opened.append(context)
        return context

    yield factory
    for context in opened:
        context.close()


@pytest.fixture
def context(new_context: Callable[..., BrowserContext]) -> BrowserContext:
    """A fresh browser context (cookies, storage) for each test, allowed to use the clipboard."""
    return new_context(permissions=["clipboard-read", "clipboard-write"])


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()
