"""One tour of every page, at 390 and 1280 px, each page checked for all at once: axe-core
finds no violation of any impact (minor included), nothing scrolls sideways, on a phone
every cost and total of a list's rows is shown, and the Content-Security-Policy refuses
nothing. (It holds what test_pages_fit.py's axe and phone-width tours checked.)"""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import DESKTOP, PHONE, csp_refusals, open_new_list, run_axe
from tests.conftest import SYSTEMS

pytestmark = pytest.mark.browser

# What a player can get wrong in each creator: a value it refuses typed in a number field,
# or (where every field is a choice) choices the rules flag.
BAD_CREATOR_VALUE = {
    "dcsystem": ("check", "input[name=items][value=elite], input[name=items][value=fragile]"),
    "nolimits": ("#p-AC", "99"),
    "infinity": ("#p-CC", "200"),
    "bastos": ("select", "#rep=6"),
    "necrowarzone": ("#light-wounds", "50"),
}


def long_list(page: Page, system: str) -> None:
    """A new list of 12 entries: each row folds its profile and options (« Profil et
    options »)."""
    open_new_list(page, system)
    for _ in range(12):
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator("#add").click()
        page.wait_for_timeout(150)
    page.reload()
    assert page.locator("details.entry-more").count() == 12


def share_of(page: Page, editor: str) -> str:
    page.goto(editor)
    page.locator("#share").click()
    page.wait_for_url(re.compile(r"/s/[A-Za-z0-9_-]+$"))
    return urlsplit(page.url).path


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_axe_finds_nothing_on_any_page(page: Page, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    refused = csp_refusals(page)
    found: dict[str, object] = {}
    wide: dict[str, int] = {}

    def check(name: str) -> None:
        violations = run_axe(page)
        if violations:
            found[name] = violations
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > viewport["width"]:
            wide[name] = width
        if viewport == PHONE:
            # Rows laid out for a phone still show every cost and total (hidden moves too).
            figures = page.locator("table.entries td.num[data-label]")
            for index in range(figures.count()):
                expect(figures.nth(index)).to_be_visible()

    # /api/docs is Swagger UI's own page (vendored, English, its markup its authors'): it is
    # left out. /r/inconnue: the 403 page (no edit link).
    for path in (
        "/",
        "/listes",
        "/nulle-part",
        "/r/inconnue",
        "/dcsystem/chances",
        "/dcsystem/chances?rouges=x",
    ):
        page.goto(path)
        check(path)
    for system in SYSTEMS:
        for path in (f"/listes/nouvelle?system={system}", f"/{system}/catalogue"):
            page.goto(path)
            check(path)
        page.goto(f"/{system}/createur")
        check(f"/{system}/createur")
        field, value = BAD_CREATOR_VALUE[system]
        if field == "check":
            for box in page.locator(value).all():
                box.check()
        elif field == "select":
            select, option = value.split("=")
            page.locator(select).select_option(option)
        else:
            page.locator(field).fill(value)
            page.locator(field).press("Tab")
        page.wait_for_timeout(800)
        check(f"/{system}/createur (erreur)")
        catalogue = page.request.get(f"/api/v1/systems/{system}/catalogue").json()
        editor = open_new_list(page, system, catalogue["examples"][0]["id"])
        check(f"{system} liste")
        long_list(page, system)
        check(f"{system} liste longue")
        page.goto(editor)
        share = share_of(page, editor)
        check(f"{system} partage")
        page.goto(f"{share}/feuille")
        check(f"{system} feuille")
        page.goto(f"{share}/feuille?compacte=1")
        check(f"{system} feuille compacte")
        page.goto(f"{share}/partie")
        check(f"{system} partie")
    page.goto("/listes")
    page.locator("#carnet summary").click()
    check("/listes (pleine, lien du carnet ouvert)")
    other = page.request.post("/api/v1/carnets").json()["url"]
    page.goto(other)
    check("/carnet (réunir ou changer)")
    assert found == {}, "\n".join(f"{name}: {v}" for name, v in found.items())
    assert wide == {}
    assert refused == []


def test_play_sheets_have_unique_landmarks(page: Page) -> None:
    """Issue 18: the cards are no landmarks (one region per card repeated its name)."""
    found = {}
    for system in ("nolimits", "infinity", "necrowarzone"):
        catalogue = page.request.get(f"/api/v1/systems/{system}/catalogue").json()
        share = share_of(page, open_new_list(page, system, catalogue["examples"][0]["id"]))
        page.goto(f"{share}/feuille")
        if violations := [v for v in run_axe(page) if v["id"] == "landmark-unique"]:
            found[system] = violations
    assert found == {}
