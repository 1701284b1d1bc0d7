"""A count change sends only the counts (POST /r/{id}/nombres) and morphs in only what moved
(issue 19: « render only what changed where HTMX allows it, the row and the totals, not the
whole form, without losing focus or morphing's guarantees »). What the page shows after such
saves must be exactly what a fresh page draws from the stored list, in every system; and what
the count path cannot take alone (a bad value, another tab's save) goes through the whole
form's save, which says why as it always did."""

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Request, expect

from app.systems.base import AnySystem
from tests.browser.helpers import TRACK_HTMX, htmx_post
from tests.conftest import SYSTEMS

pytestmark = pytest.mark.browser

# Every element of the form, its attributes sorted, each field's live value and the text:
# the page as a reader and a screen reader get it. Left out: what htmx and the scripts add
# on their own (classes while a request runs, a scroller's tabindex), the per-request CSRF
# token, which folded rows are open (the player's choice, kept through saves), and what
# <noscript> holds.
SNAPSHOT = """() => {
  const out = [];
  const skip = new Set(["tabindex", "open"]);
  const classes = (value) =>
    value.split(/\\s+/).filter((c) => c && !c.startsWith("htmx-")).sort().join(" ");
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent.replace(/\\s+/g, " ").trim();
      if (text) out.push(text);
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    if (node.name === "csrf") return;
    // A fresh page parses <noscript> as text, a swapped fragment as elements (never shown
    // with scripts on).
    if (node.tagName === "NOSCRIPT") return;
    // htmx empties the class attribute it added a request class to, and removes it or not
    // depending on which of its cleanups runs last: an empty class reads as none.
    const attrs = Array.from(node.attributes)
      .filter((a) => !skip.has(a.name) && !(a.name === "class" && !classes(a.value)))
      .map((a) => (a.name === "class" ? `class=${classes(a.value)}` : `${a.name}=${a.value}`))
      .sort();
    out.push(`<${node.tagName} ${attrs.join(" ")}>`);
    if (node instanceof HTMLInputElement || node instanceof HTMLSelectElement) {
      out.push(`value:${node.type === "checkbox" ? node.checked : node.value}`);
    }
    for (const child of node.childNodes) walk(child);
    out.push(`</${node.tagName}>`);
  };
  walk(document.querySelector("#editor"));
  return out;
}"""

ENTRIES = 12


def long_document(system: AnySystem) -> dict[str, Any]:
    """The system's first example, its entries repeated up to ENTRIES (its own format kept:
    the totals go over it, so validity and issues move with the counts)."""
    document = dict(system.example_rosters()[0].document)
    entries = list(document["entries"])
    document["entries"] = [dict(entries[i % len(entries)]) for i in range(ENTRIES)]
    return document


def posts(page: Page) -> list[str]:
    seen: list[str] = []

    def record(request: Request) -> None:
        if request.method == "POST":
            seen.append(urlsplit(request.url).path)

    page.on("request", record)
    return seen


def change_count(page: Page, path: str, row: int) -> str:
    """Row `row`'s count one up (one down from 3), saved; returns the new value."""
    field = page.locator(f"#entry-{row}-count")
    current = int(field.input_value() or 1)
    value = str(current + 1 if current < 3 else current - 1)
    field.fill(value)
    response = htmx_post(page, path, lambda: field.press("Tab"))
    assert response.status == 200
    assert response.header_value("hx-reswap") == "none"
    return value


def open_long_list(page: Page, system: AnySystem) -> str:
    """`long_document(system)` stored and opened in its editor as its owner (HTMX requests
    tracked); the editor's path."""
    page.add_init_script(TRACK_HTMX)
    created = page.request.post("/api/v1/rosters", data=long_document(system))
    assert created.status == 201, created.text()
    page.goto(created.json()["edit_url"])
    expect(page.locator("tr.entry")).to_have_count(ENTRIES)
    return urlsplit(page.url).path


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_count_changes_morph_in_exactly_what_a_fresh_page_shows(
    page: Page, systems: dict[str, AnySystem], system_id: str
) -> None:
    editor = open_long_list(page, systems[system_id])
    sent = posts(page)
    for row in (0, 5, 0, 11):
        value = change_count(page, f"{editor}/nombres", row)
        # The field the player tabbed to keeps the focus: the row's name.
        expect(page.locator(f"#entry-{row}-name")).to_be_focused()
        morphed = page.evaluate(SNAPSHOT)
        page.reload()
        expect(page.locator(f"#entry-{row}-count")).to_have_value(value)
        assert page.evaluate(SNAPSHOT) == morphed, (system_id, row, value)
    # Counts only, never the whole form: four saves, four count posts.
    assert sent == [f"{editor}/nombres"] * 4


def test_a_bad_count_is_refused_by_the_whole_form_as_before(
    page: Page, systems: dict[str, AnySystem]
) -> None:
    """« Nombre : nombre entier entre 1 et 100 » (the whole form's message, issue 7), and the
    next good value is saved by the whole form too (the page showed a value not stored)."""
    page.add_init_script(TRACK_HTMX)
    created = page.request.post("/api/v1/rosters", data=long_document(systems["dcsystem"]))
    page.goto(created.json()["edit_url"])
    editor = urlsplit(page.url).path
    sent = posts(page)
    field = page.locator("#entry-1-count")
    field.fill("0")
    refused = htmx_post(page, editor, lambda: field.press("Tab"))
    assert refused.status == 422
    expect(page.locator("#entry-1-error")).to_have_text("Nombre : nombre entier entre 1 et 100")
    assert sent == [f"{editor}/nombres", editor]
    field.fill("3")
    saved = htmx_post(page, editor, lambda: field.press("Tab"))
    assert saved.status == 200
    expect(page.locator("#entry-1-error")).to_have_count(0)
    assert sent[2:] == [editor]
    # Once a save went through, counts go alone again.
    value = change_count(page, f"{editor}/nombres", 2)
    page.reload()
    expect(page.locator("#entry-1-count")).to_have_value("3")
    expect(page.locator("#entry-2-count")).to_have_value(value)


def test_a_count_change_after_another_tab_saved_shows_the_conflict(
    page: Page, systems: dict[str, AnySystem]
) -> None:
    """The count path never overwrites another tab's save: the whole form is sent and says
    what the other tab saved (as every save does, issue 15)."""
    page.add_init_script(TRACK_HTMX)
    created = page.request.post("/api/v1/rosters", data=long_document(systems["dcsystem"]))
    page.goto(created.json()["edit_url"])
    editor = urlsplit(page.url).path
    other = page.context.new_page()
    other.add_init_script(TRACK_HTMX)
    other.goto(page.url)
    theirs = change_count(other, f"{editor}/nombres", 3)
    field = page.locator("#entry-3-count")
    field.fill("7")
    conflict = htmx_post(page, editor, lambda: field.press("Tab"))
    assert conflict.status == 409
    expect(page.locator("#conflict")).to_be_visible()
    other.reload()
    expect(other.locator("#entry-3-count")).to_have_value(theirs)
