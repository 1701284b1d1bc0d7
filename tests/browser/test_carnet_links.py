"""Issue 25, item 2 (login CSRF) in Chromium: a page on another site sending a fresh browser
to the attacker's carnet link (or to an edit link) by a meta refresh leaves that browser
without a carnet; the page asks, and a player who opens their own link clicks to open it."""

import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.helpers import open_new_list
from tests.browser.test_security import AttackerSite

pytestmark = pytest.mark.browser

CARNET_COOKIE = "caserne_carnet"


@pytest.fixture
def other_site() -> Iterator[AttackerSite]:
    site = AttackerSite()
    # `localhost` and `127.0.0.1` are two sites: a navigation from there is cross-site.
    site.url = site.url.replace("127.0.0.1", "localhost")
    yield site
    site.close()


def refresh_to(site: AttackerSite, target: str) -> None:
    site.page = f'<!doctype html><meta http-equiv="refresh" content="0;url={target}">'.encode()


def carnet_cookies(context: BrowserContext) -> list[str]:
    return [c["value"] for c in context.cookies() if c["name"] == CARNET_COOKIE]


def test_a_link_from_another_site_gives_no_carnet(
    new_context: Callable[..., BrowserContext], live_server: str, other_site: AttackerSite
) -> None:
    # The attacker's carnet, with one list, and an edit link (the API's).
    carnet = httpx.post(f"{live_server}/api/v1/carnets").json()
    bearer = {"Authorization": f"Bearer {carnet['key']}"}
    made = httpx.post(
        f"{live_server}/api/v1/carnets/{carnet['id']}/rosters",
        json={"system": "dcsystem", "name": "Appât"},
        headers=bearer,
    )
    assert made.status_code == 201, made.text

    victim = new_context()
    page = victim.new_page()
    refresh_to(other_site, carnet["url"])
    with page.expect_response(lambda r: "/carnet/" in r.url) as landed:
        page.goto(other_site.url)
    assert landed.value.request.header_value("sec-fetch-site") == "cross-site"
    assert landed.value.status == 200
    expect(page.locator("#adopt")).to_be_visible()
    assert carnet_cookies(victim) == []

    # An edit link from another site: the page asks, nothing joins, no carnet is made.
    refresh_to(other_site, made.json()["edit_url"])
    with page.expect_response(lambda r: "/modifier" in r.url) as claim:
        page.goto(other_site.url)
    assert claim.value.status == 200
    expect(page.locator("#claim-button")).to_be_visible()
    assert carnet_cookies(victim) == []

    # The list the victim makes next is in a carnet of its own, not the attacker's.
    mine = open_new_list(page, "nolimits")
    assert len(carnet_cookies(victim)) == 1
    assert not carnet_cookies(victim)[0].startswith(carnet["id"])
    held = httpx.get(f"{live_server}/api/v1/carnets/{carnet['id']}", headers=bearer).json()
    assert [r["name"] for r in held["rosters"]] == ["Appât"]
    assert mine.rsplit("/", 1)[1] not in {r["id"] for r in held["rosters"]}


def test_a_player_opens_their_own_carnet_with_one_click(
    new_context: Callable[..., BrowserContext], page: Page
) -> None:
    editor = open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    page.goto("/listes")
    page.locator("#carnet summary").click()
    link = page.locator("#carnet-link-value").input_value()

    phone = new_context().new_page()
    phone.goto(link)
    expect(phone.locator("main")).to_contain_text("Ce lien ouvre un carnet de 1 liste.")
    assert carnet_cookies(phone.context) == []
    phone.locator("#adopt").click()
    phone.wait_for_url(re.compile(r"/listes$"))
    expect(phone.locator("#library-message")).to_contain_text("Carnet ouvert dans ce navigateur")
    expect(phone.locator("#library article")).to_have_count(1)
    assert phone.goto(editor).status == 200  # type: ignore[union-attr]


def test_the_key_change_asks_and_a_double_click_changes_it_once(
    new_context: Callable[..., BrowserContext], page: Page
) -> None:
    """Issue 26, item 2: « Changer la clé du carnet » acted on one click."""
    editor = open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    page.goto("/listes")
    page.locator("#carnet summary").click()
    old = page.locator("#carnet-link-value").input_value()
    page.locator("#rotate-key").click()
    expect(page.locator("main h1")).to_have_text("Changer la clé du carnet ?")
    page.goto("/listes")
    page.locator("#carnet summary").click()
    assert page.locator("#carnet-link-value").input_value() == old  # one click: nothing
    page.locator("#rotate-key").click()
    page.locator("#confirm-rotate-button").dblclick()
    page.wait_for_url(re.compile(r"/listes#carnet$"))
    expect(page.locator("#library-message")).to_contain_text("Nouvelle clé")
    page.wait_for_load_state("networkidle")
    page.goto("/listes")
    expect(page.locator("#library article")).to_have_count(1)
    page.locator("#carnet summary").click()
    new = page.locator("#carnet-link-value").input_value()
    assert new != old
    assert page.goto(editor).status == 200  # type: ignore[union-attr]
    other = new_context().new_page()
    assert other.goto(old).status == 403  # type: ignore[union-attr]
    other.goto(new)
    other.locator("#adopt").click()
    expect(other.locator("#library article")).to_have_count(1)
