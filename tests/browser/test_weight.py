"""Issue 18: every page under 60 KB transferred (HTML, CSS, JS, icons; compressed), the
share page and the play sheet without HTMX, measured in Chromium on a cold cache."""

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page

from tests.browser.test_play_sheets import fifty_dcsystem_entries, share

pytestmark = pytest.mark.browser

LIMIT = 60 * 1024


def transferred(new_context: Callable[..., BrowserContext], path: str) -> tuple[int, list[str]]:
    """Bytes received for `path` in a fresh context (no cache): bodies as sent, headers."""
    context = new_context()
    page = context.new_page()
    responses = []
    page.on("requestfinished", lambda request: responses.append(request))
    page.goto(path)
    page.wait_for_load_state("networkidle")
    total = 0
    for request in responses:
        sizes = request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    return total, [r.url for r in responses]


def test_every_page_weighs_under_60_kb(
    page: Page, new_context: Callable[..., BrowserContext]
) -> None:
    code = share(page, fifty_dcsystem_entries(page))
    catalogue = page.request.get("/api/v1/systems/nolimits/catalogue").json()
    assert catalogue["examples"]
    paths = [
        "/",
        "/listes",
        code,
        f"{code}/feuille",
        f"{code}/feuille?compacte=1",
        "/dcsystem/catalogue",
        "/nolimits/catalogue",
        "/infinity/createur",
        "/necrowarzone/catalogue",
        "/bastos/catalogue",
        "/listes/nouvelle?system=dcsystem",
    ]
    found = {}
    for path in paths:
        total, urls = transferred(new_context, path)
        found[path] = total
        if path.startswith(code):
            assert not [u for u in urls if "htmx" in u or "idiomorph" in u or "caserne.js" in u]
    print({path: size for path, size in found.items()})
    assert max(found.values()) <= LIMIT, found


def test_html_css_and_js_are_compressed(page: Page) -> None:
    for path in ("/", "/static/caserne.css", "/static/htmx-2.0.11.min.js"):
        response = page.request.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.headers.get("content-encoding") == "gzip", path
