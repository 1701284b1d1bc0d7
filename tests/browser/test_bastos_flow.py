"""Pour quelques bastos de plus in a real browser: create a figure, build a band around it,
ask the odds panel, share the band, read its BBCode.

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

import re
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.helpers import (
    TRACK_HTMX,
    assert_same_document,
    check_system_pages,
    csp_refusals,
    htmx_post,
    mark_document,
)

pytestmark = pytest.mark.browser


def shown(label: str, value: int) -> re.Pattern[str]:
    """A band total as the page shows it: "3 Figurines" or "Figurines : 3"."""
    return re.compile(rf"^\s*({value} {re.escape(label)}|{re.escape(label)} : {value})\s*$")


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
CREATOR = "/bastos/createur"
CHANCES = "/bastos/chances"
BAND = "Les Durs [test]"


def test_create_a_figure_build_a_band_ask_the_odds_and_share(page: Page, live_server: str) -> None:
    page.add_init_script(TRACK_HTMX)
    page.set_viewport_size({"width": 390, "height": 844})
    refused = csp_refusals(page)

    # The creator opens on a Rep 4 figure with a revolver: L80 gives 4/9, 4/9, 1/9.
    page.goto(CREATOR)
    expect(page.locator("h1")).to_have_text("Créer une figurine")
    mark_document(page)
    result = page.locator("#result")
    rep_test = result.locator("#sheet-rep-test tbody .frac")
    expect(rep_test).to_have_text(["4/9", "4/9", "1/9"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The pages' own stylesheet is applied: the form stays pinned under the sheet.
    expect(page.locator("#figure")).to_have_css("position", "sticky")

    # Baby Face: Rep 5, leader, Mitraillette. L80 with the leader die: 1 - (1/6)³ - 3·5/6·(1/6)².
    htmx_post(page, CREATOR, lambda: page.locator("#rep").select_option("5"))
    expect(rep_test).to_have_text(["25/36", "5/18", "1/36"])
    htmx_post(page, CREATOR, lambda: page.locator("#weapon").select_option("mitraillette"))
    # L152: two natural 1s or more on 3 dice, 16/216.
    expect(result.locator("#sheet-shooting")).to_contain_text("2/27")
    htmx_post(page, CREATOR, lambda: page.locator("#leader").check())
    expect(rep_test).to_have_text(["25/27", "5/72", "1/216"])
    expect(result.locator("h2")).to_contain_text("Chef")
    htmx_post(page, CREATOR, lambda: page.locator("#figure-name").fill("Baby Face"))
    expect(result.locator("h2")).to_contain_text("Baby Face")
    assert_same_document(page)

    # To a new band.
    page.locator("#add-to-list").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    roster_path = urlsplit(page.url).path
    mark_document(page)
    editor = page.locator("#editor")
    totals = editor.locator("#total .figure-total")
    expect(page.locator("tr.entry")).to_have_count(1)
    expect(page.locator("#entry-0-name")).to_have_value("Baby Face")
    expect(editor.locator("#points-limit")).to_have_count(0)  # no points in the text (L3)
    expect(totals.first).to_have_text(shown("Figurine", 1))

    # Two Bleus of the section (L282), from the text's figures.
    page.locator("#roster-name").fill(BAND)
    htmx_post(page, roster_path, lambda: page.locator("#roster-name").press("Tab"))
    htmx_post(page, roster_path, lambda: page.locator("#add-unit").select_option("bleu"))
    page.locator("#add-count").fill("2")
    htmx_post(
        page, roster_path, lambda: editor.get_by_role("button", name="Ajouter", exact=True).click()
    )
    expect(page.locator("tr.entry")).to_have_count(2)
    for label, value in [
        ("Figurines", 3),
        ("Rep totale", 11),
        ("Figurines de Rep 3", 2),
        ("Figurine de Rep 5", 1),
        ("Leader", 1),
    ]:
        expect(totals.filter(has_text=shown(label, value))).to_have_count(1)
    expect(editor.locator(".validity")).to_have_text("Liste valide")

    # « Quelles sont mes chances ? »: a Bleu in melee against a Rep 4 (L209-222).
    panel = page.locator("#odds-panel")
    version = editor.locator("input[name=version]").input_value()
    htmx_post(
        page, CHANCES, lambda: panel.locator("#odds-figure").select_option(label="Bleu (Rep 3)")
    )
    htmx_post(page, CHANCES, lambda: panel.locator("#odds-test").select_option("melee"))
    expect(panel.locator("#odds-opponent")).to_have_value("4")
    details = panel.locator("details")
    details.locator("summary").click()
    # L80: Rep 3 has 2 successes 1/4, Rep 4 4/9; ties: 1/4·4/9 + 1/2·4/9 + 1/4·1/9 = 13/36.
    expect(details.locator('tr[data-outcome="tie"] .frac')).to_have_text("13/36")
    # The panel asked the odds only: the band was not saved again.
    expect(page.locator("tr.entry")).to_have_count(2)
    page.wait_for_timeout(400)  # past the editor's own change delay (150 ms)
    page.wait_for_function("() => window.__htmxPending === 0")
    assert editor.locator("input[name=version]").input_value() == version
    assert_same_document(page)
    assert urlsplit(page.url).path == roster_path
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    assert refused == []

    # Share, then read the BBCode: totals, no points anywhere.
    page.locator("#share").click()
    page.wait_for_url(re.compile(r"/s/[A-Za-z0-9_-]+$"))
    code = urlsplit(page.url).path.removeprefix("/s/")
    bbcode = page.locator("#bbcode").input_value()
    lines = bbcode.split("\n")
    assert lines == [
        "[b]Les Durs ［test］[/b] — Pour quelques bastos de plus",
        "[b]Total : Figurines : 3, Rep totale : 11, Figurines de Rep 3 : 2, Figurine de Rep 5 : 1, "
        "Leader : 1, Star : 0, Arme de classe 4 : 1, Armes de classe 3 : 2[/b]",
        "",
        "[b]1 × Baby Face[/b]",
        "portée 60 cm, taux 3 (7,5 cm), impact 3, classe 4 — Test de Rep, dé de leader : "
        "2 réussites 25/27 (93 %), 1 réussite 5/72 (7 %), 0 réussite 1/216 (< 1 %) — "
        "Rep 5, [color=#1f5fa8]Chef[/color], Mitraillette",
        "[b]2 × Bleu[/b]",
        "portée 30 cm, taux 3 (7,5 cm), impact 2, classe 3 — Test de Rep : "
        "2 réussites 1/4 (25 %), 1 réussite 1/2 (50 %), 0 réussite 1/4 (25 %) — "
        "Rep 3, Fusil à pompe",
        "",
        f"[url={live_server}/s/{code}]Voir cette liste sur Caserne[/url]",
        "",
    ]
    assert " pts" not in bbcode
    expect(page.locator("#share .total")).not_to_contain_text("points")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_bastos_pages_fit_and_pass_axe(
    new_context: Callable[..., BrowserContext], viewport: dict[str, int]
) -> None:
    """The checks of test_pages_fit.py on Bastos' pages (catalogue, creator, an editor with
    its odds panel, its share): nothing scrolls sideways, axe-core finds no serious or
    critical violation, the Content-Security-Policy refuses nothing."""
    page = new_context(viewport=viewport).new_page()
    check_system_pages(page, "bastos", "section", viewport)
