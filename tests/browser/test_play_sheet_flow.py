"""Issue 7: the play sheet of a share of every system fits a phone (no sideways scroll at
390 px), passes axe, and prints a few cards per page, none split across two pages."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import DESKTOP, PHONE, run_axe
from tests.conftest import SYSTEMS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def sheets(browser: Browser, live_server: str) -> Iterator[dict[str, str]]:
    """The share code of each system's first example, stored and shared through the API."""
    context = browser.new_context(base_url=live_server)
    codes = {}
    for system in SYSTEMS:
        catalogue: dict[str, Any] = context.request.get(
            f"/api/v1/systems/{system}/catalogue"
        ).json()
        created = context.request.post("/api/v1/rosters", data=catalogue["examples"][0]["document"])
        body = created.json()
        auth = {"Authorization": f"Bearer {body['edit_token']}"}
        shared = context.request.post(f"/api/v1/rosters/{body['id']}/shares", headers=auth)
        codes[system] = shared.json()["code"]
    yield codes
    context.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_play_sheet_fits_a_phone_and_passes_axe(
    page: Page, sheets: dict[str, str], system: str
) -> None:
    code = sheets[system]
    page.goto(f"/s/{code}")
    page.locator("#play-sheet").click()
    # A long list (Infinity's 14 entries) opens its compact sheet (issue 26).
    page.wait_for_url(re.compile(rf"/s/{code}/feuille(\?compacte=1)?$"))
    expect(page.locator(".sheet-card").first).to_be_visible()
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert run_axe(page) == []
    # Printed: a few cards per page, each whole (no card split over two pages).
    page.emulate_media(media="print")
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.locator(".sheet-head button")).to_be_hidden()
    assert (
        page.locator(".sheet-card").first.evaluate("(el) => getComputedStyle(el).breakInside")
        == "avoid"
    )
    # Full: two columns of cards (CSS columns since issue 26: a short card under a short
    # one); compact: a grid of four.
    style = page.locator(".sheet-cards").evaluate(
        "(el) => [getComputedStyle(el).columnCount, getComputedStyle(el).gridTemplateColumns]"
    )
    if "compacte" in page.url:
        assert style[1].count(" ") == 3, style
    else:
        assert style[0] == "2", style


def test_no_limits_damage_track_is_boxes_on_the_share_page_and_in_print(
    page: Page, sheets: dict[str, str]
) -> None:
    code = sheets["nolimits"]
    for path in (f"/s/{code}", f"/s/{code}/feuille"):
        page.goto(path)
        page.emulate_media(media="print")
        track = page.locator("table.damage-track").first
        expect(track).to_be_visible()
        expect(track.locator("td.box.mv").first).to_have_text("Mv")
        expect(page.locator(".legend").first).to_be_visible()
        page.emulate_media(media="screen")
