"""The roster editor and the creators under the keyboard (issue 7): Enter in any field
removes nothing and leaves nothing half-saved; after every editor action the rows are the
stored roster's, in its order; the focus stays on or next to the control used."""

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, Request, expect

from tests.browser.helpers import (
    TRACK_HTMX,
    assert_same_document,
    htmx_post,
    mark_document,
    open_new_list,
)

pytestmark = pytest.mark.browser

EXAMPLES = {"dcsystem": "feuille_de_bataille_sg", "nolimits": "compagnie_d_assaut"}

# What a reader sees of each row: count, name, placeholder, details, costs, ticked boxes.
ROWS = """() => Array.from(document.querySelectorAll("#editor tr.entry, #editor tr.extra")).map(
  (row) => [
    row.querySelector("input.count")?.value ?? "",
    row.querySelector("input.entry-name")?.value ?? "",
    row.querySelector("input.entry-name")?.placeholder ?? "",
    row.querySelector(".details")?.innerText ?? "",
    row.querySelector(".parts")?.innerText ?? "",
    Array.from(row.querySelectorAll("td.num")).map((td) => td.innerText.trim()),
    Array.from(row.querySelectorAll("input[type=checkbox]")).map((box) => box.checked),
    row.querySelector("td:nth-child(2) > strong")?.innerText ?? "",
  ])"""
TOTAL = "#editor [data-total]"


@pytest.fixture(autouse=True)
def no_csp_violation(page: Page) -> Iterator[None]:
    """The morphing swaps run under the pages' Content-Security-Policy (no eval, no inline)."""
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield
    assert refused == []


def idle(page: Page) -> None:
    page.wait_for_function("() => window.__htmxPending === 0")


def rows_match_the_stored_roster(page: Page) -> None:
    """The rows after a morphing swap are those a fresh page draws from the stored roster."""
    idle(page)
    seen, total = page.evaluate(ROWS), page.locator(TOTAL).inner_text()
    page.reload()
    assert page.evaluate(ROWS) == seen
    expect(page.locator(TOTAL)).to_have_text(total)


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement.name || document.activeElement.id || ''"))


@pytest.mark.parametrize("system", ["dcsystem", "nolimits"])
def test_enter_in_every_editor_field_removes_nothing(page: Page, system: str) -> None:
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, system, EXAMPLES[system])
    mark_document(page)
    before = page.evaluate(ROWS)
    fields = page.locator(
        "#editor input[type=text], #editor input[type=number], #editor input:not([type])"
    )
    names = [fields.nth(i).get_attribute("name") for i in range(fields.count())]
    assert {"name", "entry-0-count", "entry-1-count", "add-count"} <= set(names)
    # Enter in the add panel's « Nombre » adds (issue 14): tests/browser/test_exact_pages.py.
    for name in [n for n in names if n != "add-count"]:
        field = page.locator(f'#editor [name="{name}"]')
        htmx_post(page, path, lambda field=field: field.press("Enter"))
        assert page.evaluate(ROWS) == before, f"Enter in {name} changed the rows"
        assert focused(page) == name, f"Enter in {name} lost the focus"
    assert_same_document(page)
    assert urlsplit(page.url).path == path
    page.reload()
    assert page.evaluate(ROWS) == before  # and nothing else was stored


@pytest.mark.parametrize("system", ["dcsystem", "nolimits"])
def test_enter_in_every_creator_field_stays_on_the_page(page: Page, system: str) -> None:
    page.add_init_script(TRACK_HTMX)
    page.goto(f"/{system}/createur")
    mark_document(page)
    added: list[Request] = []
    page.on("request", lambda r: added.append(r) if r.url.endswith("/ajouter") else None)
    fields = page.locator(
        "#creator input[type=text], #creator input[type=number], #creator input:not([type])"
    )
    names = [fields.nth(i).get_attribute("name") for i in range(fields.count())]
    assert "name" in names and "count" in names
    points = page.locator("#result [data-points]")
    cost = points.inner_text()
    for name in names:
        field = page.locator(f'#creator [name="{name}"]')
        htmx_post(page, f"/{system}/createur", lambda field=field: field.press("Enter"))
        assert focused(page) == name, f"Enter in {name} lost the focus"
    expect(points).to_have_text(cost)
    assert added == []
    assert_same_document(page)
    assert urlsplit(page.url).path == f"/{system}/createur"


