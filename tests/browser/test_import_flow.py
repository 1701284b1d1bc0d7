"""« Importer une liste » in Chromium (issue 30), at 390 and 1280 px: a forum list pasted,
its preview (each line, « non reconnu » with the closest names), a name chosen for the
unknown line, « Relire », then « Enregistrer dans mes listes » opens the new list's editor.
axe-core finds no violation of any impact on the form and on the preview, nothing scrolls
sideways, the Content-Security-Policy refuses nothing."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import DESKTOP, PHONE, csp_refusals, run_axe

pytestmark = pytest.mark.browser

FORUM = """Ma liste SG pour samedi (200 pts)
[b]Équipe SG-1[/b]
1x Jack O'Neil
Teal'c - 77pts
Jafa x3
1 x Goold
Renfort :
2 x Jaffas
Total : 200 pts"""


def checked(page: Page, width: int, where: str) -> None:
    assert run_axe(page) == [], where
    assert page.evaluate("document.documentElement.scrollWidth") <= width, where


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_paste_preview_choose_and_save(page: Page, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    refused = csp_refusals(page)
    page.goto("/listes")
    page.locator("#import-list").click()
    expect(page).to_have_url(re.compile(r"/listes/importer$"))
    checked(page, viewport["width"], "formulaire")
    page.locator("#import-text").fill(FORUM)
    page.locator("#import-read").click()

    preview = page.locator("#import-preview")
    expect(preview).to_contain_text("Dices & Colors System")
    expect(page.locator("#import-unknown")).to_have_text(
        "1 ligne non reconnue : choisissez ce qu'elle devient puis « Relire », "
        "ou elle sera laissée de côté."
    )
    expect(page.locator("#line-4")).to_contain_text("→ 3 × Jaffa")
    expect(page.locator("#line-4")).to_contain_text("lu comme « Jaffa »")
    expect(page.locator("#line-7")).to_contain_text("→ 2 × Jaffa")
    checked(page, viewport["width"], "aperçu")

    page.locator("#choice-5").select_option(label="Goa'uld")
    page.locator("#import-read").click()
    expect(page.locator("#import-unknown")).to_have_count(0)
    expect(page.locator("#line-5")).to_contain_text("choisi : « Goa'uld »")
    entries = page.locator("#import-entries li")
    expect(entries).to_have_text(
        [
            re.compile(r"^1 × Jack O'Neil — \d+ pts$"),
            re.compile(r"^1 × Teal'c — 77 pts$"),
            re.compile(r"^3 × Jaffa — 30 pts chacun, 90 pts$"),
            re.compile(r"^1 × Goa'uld — \d+ pts$"),
            re.compile(r"^2 × Jaffa \(Renfort \(non compté\)\) — 30 pts chacun, 60 pts$"),
        ]
    )
    checked(page, viewport["width"], "aperçu avec un choix")

    page.locator("#import-name").fill("SG du samedi")
    page.locator("#import-save").click()
    expect(page).to_have_url(re.compile(r"/r/[0-9a-f]+$"))
    expect(page.locator("h1")).to_contain_text("SG du samedi")
    page.goto("/listes")
    expect(page.locator("#library")).to_contain_text("SG du samedi")
    assert refused == []
