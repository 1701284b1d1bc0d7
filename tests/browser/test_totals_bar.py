"""Issue 26 item 10: on a phone the editor's sticky totals bar leaves the list in sight. At
390 px it is at most 90 px tall on every system of the registry, with each of its example
lists (Infinity's five groups included): one line of figures, the details folded under it."""

import pytest
from playwright.sync_api import Page, expect

from app.catalogues import load_systems
from tests.browser.helpers import PHONE, TRACK_HTMX, open_new_list

pytestmark = pytest.mark.browser

BAR_MAX = 90
EXAMPLES = [
    (system_id, example.id)
    for system_id, system in load_systems().items()
    for example in system.example_rosters()
]

BAR_HEIGHT = "() => document.querySelector('#total').getBoundingClientRect().height"


@pytest.mark.parametrize(("system", "example"), EXAMPLES)
def test_the_totals_bar_is_at_most_90_px_on_a_phone(page: Page, system: str, example: str) -> None:
    page.set_viewport_size(PHONE)
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, system, example)
    bar = page.locator("#total")
    expect(bar).to_be_visible()
    height = page.evaluate(BAR_HEIGHT)
    print(f"bar {system}/{example}: {height:.0f} px")
    assert height <= BAR_MAX, (system, example, height)
    # The other totals are one tap away, under « Totaux ».
    if page.locator("#total-more").count():
        page.locator("#total-more > summary").click()
        expect(page.locator("#total-more .figure-total").first).to_be_visible()