def test_dcsystem_rows_follow_the_stored_roster_and_keep_the_focus(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, "dcsystem", EXAMPLES["dcsystem"])
    # A count, then Tab: saved; the focus moves on to the row's name.
    count = page.locator("#entry-1-count")
    count.fill("2")
    htmx_post(page, f"{path}/nombres", lambda: count.press("Tab"))
    assert focused(page) == "entry-1-name"
    rows_match_the_stored_roster(page)
    # The Renfort box of a row: it stays ticked and focused.
    renfort = page.locator("#entry-2").get_by_label("Groupe Renfort (non compté)")
    htmx_post(page, path, lambda: renfort.check())
    expect(renfort).to_be_checked()
    expect(renfort).to_be_focused()
    rows_match_the_stored_roster(page)
    # A hidden move: a line of the table, and the rows add up to the total.
    move = page.locator("#hidden-moves").get_by_label("Traître")
    htmx_post(page, path, lambda: move.check())
    expect(move).to_be_focused()
    rows_match_the_stored_roster(page)
    cells = page.locator("#editor td.num[data-label=Total]").all_inner_texts()
    total = sum(int(cell.split()[0]) for cell in cells)
    expect(page.locator(TOTAL)).to_have_text(str(total))
    # Ajouter keeps the focus on Ajouter, and clears its count.
    page.locator("#add-unit").select_option("jaffa")
    page.locator("#add-count").fill("3")
    idle(page)
    add = page.locator("#add")
    htmx_post(page, path, lambda: add.click())
    expect(add).to_be_focused()
    expect(page.locator("#add-count")).to_have_value("")
    expect(page.locator("#add-unit")).to_have_value("jaffa")
    expect(page.locator("#entry-3-count")).to_have_value("3")
    expect(page.locator("#editor .flash.ok")).to_have_text("Ajouté : 3 × Jaffa.")
    rows_match_the_stored_roster(page)
    # Retirer on row 0: the next row's Retirer takes its place, under the focus.
    remove = page.locator("#entry-0 td.remove button")
    htmx_post(page, path, lambda: remove.click())
    expect(page.locator("tr.entry")).to_have_count(3)
    assert page.evaluate("document.activeElement.value") == "remove:0"
    rows_match_the_stored_roster(page)
    # Retirer on the last row: the focus goes to the unit to add, never back to the top.
    last = page.locator("#entry-2 td.remove button")
    htmx_post(page, path, lambda: last.click())
    expect(page.locator("tr.entry")).to_have_count(2)
    expect(page.locator("#add-unit")).to_be_focused()
    rows_match_the_stored_roster(page)


def test_nolimits_rows_follow_the_stored_roster_after_a_leader(page: Page) -> None:
    """Issue 7, blocking 2: ticking a leader must not shift the later rows' names."""
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, "nolimits", EXAMPLES["nolimits"])
    third = page.locator("#entry-2")
    leader = third.get_by_label("Chef d'unité (Sergent)")
    htmx_post(page, path, lambda: leader.check())
    expect(leader).to_be_focused()
    titan = page.locator("#entry-4")
    expect(titan.locator("input.entry-name")).to_have_attribute("placeholder", "Titan Destroyer")
    expect(titan.locator(".details")).not_to_contain_text("Sergent")
    expect(titan.locator(".details .badge")).not_to_contain_text(["Général d'armée"])
    expect(titan.locator("td.num").last).to_have_text("350")
    expect(third.locator(".parts")).to_contain_text("Sergent (chef d'unité)")
    rows_match_the_stored_roster(page)
    # The general moves to the Titan; a count changes; a section leaves.
    general = titan.get_by_label("Général", exact=True)
    htmx_post(page, path, lambda: general.check())
    rows_match_the_stored_roster(page)
    count = page.locator("#entry-3-count")
    count.fill("5")
    htmx_post(page, f"{path}/nombres", lambda: count.press("Tab"))
    rows_match_the_stored_roster(page)
    htmx_post(page, path, lambda: page.locator("#entry-1 td.remove button").click())
    expect(page.locator("tr.entry")).to_have_count(4)
    rows_match_the_stored_roster(page)


