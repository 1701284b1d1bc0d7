"""Issue 7: "Retirer" can be undone. The flash names what was removed and its "Annuler" puts
the entry back at its place (a normal save, action "undo"), focused, in both systems."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import TRACK_HTMX, htmx_post, open_new_list
from tests.browser.test_editor_actions import EXAMPLES, ROWS, TOTAL, rows_match_the_stored_roster

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("system", list(EXAMPLES))
def test_annuler_puts_the_removed_entry_back_at_its_place(page: Page, system: str) -> None:
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, system, EXAMPLES[system])
    before, total = page.evaluate(ROWS), page.locator(TOTAL).inner_text()
    name = page.locator("#entry-1-name")
    label = name.input_value() or name.get_attribute("placeholder")

    htmx_post(page, path, lambda: page.locator("#entry-1 td.remove button").click())
    flash = page.locator("#editor .flash")
    expect(flash).to_contain_text(f"« {label} » retiré.")
    assert len(page.evaluate(ROWS)) == len(before) - 1

    # Annuler, from the keyboard.
    undo = page.locator("#undo")
    expect(undo).to_have_text("Annuler")
    undo.focus()
    htmx_post(page, path, lambda: undo.press("Enter"))
    expect(flash).to_contain_text(f"« {label} » remis à sa place.")
    # Back where it stood: rows, costs and total as before the removal, after a reload too.
    assert page.evaluate(ROWS) == before
    expect(page.locator("#entry-1-count")).to_be_focused()
    page.reload()
    assert page.evaluate(ROWS) == before
    expect(page.locator(TOTAL)).to_have_text(total)


def test_undo_is_not_taken_by_a_later_change(page: Page) -> None:
    """The flash's hidden entry rides along with the next save; only "Annuler" uses it."""
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, "dcsystem", EXAMPLES["dcsystem"])
    count = len(page.evaluate(ROWS))
    htmx_post(page, path, lambda: page.locator("#entry-0 td.remove button").click())
    expect(page.locator("#undo")).to_be_visible()
    field = page.locator("#entry-0-count")
    htmx_post(page, f"{path}/nombres", lambda: (field.fill("2"), field.press("Tab")))
    expect(page.locator("#undo")).to_have_count(0)
    rows_match_the_stored_roster(page)
    assert len(page.evaluate(ROWS)) == count - 1
