"""Necromunda–Warzone in a real browser: create a chef in the creator (his numbers live
above the form), add him to a new gang, add gangers and give them XP in the editor, share
the gang and read its BBCode; then the shooting helper on the catalogue page.

Lnn = line of shared/rules/necromunda-warzone.fr.txt. No points anywhere: the text has none.
"""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    TRACK_HTMX,
    assert_same_document,
    htmx_post,
    mark_document,
    type_and_leave,
)

pytestmark = pytest.mark.browser

CREATOR = "/necrowarzone/createur"
GANG_NAME = "Les Crocs [de] Vorn"


def test_create_a_chef_build_a_gang_share_and_read_its_bbcode(page: Page, live_server: str) -> None:
    page.add_init_script(TRACK_HTMX)

    # Home page -> the Necromunda–Warzone creator, which opens on a ganger.
    page.goto("/")
    page.locator("#system-necrowarzone").get_by_role("link", name="Créer un combattant").click()
    page.wait_for_url(f"{live_server}{CREATOR}")
    expect(page.locator("h1")).to_have_text("Créer une figurine")
    mark_document(page)
    result = page.locator("#result")
    expect(result.locator("[data-actions]")).to_have_attribute("data-actions", "2")

    # A chef (L9-11: 150 XP → 3, 4 for a chef), CT 5 (L39: 2), a heavy weapon (L70), Cd 9.
    htmx_post(page, CREATOR, lambda: type_and_leave(page.locator("#figure-name"), "Vorn"))
    htmx_post(page, CREATOR, lambda: page.locator("#leader").check())
    htmx_post(page, CREATOR, lambda: type_and_leave(page.locator("#xp"), "150"))
    htmx_post(page, CREATOR, lambda: type_and_leave(page.locator("#p-CT"), "5"))
    htmx_post(page, CREATOR, lambda: type_and_leave(page.locator("#p-Cd"), "9"))
    htmx_post(
        page, CREATOR, lambda: type_and_leave(page.locator('[name="w0-name"]'), "Lance-flammes")
    )
    htmx_post(page, CREATOR, lambda: page.locator('[name="w0-heavy"]').check())
    expect(result.locator(".figure-total")).to_have_text(
        [
            "4 actions par tour",
            "touche sur 2+ (CT 5)",
            "encombré (−1 au corps-à-corps)",
            "commandement à 9 pas",
        ]
    )
    # The numbers stand above the form, and nothing says points.
    result_box, profile_box = result.bounding_box(), page.locator("#profile").bounding_box()
    assert result_box and profile_box and result_box["y"] < profile_box["y"]
    expect(page.locator("main")).not_to_contain_text("pts")
    assert_same_document(page)

    # Add him to a new gang: the editor opens on it.
    page.locator("#add-to-list").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    path = urlsplit(page.url).path
    mark_document(page)
    editor = page.locator("#editor")
    expect(page.locator("#points-limit")).to_have_count(0)
    htmx_post(page, path, lambda: type_and_leave(page.locator("#roster-name"), GANG_NAME))

    # Three sample gangers (L9: 23 XP → 2 actions each), then 120 XP for them (L10: 3).
    htmx_post(page, path, lambda: page.locator("#add-unit").select_option("ganger"))
    htmx_post(page, path, lambda: type_and_leave(page.locator("#add-count"), "3"))
    htmx_post(page, path, lambda: editor.get_by_role("button", name="Ajouter").click())
    expect(page.locator("tr.entry")).to_have_count(2)
    totals = editor.locator(".figure-total")
    expect(totals.nth(1)).to_have_text("10 actions par tour")
    htmx_post(page, path, lambda: type_and_leave(page.locator("#entry-1-xp"), "120"))
    expect(totals).to_have_text(
        [
            "4 figurines",
            "13 actions par tour",
            "510 XP au total",
            "150 XP d’initiative (chef)",
            "1 perte pour un test de déroute",
            "9 pas rayon de commandement",
        ]
    )
    expect(editor.locator(".validity")).to_have_text("Liste valide")
    expect(editor).not_to_contain_text("pts")
    assert_same_document(page)

    # Share, then read the BBCode as a forum would get it.
    page.locator("#share").click()
    page.wait_for_url(re.compile(r"/s/[A-Za-z0-9_-]+$"))
    code = urlsplit(page.url).path.removeprefix("/s/")
    expect(page.locator("#share h1")).to_have_text(GANG_NAME)
    expect(page.locator("#share")).not_to_contain_text("points")
    bbcode = page.locator("#bbcode").input_value()
    assert bbcode == (
        "[b]Les Crocs ［de］ Vorn[/b] — Nécromunda–Warzone (activations alternées)\n"
        "[b]Total : figurines : 4, actions par tour : 13, XP au total : 510, "
        "XP d’initiative (chef) : 150, perte pour un test de déroute : 1, "
        "rayon de commandement : 9 pas[/b]\n"
        "\n"
        "[b]1 × Vorn[/b]\n"
        "M4 CC3 CT5 F3 E3 PV1 I3 A1 Cd9 — Lance-flammes (lourde), Couteau — 150 XP — "
        "commandement à 9 pas — chef, 4 actions, touche 2+, encombré\n"
        "[b]3 × Ganger[/b]\n"
        "M4 CC3 CT3 F3 E3 PV1 I3 A1 Cd7 — Fusil laser, Couteau — 120 XP — "
        "3 actions, touche 4+\n"
        "\n"
        f"[url={live_server}/s/{code}]Voir cette liste sur Caserne[/url]\n"
    )


def test_shooting_helper_on_the_catalogue(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    page.goto("/necrowarzone/catalogue")
    mark_document(page)
    tir = "/necrowarzone/tir"
    # CT 4 (L39: 3), in cover (L42: -2), having taken cover (-3, counted once, L34).
    htmx_post(page, tir, lambda: type_and_leave(page.locator("#shot-ct"), "4"))
    htmx_post(page, tir, lambda: page.get_by_label("Cible à couvert").check())
    expect(page.locator("[data-roll]")).to_have_text("5+")
    htmx_post(page, tir, lambda: page.get_by_label("La cible s'est mise à couvert").check())
    expect(page.locator("[data-roll]")).to_have_text("6+")
    expect(page.locator("[data-needed]")).to_have_text("6")
    assert_same_document(page)
