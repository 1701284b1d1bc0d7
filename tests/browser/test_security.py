"""Security in a real browser (issue 10): no page breaks its Content-Security-Policy, and a
form posted by another origin's page cannot change a roster."""

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect

from tests.browser.helpers import TRACK_HTMX, htmx_post, open_new_list, type_and_leave

pytestmark = pytest.mark.browser

# Records every CSP violation the page reports (script, style, frame...), from the start.
WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


class CspWatch:
    """The violations a page reported, by event and in the console."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        page.add_init_script(WATCH_CSP)
        page.on("console", self._on_console)

    def _on_console(self, message: ConsoleMessage) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.console.append(text)

    def assert_clean(self, where: str) -> None:
        events: list[str] = self.page.evaluate("window.__cspViolations || []")
        assert not events and not self.console, f"{where}: {events} {self.console}"


def new_list(page: Page, system: str = "dcsystem") -> str:
    """Opens a new list (a form posted from one of Caserne's pages); its editor URL. The
    home page's "Nouvelle liste" now opens a form first (tests/browser/test_library_flow.py)."""
    page.goto("/")
    open_new_list(page, system)
    return page.url


def test_every_page_works_under_the_csp(page: Page, live_server: str) -> None:
    watch = CspWatch(page)
    page.add_init_script(TRACK_HTMX)
    for path in (
        "/",
        "/dcsystem/catalogue",
        "/dcsystem/createur",
        "/nolimits/catalogue",
        "/nolimits/createur",
        "/listes",
        "/nowhere",  # an error page
    ):
        page.goto(path)
        page.wait_for_load_state("load")
        watch.assert_clean(path)
    # The creator's live cost (HTMX swaps).
    page.goto("/dcsystem/createur")
    htmx_post(page, "/dcsystem/createur", lambda: page.locator("#fighter-name").fill("Sans CSP"))
    watch.assert_clean("creator after an HTMX swap")
    # The editor: a change saved by HTMX, the points bar (a style attribute), then sharing.
    editor = new_list(page)
    watch.assert_clean(editor)
    path = editor.removeprefix(live_server)
    htmx_post(page, path, lambda: type_and_leave(page.locator("#points-limit"), "200"))
    expect(page.locator("#total")).to_be_visible()
    watch.assert_clean("editor after an HTMX save")
    page.locator("#share").click()
    page.wait_for_url("**/s/*")
    watch.assert_clean(page.url)
    page.goto(new_list(page, "nolimits"))
    watch.assert_clean("No Limits editor")
    page.goto("/listes")
    watch.assert_clean("/listes with lists")


class AttackerSite:
    """Another origin (another port of the same host: same site, so the Lax cookie rides
    along) serving a page whose form posts to Caserne as soon as it loads."""

    def __init__(self) -> None:
        self.page = b""
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(site.page)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def serve_form(self, action: str, fields: dict[str, str]) -> None:
        inputs = "".join(f'<input type="hidden" name="{k}" value="{v}">' for k, v in fields.items())
        self.page = (
            f'<!doctype html><form id="f" method="post" action="{action}">{inputs}</form>'
            '<script>document.getElementById("f").submit()</script>'
        ).encode()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def attacker() -> Iterator[AttackerSite]:
    site = AttackerSite()
    yield site
    site.close()


def test_a_cross_origin_form_post_cannot_change_a_roster(
    context: BrowserContext, live_server: str, attacker: AttackerSite
) -> None:
    page = context.new_page()
    page.add_init_script(TRACK_HTMX)
    editor = new_list(page)
    path = urlsplit(editor).path
    htmx_post(page, path, lambda: type_and_leave(page.locator("#roster-name"), "Ma liste"))
    htmx_post(page, path, lambda: type_and_leave(page.locator("#points-limit"), "150"))
    page.goto(editor)
    expect(page.locator("#roster-name")).to_have_value("Ma liste")
    expect(page.locator("#points-limit")).to_have_value("150")
    version = page.locator('input[name="version"]').input_value()

    attacker.serve_form(editor, {"name": "Piégée", "version": version, "points_limit": "1"})
    with page.expect_response(lambda r: r.url == editor) as answer:
        page.goto(attacker.url)
    assert answer.value.request.method == "POST"
    assert answer.value.request.header_value("sec-fetch-site") == "same-site"
    assert answer.value.status == 403
    expect(page.locator("body")).to_contain_text("ne vient pas d'une page de Caserne")

    # Adding to the list from the other origin is refused too.
    attacker.serve_form(
        f"{live_server}/listes/ajouter",
        {"system": "dcsystem", "add-unit": "jaffa", "roster": editor.rsplit("/", 1)[1]},
    )
    with page.expect_response(lambda r: r.url.endswith("/listes/ajouter")) as added:
        page.goto(attacker.url)
    assert added.value.status == 403

    page.goto(editor)
    expect(page.locator("#roster-name")).to_have_value("Ma liste")
    expect(page.locator("#points-limit")).to_have_value("150")
    expect(page.locator("tr.entry")).to_have_count(0)


def test_the_same_form_from_caserne_itself_still_works(context: BrowserContext) -> None:
    page = context.new_page()
    page.add_init_script(TRACK_HTMX)
    editor = new_list(page)
    saved = htmx_post(
        page,
        urlsplit(editor).path,
        lambda: type_and_leave(page.locator("#roster-name"), "Renommée"),
    )
    assert saved.status == 200
    page.goto(editor)
    expect(page.locator("#roster-name")).to_have_value("Renommée")
