"""Issue 26, item 15: the link fields (share, carnet, campaign join) were too narrow to read
the link. Each now takes its box's whole width, at 390 and at 1280 px."""

import pytest
from playwright.sync_api import Page

from tests.browser.helpers import open_new_list
from tests.browser.test_play_sheets import fifty_dcsystem_entries, share

pytestmark = pytest.mark.browser


def widths(page: Page, selector: str) -> dict[str, float]:
    """The field's width, its box's content width, and how much of the link overflows."""
    return page.eval_on_selector(
        selector,
        """field => {
            const box = field.closest('.copy-field');
            const style = getComputedStyle(box);
            const inner = box.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight);
            return {field: field.getBoundingClientRect().width, box: inner,
                    hidden: field.scrollWidth - field.clientWidth};
        }""",
    )


@pytest.mark.parametrize("width", [390, 1280])
def test_link_fields_take_the_whole_width(page: Page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 844})
    code = share(page, fifty_dcsystem_entries(page))
    open_new_list(page, "dcsystem")
    page.goto("/campagnes/nouvelle")
    page.locator("#campaign-system").select_option("necrowarzone")
    page.locator("#campaign-name").fill("Ruche")
    page.locator("#create-campaign").click()
    page.wait_for_selector("#join-url")
    found = {"#join-url": widths(page, "#join-url")}
    page.goto("/listes")
    page.locator("#carnet summary").click()
    found["#carnet-link-value"] = widths(page, "#carnet-link-value")
    page.goto(code)
    found["#public-link"] = widths(page, "#public-link")
    for selector, sizes in found.items():
        assert sizes["field"] >= sizes["box"] - 1, (selector, width, sizes)
        if width == 1280:
            assert sizes["hidden"] <= 0, (selector, sizes)  # the whole link is shown
