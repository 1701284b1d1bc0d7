"""What the browser flows share: waiting for HTMX, and proving a page did not navigate."""

import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, Response

# French dates as the pages write them (« 1er décembre 2026 à 9 h 05 »). Playwright runs a
# Python pattern as a JavaScript one, where `\w` is ASCII only (it never matches « é » or
# « û »): the month is spelled out, never matched by a character class.
FRENCH_MONTHS = (
    "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"
)
FRENCH_DATETIME = re.compile(rf"\b\d{{1,2}}(er)? ({FRENCH_MONTHS}) \d{{4}} à \d{{1,2}} h \d\d\b")

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
AXE = Path(__file__).parent / "vendor" / "axe-4.14.1.min.js"
# CASERNE_SCREENSHOTS=<folder>: the flows keep their screenshots there, to be looked at by
# hand. Unset (CI), none is taken: a full-page screenshot costs Chromium 0.3 to 0.8 s of CPU,
# and the flows took some forty a run for nobody to look at (issue 27).
SCREENSHOTS = os.environ.get("CASERNE_SCREENSHOTS", "")


def keep_screenshot(page: Page, name: str, *, full_page: bool = True) -> None:
    """The page as `name`.png in the CASERNE_SCREENSHOTS folder, when it is set."""
    if SCREENSHOTS:
        folder = Path(SCREENSHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=folder / f"{name}.png", full_page=full_page)


IN_VIEW = """(elements) => elements.some((el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return false;
  if (r.top < 0 || r.bottom > window.innerHeight) return false;
  // Visible, not covered: the element itself is what is hit at its centre.
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && (el === hit || el.contains(hit) || hit.contains(el));
})"""

NOT_COVERED = """(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit === el || el.contains(hit);
}"""

# Counts the HTMX requests in flight (add it with `page.add_init_script`).
TRACK_HTMX = """
window.__htmxPending = 0;
document.addEventListener("htmx:beforeRequest", () => { window.__htmxPending += 1; });
document.addEventListener("htmx:afterRequest", () => { window.__htmxPending -= 1; });
"""


def mark_document(page: Page) -> None:
    """Marks the current document: a navigation would lose the mark."""
    page.evaluate("window.__sameDocument = true")


def assert_same_document(page: Page) -> None:
    assert page.evaluate("window.__sameDocument === true"), "the page navigated"


def htmx_post(page: Page, path: str, action: Callable[[], object]) -> Response:
    """Runs `action`, waits for the HTMX POST to `path` it causes, then for HTMX to be idle."""

    def matches(response: Response) -> bool:
        request = response.request
        return request.method == "POST" and urlsplit(response.url).path == path

    with page.expect_response(matches) as info:
        action()
    response = info.value
    assert response.request.header_value("hx-request") == "true"
    page.wait_for_function("() => window.__htmxPending === 0")
    return response


def type_and_leave(field: Locator, text: str) -> None:
    """Types into a field, then tabs out of it, which fires its `change` event."""
    field.fill(text)
    field.press("Tab")


def open_new_list(page: Page, system: str, example: str | None = None) -> str:
    """Creates a list as the home page's buttons do (a form posted from one of the site's
    pages, so this context keeps its edit cookie), and returns its editor's path."""
    if not page.url.startswith("http"):
        page.goto("/listes")
    fields = {"system": system} | ({"example": example} if example else {})
    page.evaluate(
        """(fields) => {
          const form = document.createElement("form");
          form.method = "post";
          form.action = "/listes";
          for (const [name, value] of Object.entries(fields)) {
            const input = document.createElement("input");
            input.type = "hidden";
            input.name = name;
            input.value = value;
            form.append(input);
          }
          document.body.append(form);
          form.submit();
        }""",
        fields,
    )
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    return urlsplit(page.url).path


@cache
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def run_axe(page: Page) -> list[dict[str, Any]]:
    # Evaluated through the DevTools protocol: the pages' CSP allows no injected <script>.
    # Once a page: a second check of the same page (at another width) finds it there.
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(axe_source())
    violations: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {
          resultTypes: ["violations"],
          // WCAG 2.2's target size (24 px) is not among axe's default rules.
          rules: {"target-size": {enabled: true}},
        })).violations"""
    )
    # Every impact counts, minor included (issue 14).
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"][:3]]}
        for v in violations
    ]


def csp_refusals(page: Page) -> list[str]:
    """What the Content-Security-Policy refuses on this page from now on (console reports)."""
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    return refused


def check_system_pages(page: Page, system: str, example: str, viewport: dict[str, int]) -> None:
    """A system's catalogue, creator, the editor of one of its examples and that list's
    share page: nothing scrolls sideways, axe-core finds no violation of any impact,
    the Content-Security-Policy refuses nothing."""
    refused = csp_refusals(page)
    editor = open_new_list(page, system, example)
    page.locator("#share").click()
    page.wait_for_url(re.compile(r"/s/[A-Za-z0-9_-]+$"))
    share = urlsplit(page.url).path
    found = {}
    for path in (f"/{system}/catalogue", f"/{system}/createur", editor, share):
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], (path, width)
        if violations := run_axe(page):
            found[path] = violations
    assert found == {}, "\n".join(f"{path}: {v}" for path, v in found.items())
    assert refused == []
