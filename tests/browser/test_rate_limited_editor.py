"""A save refused by the write limit keeps the editor as typed (issue 13, finding 6: htmx
swapped the 429 page into the form, two <main> and the inputs gone, the change lost)."""

import re
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from playwright.sync_api import Page, expect

from app.main import create_app
from app.settings import Settings
from tests.browser.conftest import STARTUP_TIMEOUT, _answers, _listening_socket
from tests.browser.helpers import (
    TRACK_HTMX,
    assert_same_document,
    htmx_post,
    mark_document,
    open_new_list,
)

pytestmark = pytest.mark.browser

WRITES = 3  # the limit of this module's server: three saves a minute


@pytest.fixture(scope="module")
def live_server(database_url: str) -> Iterator[str]:
    """The live server of conftest.py, with a write limit a test reaches in a few saves."""
    app = create_app(Settings(database_url=database_url, rate_limit_write=f"{WRITES}/minute"))
    sock = _listening_socket()
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", access_log=False, lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not _answers(url):
            assert thread.is_alive() and time.monotonic() < deadline, "no live server"
            time.sleep(0.05)
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        app.state.engine.dispose()


def test_a_refused_save_keeps_the_form_and_says_when_to_retry(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    page.goto(path)
    mark_document(page)
    count = page.locator("#entry-0-count")
    for value in range(2, 2 + WRITES):
        saved = htmx_post(page, path, lambda v=value: (count.fill(str(v)), count.press("Tab")))
        assert saved.status == 200
    # The next save is over the limit.
    refused = htmx_post(
        page,
        path,
        lambda: (
            count.fill("9"),
            page.locator("#entry-0-name").fill("Sergent"),
            page.locator("#entry-0-name").press("Tab"),
        ),
    )
    assert refused.status == 429
    assert_same_document(page)
    # The form is the one typed in: one <main>, the inputs there, the values kept.
    expect(page.locator("main")).to_have_count(1)
    expect(count).to_have_value("9")
    expect(page.locator("#entry-0-name")).to_have_value("Sergent")
    expect(page.locator("#editor input[name=version]")).to_have_count(1)
    # Said in French, with when to retry, in a region announced to screen readers.
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("role", "alert")
    expect(notice).to_have_text(re.compile(r"Réessayez dans \d+ secondes?\."))
    expect(notice).to_contain_text("restent dans le formulaire")
