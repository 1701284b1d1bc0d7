"""Issue 7: on a long list (more than 8 entries) each editor row folds its profile and
options; its issues stay in sight with a count; a row opened stays open through saves."""

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import TRACK_HTMX, htmx_post, type_and_leave

pytestmark = pytest.mark.browser


def open_through_the_api(page: Page, system: str, entries: int) -> str:
    """A list of `entries` rows (the system's first example, repeated) created through the
    API, opened with its edit link; the editor's path."""
    catalogue: dict[str, Any] = page.request.get(f"/api/v1/systems/{system}/catalogue").json()
    document = catalogue["examples"][0]["document"]
    rows = document["entries"]
    document["entries"] = [rows[i % len(rows)] for i in range(entries)]
    document["points_limit"] = 100  # over the limit: some rows carry issues
    created = page.request.post("/api/v1/rosters", data=document)
    assert created.status == 201, created.text()
    page.goto(created.json()["edit_url"])
    page.wait_for_url("**/r/*")
    return urlsplit(page.url).path


def test_long_lists_fold_each_row_and_keep_issues_in_sight(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    path = open_through_the_api(page, "nolimits", 10)
    folds = page.locator("tr.entry details.entry-more")
    expect(folds).to_have_count(10)
    for index in range(10):
        expect(folds.nth(index)).not_to_have_attribute("open", "")
        expect(page.locator(f"#entry-{index} .details")).to_be_hidden()
    # A row with issues shows them folded, and counts them in its summary.
    with_issues = page.locator("tr.entry:has(ul.issues)").first
    expect(with_issues.locator("ul.issues")).to_be_visible()
    count = with_issues.locator("ul.issues li").count()
    expect(with_issues.locator(".issue-count")).to_contain_text(str(count))

    # Opened from the keyboard; a save elsewhere leaves it open, with its controls.
    summary = page.locator("#entry-2-more summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#entry-2 .details")).to_be_visible()
    htmx_post(page, f"{path}/nombres", lambda: type_and_leave(page.locator("#entry-5-count"), "2"))
    expect(page.locator("#entry-2-more")).to_have_attribute("open", "")
    expect(page.locator("#entry-2 .details")).to_be_visible()
    expect(page.locator("#entry-5-more")).not_to_have_attribute("open", "")


def test_short_lists_do_not_fold(page: Page) -> None:
    open_through_the_api(page, "dcsystem", 8)
    expect(page.locator("tr.entry")).to_have_count(8)
    expect(page.locator("details.entry-more")).to_have_count(0)
    expect(page.locator("#entry-0 .details")).to_be_visible()
