"""Issue 7: search and filter. The catalogues of DCSystem and No Limits filter their cards by
name and army or category, the editor's "add a unit" select by name; all in the page (no
request), with the keyboard; without JavaScript every card and option stays visible."""

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.helpers import TRACK_HTMX, htmx_post, open_new_list

pytestmark = pytest.mark.browser

CARDS = "#armies [data-filter-name]"


def visible_names(page: Page, selector: str) -> list[str]:
    return page.eval_on_selector_all(
        selector, "(els) => els.filter((el) => !el.hidden).map((el) => el.dataset.filterName)"
    )


def test_dcsystem_catalogue_filters_by_name_and_army(page: Page) -> None:
    requests: list[str] = []
    page.goto("/dcsystem/catalogue")
    page.on(
        "request",
        lambda request: requests.append(request.url) if request.method != "GET" else None,
    )
    total = page.locator(CARDS).count()
    # From the keyboard: the name field, typed without accents or capitals.
    page.locator("#filter-text").focus()
    page.keyboard.type("medecin")
    assert visible_names(page, CARDS) == ["Médecin / infirmier groupe SG"]
    expect(page.locator("[data-filter-count]")).to_have_text(f"1 sur {total}")
    page.keyboard.press("Enter")  # nothing to submit, nothing happens
    # Every army section without a match is hidden with its title.
    expect(page.locator("section.army:not([hidden])")).to_have_count(1)
    page.locator("#filter-text").fill("")
    page.locator("#filter-text").dispatch_event("input")
    assert len(visible_names(page, CARDS)) == total
    # An army: only its cards.
    page.locator("#filter-group").focus()
    page.locator("#filter-group").select_option("wraith")
    expect(page.locator("section.army:not([hidden])")).to_have_count(1)
    expect(page.locator("section#wraith")).to_be_visible()
    # Both: a name outside the army shows nothing, and says so.
    page.locator("#filter-text").fill("sniper")
    page.locator("#filter-text").dispatch_event("input")
    assert visible_names(page, CARDS) == []
    expect(page.locator("[data-filter-count]")).to_have_text("Aucun résultat")
    expect(page.locator("[data-filter-empty]")).to_be_visible()
    assert requests == []  # filtered in the page: nothing sent


def test_nolimits_catalogue_filters_profiles_and_units_by_category(page: Page) -> None:
    page.goto("/nolimits/catalogue")
    every = "#profils [data-filter-name], #unites [data-filter-name]"
    total = page.locator(every).count()
    page.locator("#filter-group").select_option("profil")
    expect(page.locator("#unites")).to_be_hidden()
    expect(page.locator("#profils")).to_be_visible()
    first_category = page.locator("#filter-group option").nth(2).get_attribute("value")
    page.locator("#filter-group").select_option(first_category)
    expect(page.locator("#profils")).to_be_hidden()
    shown = page.locator("#unites [data-filter-name]:not([hidden])")
    assert 0 < shown.count() < total
    for index in range(shown.count()):
        assert shown.nth(index).get_attribute("data-filter-group") == first_category
    page.locator("#filter-group").select_option("")
    page.locator("#filter-text").fill("titan")
    page.locator("#filter-text").dispatch_event("input")
    names = visible_names(page, every)
    assert names and all("titan" in name.lower() for name in names)


def test_the_editors_add_select_narrows_to_what_is_typed(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    path = open_new_list(page, "dcsystem")
    select = page.locator("#add-unit")
    total = select.locator("option").count()
    field = page.locator("#add-filter")
    field.focus()
    page.keyboard.type("sniper")
    shown = select.locator("option:not([hidden])")
    expect(shown).to_have_count(1)
    expect(shown).to_contain_text("Sniper groupe SG")
    expect(page.locator("#add-filter-count")).to_have_text(f"1 sur {total}")
    assert select.evaluate("(s) => s.selectedOptions[0].textContent").startswith("Sniper")
    # Enter in the filter neither saves nor adds; Tab leaves it without a save either.
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__htmxPending") == 0
    expect(page.locator("tr.entry")).to_have_count(0)
    htmx_post(page, path, lambda: page.locator("#add").click())
    expect(page.locator("tr.entry")).to_have_count(1)
    expect(page.locator("#entry-0-name")).to_have_attribute("placeholder", "Sniper groupe SG")
    # The save morphed the form: the filter and its narrowed options are still there.
    expect(field).to_have_value("sniper")
    expect(shown).to_have_count(1)


def test_without_javascript_every_card_and_option_stays_visible(
    new_context: Callable[..., BrowserContext],
) -> None:
    page = new_context(java_script_enabled=False).new_page()
    page.goto("/dcsystem/catalogue")
    expect(page.locator(".card-filter")).to_be_hidden()
    cards = page.locator(CARDS)
    for index in range(cards.count()):
        expect(cards.nth(index)).to_be_visible()
    page.goto("/nolimits/catalogue")
    expect(page.locator(".card-filter")).to_be_hidden()
    expect(page.locator("#unites [data-filter-name]").first).to_be_visible()
