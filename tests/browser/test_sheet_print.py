"""Issue 26 item 12: the play sheets on A4, printed by Chromium and counted.

Before: No Limits' 4-entry list printed on 5 pages (a page holding only the title, one card
a row, a card split across two pages, a last page of one line), a DCSystem sheet gave its
score table a page of its own, and the share's link opened the 23-page full sheet of a
50-entry list. Each system's example lists, and a 4-entry list cut from each, are printed
here (systems from the registry); bounds are what a player prints for a game.
"""

import unicodedata
from typing import Any

import pytest
from playwright.sync_api import Page
from pypdf import PdfReader

from tests.browser.test_play_sheets import fifty_dcsystem_entries, print_a4, share

pytestmark = pytest.mark.browser


def first_card_on_page_one(page: Page, reader: PdfReader) -> None:
    """No page holds the title alone: the first card's name is printed on page 1."""
    name = page.locator(".sheet-card h3").first.evaluate(
        "(h3) => [...h3.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent)"
        ".join('').trim()"
    )
    text = unicodedata.normalize("NFKC", reader.pages[0].extract_text())  # ligatures: « ﬀ »
    assert name in " ".join(text.split()), name


def examples(page: Page) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for system in page.request.get("/api/v1/systems").json():
        catalogue = page.request.get(f"/api/v1/systems/{system['id']}/catalogue").json()
        for chosen in catalogue["examples"]:
            found.append((system["id"], dict(chosen["document"]) | {"id": chosen["id"]}))
    return found


def test_every_example_sheet_prints_on_three_a4_pages_at_most(page: Page) -> None:
    printed = {}
    for system, document in examples(page):
        name = document.pop("id")
        page.goto(share(page, document) + "/feuille")
        reader = print_a4(page, f"{system}-{name}")
        first_card_on_page_one(page, reader)
        printed[f"{system}/{name}"] = len(reader.pages)
    print(printed)
    # Before: No Limits 5, Necromunda–Warzone 5 and 5, DCSystem SG 4, Infinity Brumeval 4.
    assert all(1 <= pages <= 3 for pages in printed.values()), printed
    # Before: 4, the score table alone on the last page (L308-312's table).
    assert printed["dcsystem/feuille_de_bataille_sg"] <= 2, printed


def test_a_four_entry_list_of_each_system_prints_on_one_or_two_pages(page: Page) -> None:
    printed = {}
    for system, document in examples(page):
        if len(document["entries"]) < 4 or system in printed:
            continue
        # The last four entries of the system's first long-enough example (No Limits: three
        # sections and the Titan Destroyer, whose damage track makes the tallest card).
        document = document | {"entries": document["entries"][-4:], "name": "Quatre entrées"}
        document.pop("id")
        page.goto(share(page, document) + "/feuille")
        reader = print_a4(page, f"{system}-four")
        first_card_on_page_one(page, reader)
        printed[system] = len(reader.pages)
    print(printed)
    assert len(printed) >= 3, printed
    assert all(1 <= pages <= 2 for pages in printed.values()), printed


def test_the_share_link_opens_the_compact_sheet_of_a_long_list(page: Page) -> None:
    code = share(page, fifty_dcsystem_entries(page))
    page.goto(code)
    page.locator("#play-sheet").click()
    page.wait_for_url("**/feuille?compacte=1")
    compact = len(print_a4(page, "dcsystem-50-link").pages)
    # The full sheet stays one click away, and is shorter than before (23 pages).
    page.locator("#full-sheet").click()
    page.wait_for_url("**/feuille")
    full = len(print_a4(page, "dcsystem-50-full").pages)
    print(f"50 entries: the link opens {compact} pages; the full sheet {full}")
    assert compact <= 3
    assert full <= 16
    # A short list's link opens the full sheet (a card per entry, its rules on it).
    catalogue = page.request.get("/api/v1/systems/dcsystem/catalogue").json()
    page.goto(share(page, catalogue["examples"][0]["document"]))
    assert page.locator("#play-sheet").get_attribute("href", timeout=2000).endswith("/feuille")
