"""A whole form's save keeps the page's rows (issue 29, app/web/editor_parts.py): a rename, a
list name, a row's control send the whole form, and the answer morphs in only what moved.
What the page shows after such saves must be exactly what a fresh page draws from the stored
list, in every system, the tab's title following the list's name."""

import pytest
from playwright.sync_api import Page, expect

from app.systems.base import AnySystem
from tests.browser.helpers import htmx_post, type_and_leave
from tests.browser.test_editor_counts import SNAPSHOT, change_count, open_long_list, posts
from tests.conftest import SYSTEMS

pytestmark = pytest.mark.browser


def saved_whole(page: Page, editor: str, action: object) -> None:
    """`action` saves the whole form, which says the page shows what was drawn, and its
    answer keeps the rows (HX-Reswap: none); the page is then a fresh one's."""
    response = htmx_post(page, editor, action)  # type: ignore[arg-type]
    assert response.status == 200
    assert "shown=1" in (response.request.post_data or "")
    assert response.header_value("hx-reswap") == "none"
    morphed = page.evaluate(SNAPSHOT)
    page.reload()
    assert page.evaluate(SNAPSHOT) == morphed


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_whole_form_saves_morph_in_exactly_what_a_fresh_page_shows(
    page: Page, systems: dict[str, AnySystem], system_id: str
) -> None:
    editor = open_long_list(page, systems[system_id])
    sent = posts(page)
    saved_whole(page, editor, lambda: type_and_leave(page.locator("#entry-1-name"), "Le second"))
    expect(page.locator("#entry-1-name")).to_have_value("Le second")
    saved_whole(page, editor, lambda: type_and_leave(page.locator("#roster-name"), "Autre nom"))
    expect(page.locator("#editor-title")).to_have_text("Autre nom")
    assert page.title() == "Autre nom — Caserne"
    # A count change between them goes alone, as before; the next rename keeps the rows.
    change_count(page, f"{editor}/nombres", 4)
    saved_whole(page, editor, lambda: type_and_leave(page.locator("#entry-4-name"), "  Quatre "))
    expect(page.locator("#entry-4-name")).to_have_value("Quatre")
    assert sent == [editor, editor, f"{editor}/nombres", editor]


def test_a_row_control_keeps_the_rows_and_a_refused_save_draws_the_whole_form(
    page: Page, systems: dict[str, AnySystem]
) -> None:
    editor = open_long_list(page, systems["dcsystem"])
    page.locator("#entry-2-more summary").click()  # a long list folds each row's options
    renfort = page.locator("input[name=entry-2-renfort]")
    was = renfort.is_checked()
    saved_whole(page, editor, renfort.click)
    assert renfort.is_checked() is not was
    field = page.locator("#entry-1-count")
    field.fill("0")
    refused = htmx_post(page, editor, lambda: field.press("Tab"))
    assert refused.status == 422
    # The page shows a value that is not stored: the next save says nothing of the rows and
    # gets the whole form, which takes the error away.
    field.fill("2")
    again = htmx_post(page, editor, lambda: type_and_leave(page.locator("#entry-5-name"), "Cinq"))
    assert again.status == 200 and "shown=1" not in (again.request.post_data or "")
    assert again.header_value("hx-reswap") is None
    expect(page.locator("#entry-1-error")).to_have_count(0)
    # Saved: the next one keeps the rows again. (A whole form drawn again marks the add
    # panel's unit as selected, which a fresh page does not: compared after a reload.)
    kept = htmx_post(page, editor, lambda: type_and_leave(page.locator("#entry-6-name"), "Six"))
    assert "shown=1" in (kept.request.post_data or "")
    assert kept.header_value("hx-reswap") == "none"
    page.reload()
    saved_whole(page, editor, lambda: type_and_leave(page.locator("#entry-7-name"), "Sept"))
