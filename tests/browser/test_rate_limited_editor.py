"""A save refused by the write limit keeps the editor as typed (issue 13, finding 6: htmx
swapped the 429 page into the form, two <main> and the inputs gone, the change lost)."""

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from app.settings import Settings
from tests.browser.conftest import serving
from tests.browser.helpers import (
    TRACK_HTMX,
    assert_same_document,
    htmx_post,
    mark_document,
    open_new_list,
)

pytestmark = pytest.mark.browser

WRITES = 3  # the limit of this module's server: three saves a minute


@pytest.fixture(scope="module")
def live_server(database_url: str) -> Iterator[str]:
    """The live server of conftest.py, with a write limit a test reaches in a few saves."""
    with serving(Settings(database_url=database_url, rate_limit_write=f"{WRITES}/minute")) as url:
        yield url


def test_a_refused_save_keeps_the_form_and_says_when_to_retry(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    page.goto(path)
    mark_document(page)
    count = page.locator("#entry-0-count")
    for value in range(2, 2 + WRITES):
        saved = htmx_post(
            page, f"{path}/nombres", lambda v=value: (count.fill(str(v)), count.press("Tab"))
        )
        assert saved.status == 200
    # The next save is over the limit.
    refused = htmx_post(
        page,
        path,
        lambda: (
            count.fill("9"),
            page.locator("#entry-0-name").fill("Sergent"),
            page.locator("#entry-0-name").press("Tab"),
        ),
    )
    assert refused.status == 429
    assert_same_document(page)
    # The form is the one typed in: one <main>, the inputs there, the values kept.
    expect(page.locator("main")).to_have_count(1)
    expect(count).to_have_value("9")
    expect(page.locator("#entry-0-name")).to_have_value("Sergent")
    expect(page.locator("#editor input[name=version]")).to_have_count(1)
    # Said in French, with when to retry, in a region announced to screen readers.
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("role", "alert")
    expect(notice).to_have_text(re.compile(r"Réessayez dans \d+ secondes?\."))
    expect(notice).to_contain_text("restent dans le formulaire")
