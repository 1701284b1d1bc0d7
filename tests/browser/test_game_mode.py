"""Issue 18: the mode partie, two turns on each system's example (wounds, states,
activations, Infinity's orders spent and regained), then a reload finds the same state;
« Nouvelle partie » resets it; the keyboard plays it too."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PHONE, open_new_list, run_axe
from tests.browser.test_play_sheets import example, share
from tests.conftest import SYSTEMS

pytestmark = pytest.mark.browser


def wound(page: Page, system: str, figure: int) -> None:
    """One wound (or state) on the n-th figure, as the system tracks it."""
    card = page.locator(".figure").nth(figure)
    if system in ("dcsystem", "nolimits", "necrowarzone"):
        card.locator(".counter").first.locator("[data-step='1']").click()
    else:  # Bastos « Sonné » (L382), Infinity « Inconscient » (L130)
        card.locator("[data-state='1']").click()


def read(page: Page) -> dict[str, object]:
    figures = page.locator(".figure")
    first, second = figures.nth(0), figures.nth(1 if figures.count() > 1 else 0)
    return {
        "turn": page.locator("#turn").inner_text(),
        "out": page.locator("#out-count").inner_text(),
        "first": first.locator("output").all_inner_texts()
        + [b.get_attribute("aria-pressed") or "" for b in first.locator("[data-state]").all()],
        "second": second.locator("output").all_inner_texts()
        + [b.get_attribute("aria-pressed") or "" for b in second.locator("[data-state]").all()],
        "activated": [box.is_checked() for box in page.locator("[data-activated]").all()],
        "pools": page.locator("[data-pool] output").all_inner_texts(),
    }


@pytest.mark.parametrize("system", SYSTEMS)
def test_two_turns_then_a_reload_keep_the_game(page: Page, system: str) -> None:
    page.set_viewport_size(PHONE)
    code = share(page, example(page, system))
    page.goto(f"{code}/partie")
    expect(page.locator("#turn")).to_have_text("1")
    assert run_axe(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Turn 1: a wound on the first figure, it is activated; Infinity spends 2 orders.
    wound(page, system, 0)
    page.locator("[data-activated]").first.check()
    if system == "infinity":
        spend = page.locator("[data-pool='g1'] [data-spend='1']")
        spend.click()
        spend.click()
        expect(page.locator("#pool-g1")).to_have_text("7")
    page.locator("#next-turn").click()
    # Turn 2: activations cleared, orders regained; a wound on the second figure.
    expect(page.locator("#turn")).to_have_text("2")
    assert not page.locator("[data-activated]").first.is_checked()
    if system == "infinity":
        expect(page.locator("#pool-g1")).to_have_text("9")
        page.locator("[data-pool='g1'] [data-spend='1']").click()
    wound(page, system, 1)
    page.locator("[data-activated]").nth(1).check()
    before = read(page)
    page.reload()
    assert read(page) == before
    assert before["turn"] == "2"
    assert before["activated"][:2] == [False, True]
    if system == "infinity":
        assert before["pools"][0] == "8"
    # « Nouvelle partie » (confirmed) starts again from turn 1.
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#new-game").click()
    expect(page.locator("#turn")).to_have_text("1")
    assert read(page)["activated"][:2] == [False, False]


def test_a_dcsystem_fighter_out_counts_for_the_opponent(page: Page) -> None:
    code = share(page, example(page, "dcsystem"))  # SG: Chef de groupe SG (4 red, level 3)
    page.goto(f"{code}/partie")
    chief = page.locator(".figure").first
    plus = chief.locator("[data-step='1']")
    for _ in range(3):
        plus.click()
    expect(chief.locator(".out-flag")).to_be_hidden()
    plus.click()  # L234: no red die left, out of the game
    plus.click()  # no fifth die to lose
    expect(chief.locator("output")).to_have_text("4")
    expect(chief.locator(".out-flag")).to_be_visible()
    expect(page.locator("#out-count")).to_have_text("1")
    expect(page.locator("#points-lost")).to_have_text("50")
    expect(page.locator("#score")).to_have_text("3")  # L310: a level-3 enemy is 3 points


def test_the_keyboard_plays_and_necromunda_warns_of_a_rout(page: Page) -> None:
    code = share(page, example(page, "necrowarzone"))  # 8 figures, a rout test at 2 (L84)
    page.goto(f"{code}/partie")
    down = page.locator(".figure").first.locator("[data-state='1']")
    down.focus()
    page.keyboard.press("Enter")
    expect(down).to_have_attribute("aria-pressed", "true")
    page.locator(".figure").nth(1).locator("[data-state='2']").focus()
    page.keyboard.press("Space")
    expect(page.locator("#rout-count")).to_have_text("2")
    expect(page.locator("#rout-alert")).to_be_visible()
    # The to-hit odds per CT and modifiers (L38-49) are on the phone too.
    expect(page.locator("#ref-to-hit")).to_contain_text("4+ (1/2)")


def test_a_list_has_its_mode_partie_too(page: Page) -> None:
    editor = open_new_list(page, "bastos", "imperiaux")
    page.goto(f"{editor}/partie")
    expect(page.locator("h1")).to_contain_text("Partie")
    page.locator(".figure").first.locator("[data-state='2']").click()
    page.reload()
    expect(page.locator("#out-count")).to_have_text("1")


def test_the_list_and_its_share_play_one_game_with_each_card_s_profile(page: Page) -> None:
    """Issue 26 item 14: /r/{id}/partie and /s/{code}/partie of the same list were two games
    (keys « r:… » and « s:… »), and the cards showed counters only."""
    created = page.request.post("/api/v1/rosters", data=example(page, "infinity"))
    body = created.json()
    shared = page.request.post(
        f"/api/v1/rosters/{body['id']}/shares",
        headers={"Authorization": f"Bearer {body['edit_token']}"},
    )
    code = shared.json()["code"]
    page.goto(f"/r/{body['id']}/modifier?t={body['edit_token']}")  # the owner's cookie
    page.goto(f"/r/{body['id']}/partie")
    wound(page, "infinity", 0)
    page.locator("#next-turn").click()
    expect(page.locator("#turn")).to_have_text("2")
    page.goto(f"/s/{code}/partie")
    expect(page.locator("#turn")).to_have_text("2")  # the same game
    expect(page.locator(".figure").first.locator("[data-state='1']")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#same-game")).to_contain_text("la même partie")
    # Each card: the profile (L10-11's columns), the badges, the abilities with their texts.
    first = page.locator(".game-entry").first
    expect(first.locator("table.sheet-profile th")).to_have_text(
        ["MOV", "CC", "TR", "PH", "VOL", "BL", "B"]
    )
    expect(first.locator(".badge").first).to_contain_text("SWC")
    jumper = page.locator(".game-entry", has_text="Sauteur de brume").first
    jumper.locator(".game-rules > summary").click()
    expect(jumper.locator("dl.sheet-rules dt")).to_have_text(["AD : Combat Jump"])
    expect(jumper.locator("dl.sheet-rules dd")).to_contain_text("Lors de la phase de déploiement")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert run_axe(page) == []
