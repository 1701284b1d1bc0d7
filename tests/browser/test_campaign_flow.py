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
from tests.browser.helpers import keep_screenshot

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
    # Each battle says what each fighter gained, and who fell (newest first).
    expect(battles.nth(3).locator("ul > li")).to_have_text(
        ["Ganger 1 : +25 XP", "Ganger 2 : +30 XP"]
    )
    expect(battles.nth(2).locator("ul > li")).to_have_text(["Ganger 1 : +20 XP"])
    expect(battles.nth(1).locator("ul > li")).to_have_text(["Ganger 4 : mort"])
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
    # The gang's public page, by the link of a state, in another browser: that state's
    # ledger (issue 25 item 5: a share shows its own state), three battles after the third,
    # four after the correction.
    stranger = new_context().new_page()
    stranger.goto(f"/campagne/gang/{codes[-1]}")
    expect(stranger.locator("#battles > li")).to_have_count(3)
    expect(stranger.locator("form.battle-form")).to_have_count(0)
    latest = page.locator("#battles a:text('État du gang après')").first.get_attribute("href")
    assert latest is not None
    stranger.goto(f"/campagne/gang/{latest.removeprefix('/s/')}")
    expect(stranger.locator("#battles > li")).to_have_count(4)


def tab_to(page: Page, selector: str, limit: int = 60) -> None:
    """Presses Tab until `selector` has the focus (keyboard only, as a player would)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("width", [390, 1280])
def test_an_organiser_creates_a_campaign_keyboard_only(
    new_context: Callable[..., BrowserContext], live_server: str, width: int
) -> None:
    organiser = new_context(viewport={"width": width, "height": 900}).new_page()
    organiser.goto("/listes")
    tab_to(organiser, "#new-campaign")
    organiser.keyboard.press("Enter")
    expect(organiser).to_have_url(f"{live_server}/campagnes/nouvelle")
    tab_to(organiser, "#campaign-system")
    organiser.keyboard.press("ArrowDown")  # the first system
    first = organiser.locator("#campaign-system option").nth(1).get_attribute("value")
    for _ in range(6):  # down to Necromunda–Warzone, whatever the order
        if organiser.locator("#campaign-system").input_value() == "necrowarzone":
            break
        organiser.keyboard.press("ArrowDown")
    assert first and organiser.locator("#campaign-system").input_value() == "necrowarzone"
    # A name of spaces only passes the browser's `required` and is refused by the server.
    organiser.keyboard.press("Tab")
    organiser.keyboard.type("   ")
    organiser.keyboard.press("Enter")
    expect(organiser.locator("#new-campaign-error")).to_contain_text("Nom :")
    expect(organiser.locator("#campaign-name")).to_have_attribute("aria-invalid", "true")
    expect(organiser.locator("#campaign-system")).to_have_value("necrowarzone")  # kept
    tab_to(organiser, "#campaign-name")
    organiser.keyboard.press("Control+A")
    organiser.keyboard.type("La Ruche")
    organiser.keyboard.press("Tab")
    organiser.keyboard.type("10 XP par bataille jouée.")
    organiser.keyboard.press("Enter")  # a new line in the rules notes
    organiser.keyboard.type("Blessures : table maison.")
    tab_to(organiser, "#create-campaign")
    organiser.keyboard.press("Enter")
    expect(organiser.locator("#campaign-created")).to_be_visible()
    join_url = organiser.locator("#join-url").input_value()
    assert "/rejoindre?code=" in join_url
    assert organiser.evaluate("document.documentElement.scrollWidth") <= width
    keep_screenshot(organiser, f"campaign-created-{width}")
    # A player joins with one of his lists, keyboard only, from another device.
    gang: dict[str, Any] = httpx.post(f"{live_server}/api/v1/rosters", json=orlocks("Alpha")).json()
    player = new_context(viewport={"width": width, "height": 900}).new_page()
    player.goto(gang["edit_url"])
    player.goto(join_url)
    tab_to(player, "input[name=roster]")
    player.keyboard.press("Space")
    player.keyboard.press("Tab")
    player.keyboard.press("Enter")
    expect(player.locator("#standings")).to_contain_text("Alpha")
    # The notes keep their lines (they were run together into one).
    notes = player.locator("#campaign-notes")
    assert notes.inner_text() == "10 XP par bataille jouée.\nBlessures : table maison."
    # The organiser finds it in « Mes listes ».
    organiser.goto("/listes")
    expect(organiser.locator("#my-campaigns")).to_contain_text("La Ruche")


FITS = """el => {
  const box = el.closest('.table-scroll') || el.parentElement;
  return [el.scrollWidth, box.clientWidth];
}"""


def test_the_campaign_pages_fit_a_phone(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """Found on a 390 px phone: the fighters' « Historique » column and the standings'
    « Pertes » lay past the screen's edge (a sideways scroll to read what a fighter
    gained), and a long word in a battle's opponent or notes ran off the screen."""
    campaign = httpx.post(
        f"{live_server}/api/v1/campaigns", json={"system": "necrowarzone", "name": "La Ruche"}
    ).json()
    gangs = []
    for name in ("Alpha", "Bravo des Bas-Fonds de la Ruche Primaire"):
        gang = httpx.post(f"{live_server}/api/v1/rosters", json=orlocks(name)).json()
        joined = httpx.post(
            f"{live_server}/api/v1/campaigns/{campaign['id']}/gangs",
            json={
                "roster": gang["id"],
                "edit_token": gang["edit_token"],
                "join_code": campaign["join_code"],
            },
        )
        assert joined.status_code == 201
        gangs.append(gang)
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(gangs[0]["edit_url"])
    page.goto(f"/r/{gangs[0]['id']}/campagne")
    page.fill("input[name=date]", "2026-12-01")
    page.fill("input[name=opponent]", "https://forum.example/viewtopic.php?t=123456789012345")
    page.check("input[name=result][value=win]")
    page.select_option("select[name=campaign]", campaign["id"])
    page.select_option("select[name=opponent_roster]", gangs[1]["id"])
    page.fill("input[name=f1_xp]", "25")
    page.fill("input[name=f2_stat]", "CT")
    page.fill("input[name=f2_by]", "-1")
    page.fill("input[name=f2_cause]", "Œil crevé par un tir de fusil laser à bout portant")
    page.fill("textarea[name=notes]", "n" * 120 + "\nPuis la pluie.")
    page.click("#record-battle")
    expect(page.locator("#campaign-flash")).to_be_visible()
    width, room = page.locator("#fighters").evaluate(FITS)
    assert width <= room, (width, room)
    history = page.locator("#fighter-2 td.history")
    expect(history).to_be_in_viewport()
    expect(history).to_contain_text("B1 : CT −1 (Œil crevé")
    # The battle's notes keep their lines.
    assert page.locator("#battles .battle-notes").inner_text().endswith("n\nPuis la pluie.")
    for item in page.locator("#battles > li").all():
        assert item.evaluate("li => li.scrollWidth <= li.clientWidth")
    keep_screenshot(page, "gang-390")
    page.goto(f"/c/{campaign['id']}")
    width, room = page.locator("#standings").evaluate(FITS)
    assert width <= room, (width, room)
    keep_screenshot(page, "campaign-390")


