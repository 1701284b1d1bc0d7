"""Infinity in a real browser: build a two-group list with a Lieutenant in the editor (a
trooper held in reserve, another moved between groups), share it and read its BBCode.

Lnn = line of shared/rules/infinity-n2.fr.txt; the troopers are Caserne's invented faction
(data/systems/infinity/catalogue.toml).
"""

import re
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.helpers import (
    IN_VIEW,
    NOT_COVERED,
    TRACK_HTMX,
    assert_same_document,
    check_system_pages,
    htmx_post,
    mark_document,
    type_and_leave,
)

pytestmark = pytest.mark.browser

LIST_NAME = "Patrouille de Brumeval"


def test_build_a_two_group_list_with_a_lieutenant_share_and_read_its_bbcode(
    page: Page, live_server: str
) -> None:
    page.add_init_script(TRACK_HTMX)

    # Home page -> a new Infinity list, named, at 150 points.
    page.goto("/")
    page.locator("#system-infinity").get_by_role("button", name="Nouvelle liste").click()
    page.wait_for_url(re.compile(r"/listes/nouvelle\?system=infinity$"))
    page.locator("#new-name").fill(LIST_NAME)
    page.locator("#new-points").fill("150")
    page.locator("#create-roster").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    path = urlsplit(page.url).path
    mark_document(page)
    editor = page.locator("#editor")
    expect(page.locator("#roster-name")).to_have_value(LIST_NAME)
    # L81: 150 points give 3 SWC.
    expect(editor.locator('[data-budget="swc"] strong')).to_have_text("SWC 0 / 3")

    def add(option: str, group: str, count: str = "") -> None:
        htmx_post(page, path, lambda: page.locator("#add-unit").select_option(option))
        expect(page.locator("#add-unit")).to_have_value(option)
        if page.locator("#add-group").input_value() != group:
            htmx_post(page, path, lambda: type_and_leave(page.locator("#add-group"), group))
        if count:
            htmx_post(page, path, lambda: type_and_leave(page.locator("#add-count"), count))
        htmx_post(page, path, lambda: editor.get_by_role("button", name="Ajouter").click())

    # Group 1: the Lieutenant (a Sergent vétéran's Lieutenant option, SWC 1, L83) and two
    # Gardes; no Lieutenant yet is an error until then.
    add("garde_de_brumeval/fusil", "1", count="2")
    expect(page.locator('[data-code="no_lieutenant"]')).to_have_count(1)
    add("sergent_veteran/fusil_lourd_lt", "1", count="1")
    expect(page.locator('[data-code="no_lieutenant"]')).to_have_count(0)
    expect(editor.locator('[data-budget="swc"] strong')).to_have_text("SWC 1 / 3")

    # Group 2: a Sauteur de brume, held in reserve by AD: Combat Jump (L19-20).
    add("sauteur_de_brume/fusil", "2")
    expect(page.locator("tr.entry")).to_have_count(3)
    reserve = page.locator("#entry-2-reserve")
    htmx_post(page, path, lambda: reserve.check())
    expect(page.locator("#entry-2-reserve")).to_be_checked()

    # A Chirurgienne added to group 1, then moved to group 2 with her group select: she
    # joins group 2's block.
    add("chirurgienne_de_campagne/pistolet", "1")
    expect(page.locator("#entry-3-group")).to_have_value("1")
    htmx_post(page, path, lambda: page.locator("#entry-3-group").select_option("2"))
    expect(page.locator("#entry-3-group")).to_have_value("2")
    expect(page.locator("#entry-3-name")).to_have_attribute(
        "placeholder", re.compile(r"^Chirurgienne de campagne")
    )

    expect(editor.locator('[data-budget="points"] strong')).to_have_text("82 / 150 points")
    expect(editor.locator(".validity")).to_have_text("Liste valide")
    totals = editor.locator(".figure-total")
    expect(totals).to_have_text(
        [
            "5 figurines",
            "3 ordres au groupe 1",
            "2 ordres au groupe 2, 1 au déploiement",
        ]
    )
    assert_same_document(page)

    # Share, then read the BBCode as a forum would get it.
    page.locator("#share").click()
    page.wait_for_url(re.compile(r"/s/[A-Za-z0-9_-]+$"))
    code = urlsplit(page.url).path.removeprefix("/s/")
    share = page.locator("#share")
    expect(share.locator("tr.group th")).to_have_text(
        [
            "GROUPE 1 — 3 figurines · 3 ordres",
            "GROUPE 2 — 2 figurines · 2 ordres (1 au déploiement)",
        ]
    )
    bbcode = page.locator("#bbcode").input_value()
    assert bbcode == (
        f"[b]{LIST_NAME}[/b] — Infinity N2 — construction d'armée\n"
        "[b]Total : SWC 1/3 | points 82/150[/b]\n"
        "\n"
        "[u]GROUPE 1 — 3 figurines · 3 ordres[/u]\n"
        "[b]2 × Garde de Brumeval (Fusil d'assaut)[/b] — 9 pts chacun, 18 pts\n"
        "MOV 10-5 CC 12 TR 11 PH 10 VOL 12 BL 1 B 1 — [color=#1f5fa8]SWC 0[/color]\n"
        "[b]1 × Sergent vétéran (Lieutenant, Fusil lourd)[/b] — 26 pts\n"
        "MOV 10-5 CC 15 TR 13 PH 11 VOL 14 BL 2 B 1 — Courage — "
        "[color=#1f5fa8]SWC 1[/color], [color=#7d6608]Lieutenant[/color]\n"
        "[u]GROUPE 2 — 2 figurines · 2 ordres (1 au déploiement)[/u]\n"
        "[b]1 × Sauteur de brume (Fusil d'assaut)[/b] — 24 pts\n"
        "MOV 10-5 CC 14 TR 12 PH 12 VOL 13 BL 2 B 1 — AD : Combat Jump — "
        "[color=#1f5fa8]SWC 0[/color], [color=#1e7b46]En réserve (AD)[/color]\n"
        "[b]1 × Chirurgienne de campagne (Pistolet)[/b] — 14 pts\n"
        "MOV 10-5 CC 11 TR 10 PH 10 VOL 14 BL 1 B 1 — Docteur — [color=#1f5fa8]SWC 0[/color]\n"
        "[size=85]Lieutenant : Sergent vétéran (Lieutenant, Fusil lourd), groupe 1.[/size]\n"
        "[size=85]Compagnie franche de Brumeval : Faction d'exemple inventée par Caserne, aucun "
        "profil de Corvus Belli : noms, caractéristiques, coûts, SWC et AVA sont fictifs et "
        "servent seulement à essayer le constructeur.[/size]\n"
        "\n"
        f"[url={live_server}/s/{code}]Voir cette liste sur Caserne[/url]\n"
    )


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_infinity_pages_fit_and_pass_axe(
    new_context: Callable[..., BrowserContext], viewport: dict[str, int]
) -> None:
    """The checks of test_pages_fit.py on Infinity's pages (catalogue, creator, an editor, its
    share): nothing scrolls sideways, axe-core finds no serious or critical violation, the
    Content-Security-Policy refuses nothing."""
    page = new_context(viewport=viewport).new_page()
    check_system_pages(page, "infinity", "liste_a_corriger", viewport)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_creators_cost_stays_in_sight(
    new_context: Callable[..., BrowserContext], viewport: dict[str, int]
) -> None:
    page = new_context(viewport=viewport).new_page()
    page.goto("/infinity/createur")
    for selector in ("#trooper-name", "#p-B", "#free-skills", "input[name=o3-points]"):
        control = page.locator(selector)
        control.focus()  # the browser scrolls it into view, as Tab does
        assert control.evaluate(NOT_COVERED), f"{selector} is covered at {viewport['width']} px"
        cost = page.locator("[data-points]")
        assert cost.evaluate_all(IN_VIEW), f"no cost in sight at {viewport['width']} px"
