"""A heavy player's carnet in Chromium (issue 15): 300 lists made through the pages
(examples, new lists, duplicates) ride on one carnet cookie, « Mes listes » shows them all
and each opens for editing; a second browser opens the carnet link and edits one; once the
key is changed, the old link and the old cookie open nothing and the owner's browser keeps
working.

The lists are made by the pages' own form posts: a few by clicking, as a player does, the
rest by the same requests sent from the page in a loop (`fetch`, same origin, the browser's
cookies), which keeps the test near a minute on two cores. Rate limits are off for this
server only (a heavy player makes 300 lists over weeks, not in a minute)."""

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.catalogues import load_systems
from app.settings import Settings
from tests.browser.conftest import serving
from tests.conftest import SYSTEMS

pytestmark = pytest.mark.browser

LISTS = 300
CASERNE_COOKIES = 3
COOKIE_HEADER_BYTES = 1024

# The page's own form posts, sent from the page: `follow` keeps the editor's final URL (a
# made list opens in its editor: 200 means it opens for editing).
POST_FORMS = """async (forms) => {
  const out = [];
  for (const [url, fields, follow] of forms) {
    const response = await fetch(url, {
      method: "POST", body: new URLSearchParams(fields), redirect: follow ? "follow" : "manual",
    });
    out.push([response.status, response.url]);
  }
  return out;
}"""
OPEN_ALL = """async (paths) => {
  const statuses = [];
  for (let i = 0; i < paths.length; i += 6) {
    const batch = paths.slice(i, i + 6).map((p) => fetch(p).then((r) => r.status));
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}"""


@pytest.fixture(scope="module")
def live_server(database_url: str) -> Iterator[str]:
    settings = Settings(
        database_url=database_url,
        rate_limit_create="",
        rate_limit_write="",
        rate_limit_share="",
        rate_limit_stored="",  # 300 lists from one address in a minute or two
    )
    with serving(settings) as url:
        yield url


PAGE = 24  # « Mes listes » shows 24 lists a page (issue 26 item 11)


def library_ids(page: Page) -> list[str]:
    """Every list « Mes listes » shows, page after page (issue 26 item 11: 24 a page; a
    page past the last shows the last one again)."""
    ids: list[str] = []
    for number in range(1, 100):
        page.goto(f"/listes?page={number}")
        shown: list[str] = page.eval_on_selector_all(
            "#library article", "(cards) => cards.map((c) => c.id.replace('roster-', ''))"
        )
        if not shown or shown[0] in ids:
            break
        ids += shown
    return ids


def caserne_cookies(context: BrowserContext) -> list[dict[str, Any]]:
    return [c for c in context.cookies() if c["name"].startswith("caserne")]


def test_three_hundred_lists_on_one_cookie_and_the_carnet_on_another_device(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    started = time.monotonic()
    # Service workers blocked: the Cookie header read below is the one the network sees (a
    # request a service worker answers or forwards shows Playwright no cookie at all).
    owner = new_context(service_workers="block")
    page = owner.new_page()
    examples = [
        (system.id, example.id)
        for system in load_systems().values()
        for example in system.example_rosters()
    ]

    # As a player does: an example from the home page, a new list, a duplicate.
    page.goto("/")
    system, example = examples[0]
    page.locator(f"#system-{system} form[action='/listes']").filter(
        has=page.locator(f"input[name=example][value='{example}']")
    ).get_by_role("button").click()
    page.wait_for_url(re.compile(r"/r/\w+$"))
    page.goto("/listes/nouvelle?system=dcsystem")
    page.locator("#new-name").fill("Première à la main")
    page.locator("#new-name").press("Enter")
    page.wait_for_url(re.compile(r"/r/\w+$"))
    page.goto("/listes")
    page.locator("#library article").first.get_by_role("button", name="Dupliquer").click()
    expect(page.locator("#library-message")).to_contain_text("Copie créée")
    made = 3

    # The same form posts in a loop: examples, new lists, then duplicates.
    forms: list[list[Any]] = []
    for index in range(150 - made):
        system, example = examples[index % len(examples)]
        forms.append(["/listes", {"system": system, "example": example}, True])
    for index in range(90):
        system = SYSTEMS[index % len(SYSTEMS)]
        forms.append(["/listes/nouvelle", {"system": system, "name": f"Liste {index}"}, True])
    answers = page.evaluate(POST_FORMS, forms)
    assert all(status == 200 for status, _url in answers), answers[:5]
    opened = [re.sub(r".*/r/", "", url) for _status, url in answers]
    duplicates = [[f"/listes/{roster_id}/dupliquer", {}, False] for roster_id in opened[:60]]
    assert all(status in (0, 303) for status, _ in page.evaluate(POST_FORMS, duplicates))
    made_in = time.monotonic() - started

    # One carnet cookie (and the CSRF one) whatever the number of lists; a small header.
    mine = caserne_cookies(owner)
    assert len(mine) <= CASERNE_COOKIES, [c["name"] for c in mine]
    with page.expect_request(re.compile(r"/listes$")) as sent:
        page.goto("/listes")
    header = sent.value.header_value("cookie") or ""
    assert 0 < len(header.encode()) < COOKIE_HEADER_BYTES, header
    shown = time.monotonic()
    ids = library_ids(page)
    library_seconds = time.monotonic() - shown
    assert len(ids) == LISTS and len(set(ids)) == LISTS
    statuses = page.evaluate(OPEN_ALL, [f"/r/{roster_id}" for roster_id in ids])
    assert statuses == [200] * LISTS

    # A second browser opens the carnet link and edits one of those lists.
    page.locator("#carnet summary").click()
    link = page.locator("#carnet-link-value").input_value()
    other = new_context().new_page()
    other.goto(link)
    other.locator("#adopt").click()  # the link asks; the click opens the carnet
    other.wait_for_url(re.compile(r"/listes$"))
    expect(other.locator("#library article")).to_have_count(PAGE)
    target = ids[-1]
    other.goto(f"/r/{target}")
    with other.expect_response(
        lambda r: r.url.endswith(f"/r/{target}") and r.request.method == "POST"
    ):
        other.locator("#roster-name").fill("Modifiée sur le téléphone")
        other.locator("#roster-name").press("Tab")
    page.goto(f"/r/{target}")
    expect(page.locator("#roster-name")).to_have_value("Modifiée sur le téléphone")

    # The key changes: the old link and the old cookie open nothing; the owner keeps going.
    page.goto("/listes")
    page.locator("#carnet summary").click()
    page.locator("#rotate-key").click()
    page.locator("#confirm-rotate-button").click()  # it asks first
    expect(page.locator("#library-message")).to_contain_text("Nouvelle clé")
    assert page.locator("#carnet-link-value").input_value() != link
    expect(page.locator("#library article")).to_have_count(PAGE)
    assert page.goto(f"/r/{target}").status == 200  # type: ignore[union-attr]
    refused = other.goto("/listes")
    assert refused is not None and refused.status == 403
    expect(other.locator("main")).to_contain_text("La clé de ce carnet a été changée")
    assert other.goto(f"/r/{target}").status == 403  # type: ignore[union-attr]
    third = new_context().new_page()
    assert third.goto(link).status == 403  # type: ignore[union-attr]
    print(
        f"\n{LISTS} lists made in {made_in:.1f} s; « Mes listes » with {LISTS} cards in "
        f"{library_seconds:.2f} s; Cookie header {len(header.encode())} bytes, "
        f"{len(mine)} Caserne cookies; whole test {time.monotonic() - started:.1f} s"
    )