def test_after_the_battle_keyboard_only_with_a_bad_value(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """« Après la bataille » on a phone with the keyboard only (the date picker aside: its
    segments follow the browser's own locale): a bad XP is refused with the fighter named,
    his field marked and everything typed kept; corrected, the battle is recorded."""
    gang: dict[str, Any] = httpx.post(f"{live_server}/api/v1/rosters", json=orlocks()).json()
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(gang["edit_url"])
    tab_to(page, "#to-campaign")
    page.keyboard.press("Enter")
    expect(page.locator("#gang-totals")).to_be_visible()
    page.locator("input[name=date]").fill("2026-12-01")
    tab_to(page, "input[name=opponent]")
    page.keyboard.type("Les Goliaths")
    tab_to(page, "input[name=result]")
    page.keyboard.press("Space")
    tab_to(page, "input[name=f1_xp]")
    page.keyboard.type("vingt")
    tab_to(page, "select[name=f4_state]")
    page.keyboard.type("m")  # « mort »
    tab_to(page, "#record-battle")
    page.keyboard.press("Enter")
    expect(page.locator("#campaign-error")).to_have_text(
        "Ganger 1 — XP gagnée : nombre entier attendu"
    )
    expect(page.locator("input[name=f1_xp]")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("input[name=f1_xp]")).to_have_value("vingt")
    expect(page.locator("select[name=f4_state]")).to_have_value("dead")
    expect(page.locator("input[name=opponent]")).to_have_value("Les Goliaths")
    keep_screenshot(page, "after-battle-error-390", full_page=False)
    tab_to(page, "input[name=f1_xp]")
    page.keyboard.press("Control+A")
    page.keyboard.type("20")
    tab_to(page, "#record-battle")
    page.keyboard.press("Enter")
    expect(page.locator("#campaign-flash")).to_have_text("Bataille enregistrée.")
    expect(page.locator("#fighter-4 td.state")).to_have_text("mort")
    expect(page.locator("#fighter-1 td.history")).to_have_text("B1 : +20 XP")
    expect(page.locator("#gang-totals")).to_contain_text("8 figurines en jeu · seuil de déroute 2")


def test_after_the_battle_is_compact_on_a_phone(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """Issue 26 item 9: « Après la bataille » for 4 fighters was 2,542 px tall at 390 px;
    each fighter's row is now a dense wrapping line of controls, every one visible."""
    document = orlocks("Quatre")
    document["entries"] = document["entries"][:4]
    gang: dict[str, Any] = httpx.post(f"{live_server}/api/v1/rosters", json=document).json()
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(gang["edit_url"])
    page.click("#to-campaign")
    rows = page.locator("form.battle-form fieldset.fighter-row")
    expect(rows).to_have_count(4)
    height = page.locator("form.battle-form").evaluate(
        "form => form.getBoundingClientRect().height"
    )
    keep_screenshot(page, "after-battle-390")
    assert height < 1600, height
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for name in ("f3_xp", "f3_stat", "f3_by", "f3_cause"):
        expect(page.locator(f"input[name={name}]")).to_be_visible()
    expect(page.locator("select[name=f3_state]")).to_be_visible()
