"""Keyboard use of the roster editor: leaving a field never presses the next button.

htmx sends the focused submit button with a form's next request; the editor saves on
`change`, which fires as the focus moves on, often onto "Ajouter" or "Partager"."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import open_new_list

pytestmark = pytest.mark.browser


def test_tab_from_a_field_onto_a_button_saves_without_pressing_it(page: Page) -> None:
    open_new_list(page, "nolimits")
    roster_url = page.url

    def saved(response: object) -> bool:
        return response.request.method == "POST" and response.url == roster_url  # type: ignore[attr-defined]

    # The count field is followed by "Ajouter": Tab must not add the unit.
    page.locator("#add-count").fill("5")
    with page.expect_response(saved):
        page.locator("#add-count").press("Tab")
        assert page.evaluate("document.activeElement.value") == "add"  # on "Ajouter"
    expect(page.locator("tr.entry")).to_have_count(0)

    # The army field is followed by "Partager": Tab must save, not share.
    page.locator("input[name=army]").fill("Humains")
    with page.expect_response(saved):
        page.locator("input[name=army]").press("Tab")
        assert page.evaluate("document.activeElement.id") == "share"
    assert page.url == roster_url
    page.reload()
    expect(page.locator("input[name=army]")).to_have_value("Humains")
    expect(page.locator("tr.entry")).to_have_count(0)
