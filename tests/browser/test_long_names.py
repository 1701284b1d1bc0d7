"""Issue 26 item 15: a 100-character name without spaces does not widen « Mes listes » (it
measured 945 px at 390 after a rename: the message naming it), nor its delete confirmation
or its rename field."""

import pytest
from playwright.sync_api import Page

from tests.browser.helpers import DESKTOP, PHONE, open_new_list

pytestmark = pytest.mark.browser

LONG = "Nomdelistesansespace" * 5  # 100 characters


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_long_name_without_spaces_fits(page: Page, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    page.goto("/listes")
    # Renamed from « Mes listes »: its message names the list too.
    page.locator("#library details.rename > summary").first.click()
    page.locator("#library details.rename input[name=name]").first.fill(LONG)
    page.locator("#library details.rename button").first.click()
    page.wait_for_url("**/listes*")
    widths = {"renamed": page.evaluate("document.documentElement.scrollWidth")}
    assert LONG in page.content()
    widths["listes"] = page.evaluate("document.documentElement.scrollWidth")
    page.locator("#library .actions button.danger").first.click()
    widths["confirm"] = page.evaluate("document.documentElement.scrollWidth")
    page.goto(page.url.split("/listes")[0] + "/listes")
    page.locator("#library details.rename > summary").first.click()
    widths["rename"] = page.evaluate("document.documentElement.scrollWidth")
    print(viewport["width"], widths)
    assert all(w <= viewport["width"] for w in widths.values()), widths
