"""Every page, each checked at 390 and at 1280 px for all at once: axe-core finds no
violation of any impact (minor included), nothing scrolls sideways, on a phone every cost
and total of a list's rows is shown, and the Content-Security-Policy refuses nothing. One
tour per registered system and one of the pages of no system. (It holds what
test_pages_fit.py's axe and phone-width tours checked.)"""

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from app.settings import Settings
from tests.browser.conftest import serving
from tests.browser.helpers import DESKTOP, PHONE, csp_refusals, open_new_list, run_axe
from tests.conftest import SYSTEMS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def live_server(database_url: str) -> Iterator[str]:
    """The tour's own server: it makes some forty lists and sixty adds in a minute or two, more
    than the rate limits let one client do (30 creations a minute); on a quiet machine a
    limit then refused an add or a share and the tour failed. The limits have their own
    tests (tests/security, tests/browser/test_rate_limited_editor.py)."""
    unlimited = Settings(
        database_url=database_url,
        rate_limit_create="",
        rate_limit_share="",
        rate_limit_write="",
        rate_limit_stored="",
    )
    with serving(unlimited) as url:
        yield url


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
    rows = page.locator("tr.entry")
    for added in range(1, 13):
        page.locator("#add").click()
        # Each add is drawn before the next click (a click on a form being redrawn under
        # load can land on the old one): the rows say when.
        expect(rows).to_have_count(added)
    page.reload()
    assert page.locator("details.entry-more").count() == 12


def share_of(page: Page, editor: str) -> str:
    page.goto(editor)
    with page.expect_navigation(url=re.compile(r"/s/[A-Za-z0-9_-]+$"), timeout=30_000):
        page.locator("#share").click()
    return urlsplit(page.url).path


WIDTHS = (("390px", PHONE), ("1280px", DESKTOP))


class Tour:
    """What one page after another shows at 390 and then 1280 px: axe-core's violations,
    widths over the viewport's, and the CSP's refusals; asserted all at once by `done`.

    Each page is loaded once and checked at both widths (the viewport resized in place:
    the pages' layouts are CSS media queries, no script reads the width), so that a tour
    makes its lists and pages once for both (issue 27: the tour at each width was the
    suite's longest test, twice)."""

    def __init__(self, page: Page) -> None:
        page.set_viewport_size(PHONE)
        self.page = page
        self.refused = csp_refusals(page)
        self.found: dict[str, object] = {}
        self.wide: dict[str, int] = {}

    def check(self, name: str) -> None:
        page = self.page
        for label, viewport in WIDTHS:
            page.set_viewport_size(viewport)
            violations = run_axe(page)
            if violations:
                self.found[f"{name} ({label})"] = violations
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > viewport["width"]:
                self.wide[f"{name} ({label})"] = width
            if viewport == PHONE:
                # Rows laid out for a phone still show every cost and total (hidden moves
                # too).
                figures = page.locator("table.entries td.num[data-label]")
                for index in range(figures.count()):
                    expect(figures.nth(index)).to_be_visible()
        page.set_viewport_size(PHONE)

    def done(self) -> None:
        assert self.found == {}, "\n".join(f"{name}: {v}" for name, v in self.found.items())
        assert self.wide == {}
        assert self.refused == []


def bad_creator_value(page: Page, system: str) -> tuple[str, str]:
    """`BAD_CREATOR_VALUE` of a system listed there; of any other, its creator's first
    number field that has a maximum, one past it."""
    if system in BAD_CREATOR_VALUE:
        return BAD_CREATOR_VALUE[system]
    bounded = page.locator("#creator input[type=number][max]").first
    field = f"#{bounded.get_attribute('id')}"
    return field, str(int(bounded.get_attribute("max") or "0") + 1)


def system_pages(tour: Tour, system: str) -> None:
    """A system's pages: new list, catalogue, creator (and its errors), an example list in
    the editor, a long list, its share page, play sheets and mode partie."""
    page = tour.page
    check = tour.check
    for path in (f"/listes/nouvelle?system={system}", f"/{system}/catalogue"):
        page.goto(path)
        check(path)
    page.goto(f"/{system}/createur")
    check(f"/{system}/createur")
    field, value = bad_creator_value(page, system)
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


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_page_of_a_system(page: Page, system: str) -> None:
    tour = Tour(page)
    system_pages(tour, system)
    tour.done()


def test_every_page_of_the_site(page: Page) -> None:
    """The pages of no system, and the library full of every system's lists."""
    tour = Tour(page)
    # /api/docs is Swagger UI's own page (vendored, English, its markup its authors'): it is
    # left out. /r/inconnue: the 403 page (no edit link).
    for path in (
        "/",
        "/listes",
        "/listes/importer",
        "/nulle-part",
        "/r/inconnue",
        "/dcsystem/chances",
        "/dcsystem/chances?rouges=x",
    ):
        page.goto(path)
        tour.check(path)
    for system in SYSTEMS:  # the lists the tour of each system makes
        catalogue = page.request.get(f"/api/v1/systems/{system}/catalogue").json()
        editor = open_new_list(page, system, catalogue["examples"][0]["id"])
        # The editor settled (the tour of a system checks it here) before the next list.
        page.wait_for_load_state("networkidle")
        # The next list's editor is told from this one by its URL. A navigation of the
        # editor's own, still starting, may abort this one (net::ERR_ABORTED, seen once in
        # CI): then it is asked again.
        try:
            page.goto("/listes")
        except PlaywrightError as error:
            if "ERR_ABORTED" not in str(error):
                raise
            page.goto("/listes")
        page.wait_for_load_state("networkidle")
        long_list(page, system)
        assert editor != urlsplit(page.url).path
    page.goto("/listes")
    page.locator("#carnet summary").click()
    tour.check("/listes (pleine, lien du carnet ouvert)")
    page.locator("#library .actions button.danger").first.click()
    page.locator("#confirm-delete-button").click()
    page.wait_for_selector("#undo-delete")
    tour.check("/listes (une liste supprimée, « Annuler »)")
    page.goto("/listes/supprimees")
    tour.check("/listes/supprimees")
    other = page.request.post("/api/v1/carnets").json()["url"]
    page.goto(other)
    tour.check("/carnet (réunir ou changer)")
    tour.done()


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