def test_a_bad_count_keeps_the_table_and_says_the_range(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, "nolimits", EXAMPLES["nolimits"])
    before = page.evaluate(ROWS)
    count = page.locator("#entry-1-count")
    # The range the message states is the input's own (the engine's bounds).
    allowed = f"entre {count.get_attribute('min')} et {count.get_attribute('max')}"
    for bad in ("0", "-3", "500"):
        count.fill(bad)
        response = htmx_post(page, path, lambda: count.press("Tab"))
        assert response.status == 422
        expect(page.locator("#entry-1-error")).to_have_text(f"Nombre : nombre entier {allowed}")
        expect(count).to_have_attribute("aria-invalid", "true")
        expect(page.locator("tr.entry")).to_have_count(len(before))
        titan = page.locator("#entry-4 input.entry-name")
        expect(titan).to_have_attribute("placeholder", "Titan Destroyer")
        expect(page.locator(TOTAL)).not_to_be_empty()
    page.reload()
    assert page.evaluate(ROWS) == before  # nothing was stored


CHANGE_TO_TOTAL = """async (value) => {
  const input = document.querySelector("#entry-25-count");
  const total = () => document.querySelector("#editor [data-total]").textContent;
  const before = total();
  input.value = value;
  const start = performance.now();
  input.dispatchEvent(new Event("change", {bubbles: true}));
  await new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (total() !== before) { watch.disconnect(); resolve(); }
    });
    const what = {subtree: true, childList: true, characterData: true};
    watch.observe(document.querySelector("#editor"), what);
  });
  return performance.now() - start;
}"""


