"""A Necromunda–Warzone gang of 9 figures plays 3 battles through the pages on a 390 px
phone: after battle 2 a ganger crosses 100 XP and shows 3 actions (L10); a fighter dies in
battle 3 and the rout threshold drops from 3 to 2 (L84); a mistaken XP entry is corrected
by a new line and both lines stay; the three pinned shares hold the three states.
Lnn = line of shared/rules/necromunda-warzone.fr.txt."""

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.api.test_campaigns import orlocks

pytestmark = pytest.mark.browser


def after_battle(page: Page, result: str, fill: dict[str, str], corrects: str = "") -> None:
    page.fill("input[name=date]", "2026-12-01")
    page.fill("input[name=opponent]", "Les Goliaths")
    page.check(f"input[name=result][value={result}]")
    if corrects:
        page.fill("input[name=corrects]", corrects)
    for name, value in fill.items():
        if name.endswith("_state"):
            page.select_option(f"select[name={name}]", value)
        else:
            page.fill(f"input[name={name}]", value)
    page.click("#record-battle")
    expect(page.locator("#campaign-flash")).to_have_text("Bataille enregistrée.")


def test_three_battles_on_a_phone(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    gang: dict[str, Any] = httpx.post(f"{live_server}/api/v1/rosters", json=orlocks()).json()
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(gang["edit_url"])
    page.click("#to-campaign")
    expect(page.locator("#gang-totals")).to_contain_text("9 figurines en jeu · seuil de déroute 3")
    ganger = page.locator("#fighter-1 td.acts")
    expect(ganger).to_have_text("2")  # 60 XP: L9 « 0-100 … 2 »
    after_battle(page, "win", {"f1_xp": "25", "f2_xp": "30"})
    expect(ganger).to_have_text("2")  # 85 XP
    after_battle(page, "draw", {"f1_xp": "20"})
    expect(ganger).to_have_text("3")  # 105 XP: L10 « 101-400 … 3 »
    after_battle(page, "loss", {"f4_state": "dead"})
    expect(page.locator("#gang-totals")).to_contain_text("8 figurines en jeu · seuil de déroute 2")
    expect(page.locator("#fighter-4 td.state")).to_have_text("mort")
    # Ganger 2's +30 in battle 1 was +3: a new line of −27 corrects it; both lines stay.
    after_battle(page, "win", {"f2_xp": "-27"}, corrects="1")
    expect(page.locator("#fighter-2")).to_contain_text("B1 : +30 XP ; B4 : −27 XP")
    battles = page.locator("#battles > li")
    expect(battles).to_have_count(4)
    expect(battles.nth(0)).to_contain_text("Correction de la bataille 1")
    expect(battles.nth(3)).to_contain_text("(corrigée par la ligne 4)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The three battles' shares hold the three states.
    codes = [
        href.removeprefix("/s/")
        for href in page.locator("#battles a:text('État du gang après')").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))"
        )
    ][::-1][:3]
    states = [httpx.get(f"{live_server}/s/{code}.json").json() for code in codes]
    assert [s["roster"]["entries"][1]["custom"]["xp"] for s in states] == [85, 105, 105]
    assert [s["validation"]["derived"]["rout_threshold"] for s in states] == [3, 3, 2]
    # The gang's public page, by the link of its latest state, in another browser.
    stranger = new_context().new_page()
    stranger.goto(f"/campagne/gang/{codes[-1]}")
    expect(stranger.locator("#battles > li")).to_have_count(4)
    expect(stranger.locator("form.battle-form")).to_have_count(0)