def test_a_count_change_on_a_50_entry_list_shows_its_total_quickly(page: Page) -> None:
    """Issue 7: at most 100 ms from a count's change to the new total (no debounce, a
    morphing swap); the bound here leaves room for a shared CI machine."""
    page.add_init_script(TRACK_HTMX)
    document = {"system": "dcsystem", "name": "Cinquante", "entries": [{"unit": "jaffa"}] * 50}
    created = page.request.post("/api/v1/rosters", data=document)
    assert created.status == 201, created.text()
    page.goto(created.json()["edit_url"])
    expect(page.locator("tr.entry")).to_have_count(50)
    times = []
    for value in ("2", "3", "4", "5", "6", "2", "3", "4", "5", "6", "2"):
        times.append(page.evaluate(CHANGE_TO_TOTAL, value))
        idle(page)
    median = sorted(times[1:])[len(times[1:]) // 2]
    print(f"count change to new total, 50 entries: median {median:.0f} ms")
    assert median <= 150, times


def test_without_javascript_enter_saves_and_removes_nothing(
    new_context: Callable[..., BrowserContext],
) -> None:
    page = new_context(java_script_enabled=False).new_page()
    document = {
        "system": "dcsystem",
        "name": "Sans script",
        "entries": [{"unit": "jaffa", "count": 2}, {"unit": "chef_de_groupe_sg"}],
    }
    created = page.request.post("/api/v1/rosters", data=document)
    assert created.status == 201, created.text()
    page.goto(created.json()["edit_url"])
    save = page.locator("#editor .default-submit")
    expect(save).to_be_visible()  # the form's default button, shown when scripts are off
    for field in ("#roster-name", "#entry-0-count", "#entry-1-name", "#add-count"):
        with page.expect_navigation() as navigation:
            page.locator(field).press("Enter")
        response = navigation.value
        assert response is not None and response.request.method == "POST"
        assert response.status == 200
        expect(page.locator("tr.entry")).to_have_count(2)
        expect(page.locator("#entry-0-count")).to_have_value("2")


# Each system's first example, its entries repeated to 50 (Infinity 45: its AVA), as
# bench/browser_bench.py times them.
LONG_LISTS = {"dcsystem": 50, "infinity": 45, "nolimits": 50, "bastos": 50, "necrowarzone": 50}


def open_long_list(page: Page, systems: dict[str, Any], system_id: str) -> int:
    """Stores the system's first example, its entries repeated to LONG_LISTS' size, opens
    its editor and returns its size."""
    page.add_init_script(TRACK_HTMX)
    example = systems[system_id].example_rosters()[0].document
    size = LONG_LISTS[system_id]
    entries = [example["entries"][i % len(example["entries"])] for i in range(size)]
    document = {**example, "entries": entries, "points_limit": 100000}
    created = page.request.post("/api/v1/rosters", data=document)
    assert created.status == 201, created.text()
    page.goto(created.json()["edit_url"])
    expect(page.locator("tr.entry")).to_have_count(size)
    return size


@pytest.mark.parametrize("system_id", list(LONG_LISTS))
def test_a_count_change_on_a_long_list_changes_its_totals_on_screen(
    page: Page, systems: dict[str, Any], system_id: str
) -> None:
    """Issue 19: on every system a count change shows new totals (points where the system
    has them, figure counts in Bastos and Necromunda–Warzone), the stored list's: those a
    fresh page shows. No timing is asserted here: bench/browser_bench.py measures it."""
    size = open_long_list(page, systems, system_id)
    count = page.locator(f"#entry-{size // 2}-count")
    for _ in range(2):
        before = page.locator("#total").inner_text()
        value = "2" if count.input_value() == "1" else "1"
        count.fill(value)
        count.dispatch_event("change")
        expect(page.locator("#total")).not_to_have_text(before)
        idle(page)
        shown = page.locator("#total").inner_text()
        page.reload()
        assert page.locator("#total").inner_text() == shown


TIMED_CHANGE = """async ([selector, value]) => {
  const input = document.querySelector(selector);
  const total = () => document.querySelector("#total").textContent;
  const before = total();
  input.value = value;
  const start = performance.now();
  input.dispatchEvent(new Event("change", {bubbles: true}));
  await new Promise((resolve, reject) => {
    const watch = new MutationObserver(() => {
      if (total() !== before) { clearTimeout(timer); watch.disconnect(); resolve(); }
    });
    const timer = setTimeout(() => {
      watch.disconnect();
      reject(new Error(`the total stayed « ${before} » for 10 s`));
    }, 10000);
    const what = {subtree: true, childList: true, characterData: true};
    watch.observe(document.body, what);
  });
  return performance.now() - start;
}"""


@pytest.mark.parametrize("system_id", list(LONG_LISTS))
def test_a_count_change_on_a_long_list_shows_its_total_quickly(
    page: Page, systems: dict[str, Any], system_id: str
) -> None:
    """Issue 19, on every system: from a count's change to the new total on screen. The
    target is 60 ms on an idle machine (bench/browser_bench.py measures it); the bound here
    leaves room for a shared CI machine running the suite."""
    size = open_long_list(page, systems, system_id)
    selector = f"#entry-{size // 2}-count"
    times = []
    for _ in range(9):
        value = "2" if page.locator(selector).input_value() == "1" else "1"
        times.append(page.evaluate(TIMED_CHANGE, [selector, value]))
        idle(page)
    median = sorted(times[1:])[len(times[1:]) // 2]  # the first warms the caches
    print(f"{system_id}: count change to new total, {size} entries: median {median:.0f} ms")
    assert median <= 150, times
