"""The issue's acceptance flow in a real browser: create a fighter, build a list, share it."""

import re
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.helpers import (
    TRACK_HTMX,
    assert_same_document,
    htmx_post,
    mark_document,
    open_new_list,
    type_and_leave,
)

pytestmark = pytest.mark.browser

FIGHTER_NAME = "Marine d'élite <b>"
LIST_NAME = "Équipe [SG-1]"


def check_creator(page: Page, points: int, slots: str, dice: str) -> None:
    expect(page.locator("#result [data-points]")).to_have_text(str(points))
    expect(page.locator("#result [data-slots]")).to_have_text(slots)
    expect(page.locator("#result .dice")).to_have_attribute("aria-label", dice)


def test_create_fighter_build_list_share_and_duplicate(
    page: Page, live_server: str, new_context: Callable[..., BrowserContext]
) -> None:
    page.add_init_script(TRACK_HTMX)

    # Home page -> fighter creator.
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Caserne")
    page.locator("#system-dcsystem").get_by_role("link", name="Créer un combattant").click()
    page.wait_for_url(f"{live_server}/dcsystem/createur")
    expect(page.locator("h1")).to_have_text("Créer un combattant")
    creator_url = page.url
    mark_document(page)

    # The creator opens on a level 2 fighter with a level 2 gun and a protective vest.
    check_creator(
        page,
        30,
        "2/2 capacités ou équipements, 0/1 handicap",
        "4 dés rouges, 1 dé bleu, 2 dés blancs",
    )

    name = page.locator("#fighter-name")
    htmx_post(page, "/dcsystem/createur", lambda: name.fill(FIGHTER_NAME))
    expect(name).to_have_value(FIGHTER_NAME)

    level = page.locator("#level")
    htmx_post(page, "/dcsystem/createur", lambda: level.get_by_label("Niveau 1").check())
    check_creator(
        page,
        23,
        "2/1 capacités ou équipements, 0/1 handicap",
        "3 dés rouges, 1 dé bleu, 2 dés blancs",
    )
    expect(page.locator("#result .issue.error")).to_have_text(
        "Erreur : Niveau 1 : 2 capacités ou équipements pour 1 autorisé(s), 1 de trop."
    )
    htmx_post(page, "/dcsystem/createur", lambda: level.get_by_label("Niveau 2").check())
    check_creator(
        page,
        30,
        "2/2 capacités ou équipements, 0/1 handicap",
        "4 dés rouges, 1 dé bleu, 2 dés blancs",
    )
    expect(page.locator("#result .issue")).to_have_count(0)

    capacities = page.locator("#items-capacite")
    htmx_post(page, "/dcsystem/createur", lambda: capacities.get_by_label("Élite").check())
    check_creator(
        page,
        33,
        "2/3 capacités ou équipements, 0/1 handicap",
        "4 dés rouges, 1 dé bleu, 2 dés blancs",
    )
    htmx_post(page, "/dcsystem/createur", lambda: capacities.get_by_label("Soin").check())
    check_creator(
        page,
        48,
        "3/3 capacités ou équipements, 0/1 handicap",
        "4 dés rouges, 1 dé bleu, 2 dés blancs",
    )
    expect(page.locator("#result [data-total]")).to_have_text("48")
    expect(page.locator("#result .issue")).to_have_count(0)

    # One capacity too many: the result says so, in place; unticking it clears the error.
    htmx_post(page, "/dcsystem/createur", lambda: capacities.get_by_label("Rapide").check())
    check_creator(
        page,
        51,
        "4/3 capacités ou équipements, 0/1 handicap",
        "4 dés rouges, 1 dé bleu, 2 dés blancs",
    )
    expect(page.locator("#result .issue.error")).to_have_text(
        "Erreur : Niveau 2 : 4 capacités ou équipements pour 3 autorisé(s), 1 de trop."
    )
    htmx_post(page, "/dcsystem/createur", lambda: capacities.get_by_label("Rapide").uncheck())
    check_creator(
        page,
        48,
        "3/3 capacités ou équipements, 0/1 handicap",
        "4 dés rouges, 1 dé bleu, 2 dés blancs",
    )
    expect(page.locator("#result .issue")).to_have_count(0)
    assert_same_document(page)
    assert page.url == creator_url

    # Two of them, to a new list: the roster editor opens on it.
    add = page.locator("fieldset.add-to-list")
    expect(add.locator("select[name=roster]")).to_have_value("")
    add.locator("select[name=roster]").select_option(label="Nouvelle liste")
    add.get_by_label("Nombre").fill("2")
    page.locator("#add-to-list").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    roster_path = urlsplit(page.url).path
    mark_document(page)
    editor = page.locator("#editor")
    first = page.locator("#entry-0")
    expect(page.locator("#entry-0-name")).to_have_value(FIGHTER_NAME)
    expect(page.locator("#entry-0-count")).to_have_value("2")
    expect(first.locator("td.num")).to_have_text(["48", "96"])
    expect(editor.locator("[data-total]")).to_have_text("96")
    expect(page.locator("tr.entry")).to_have_count(1)

    # Name and format, saved as they change (HTMX posts the form, no navigation).
    roster_name = page.locator("#roster-name")
    htmx_post(page, roster_path, lambda: type_and_leave(roster_name, LIST_NAME))
    expect(roster_name).to_have_value(LIST_NAME)
    points_limit = page.locator("#points-limit")
    assert htmx_post(page, roster_path, lambda: type_and_leave(points_limit, "200")).status == 200
    expect(points_limit).to_have_value("200")
    expect(editor.locator("#total strong")).to_have_text("96 / 200 points")

    # A catalogue unit: one Jaffa (30 points printed).
    # Choosing the unit autosaves the form; the swap must keep the choice (hx-preserve).
    htmx_post(page, roster_path, lambda: page.locator("#add-unit").select_option("jaffa"))
    expect(page.locator("#add-unit")).to_have_value("jaffa")
    # An empty count means the unit's own default (1 fighter in DCSystem).
    expect(page.locator("#add-count")).to_have_value("")
    htmx_post(page, roster_path, lambda: editor.get_by_role("button", name="Ajouter").click())
    expect(page.locator("tr.entry")).to_have_count(2)
    expect(page.locator("#entry-1-name")).to_have_attribute("placeholder", "Jaffa")
    expect(page.locator("#entry-1 td.num")).to_have_text(["30", "30"])
    expect(editor.locator("[data-total]")).to_have_text("126")

    # A hidden move: Raid aérien, 15 points.
    raid = page.locator("#hidden-moves").get_by_label("Raid aérien")
    htmx_post(page, roster_path, lambda: raid.check())
    expect(raid).to_be_checked()
    expect(editor.locator("[data-total]")).to_have_text("141")
    expect(editor.locator("#total strong")).to_have_text("141 / 200 points")
    expect(editor.locator(".validity")).to_have_text("Liste valide")
    assert_same_document(page)
    assert urlsplit(page.url).path == roster_path

    # Everything was saved: a reload shows the same list.
    page.reload()
    expect(page).to_have_title(f"{LIST_NAME} — Caserne")
    expect(roster_name).to_have_value(LIST_NAME)
    expect(points_limit).to_have_value("200")
    expect(editor.locator("[data-total]")).to_have_text("141")

    # Share: the public page, its public link, and « Modifier » for the owner.
    page.locator("#share").click()
    page.wait_for_url(re.compile(r"/s/[A-Za-z0-9_-]+$"))
    code = urlsplit(page.url).path.removeprefix("/s/")
    share_url = f"{live_server}/s/{code}"
    expect(page.locator("#edit-roster")).to_have_attribute("href", roster_path)
    expect(page.locator("#public-link")).to_have_value(share_url)
    page.reload()
    expect(page.locator("#share h1")).to_have_text(LIST_NAME)
    page.goto("/listes")
    edit_url = page.locator("#carnet-link-value").input_value()
    page.goto(share_url)

    # The page: the fighter's name is text, never markup.
    shared = page.locator("#share")
    expect(shared.locator(".total strong")).to_have_text("141 / 200 points")
    expect(shared.locator("tr.entry td:nth-child(2) > strong")).to_have_text(
        [FIGHTER_NAME, "Jaffa"]
    )
    expect(shared.locator("tr.extra strong")).to_have_text("Coup caché : Raid aérien")
    expect(page.locator("main b")).to_have_count(0)
    html = page.request.get(share_url).text()
    assert "<strong>Marine d&#39;élite &lt;b&gt;</strong>" in html
    assert "Marine d'élite <b>" not in html

    # The BBCode, exactly as app/exports/bbcode.py writes it: brackets typed by the user become
    # full-width look-alikes (they could open a tag); "<b>" is not BBCode and stays as typed.
    expected_bbcode = "\n".join(
        [
            "[b]Équipe ［SG-1］[/b] — Dices & Colors System — Stargate's War",
            "[b]Total : 141 / 200 points[/b]",
            "",
            "[b]2 × Marine d'élite <b>[/b] — 48 pts chacun, 96 pts",
            "Niveau 2 — Élite, Soin, Arme de tir niveau 2, Gilet de protection / armure / écailles"
            " — [color=#c0392b]4 rouges[/color], [color=#1f5fa8]1 bleu[/color],"
            " [color=#7f8c8d]2 blancs[/color]",
            "[b]1 × Jaffa[/b] — 30 pts",
            "Niveau 2 — Arme de tir niveau 3, Arme de corps à corps niveau 1"
            " — [color=#c0392b]3 rouges[/color], [color=#1f5fa8]1 bleu[/color],"
            " [color=#7f8c8d]3 blancs[/color], [color=#b7950b]1 jaune[/color]",
            "[b]Coup caché : Raid aérien[/b] — 15 pts",
            "[size=85]Coûts des profils publiés : tels qu'imprimés dans les listes d'armée.[/size]",
            "",
            f"[url={share_url}]Voir cette liste sur Caserne[/url]",
            "",
        ]
    )
    bbcode = page.locator("#bbcode").input_value()
    assert bbcode == expected_bbcode
    assert "2 × Marine d'élite <b>[/b]" in bbcode

    # Copy: the button says it worked, the clipboard holds the BBCode, the label comes back.
    copy = page.locator("#copy-bbcode")
    expect(copy).to_have_text("Copier le BBCode")
    copy.click()
    expect(copy).to_have_text("Copié !")
    assert page.evaluate("navigator.clipboard.readText()") == expected_bbcode
    expect(copy).to_have_text("Copier le BBCode")

    # Every export link answers; the BBCode file is the textarea's text.
    links = page.locator("section.export a:not(#play-sheet):not(#game-mode)")
    # Then Tabletop Simulator's text and JSON (docs/tts.md).
    expect(links).to_have_text(
        ["BBCode", "Markdown", "texte", "JSON", "texte à coller", "JSON pour un script"]
    )
    expect(page.locator("#play-sheet")).to_have_attribute("href", f"/s/{code}/feuille")
    expect(page.locator("#game-mode")).to_have_attribute("href", f"/s/{code}/partie")
    hrefs = [links.nth(i).get_attribute("href") for i in range(6)]
    suffixes = ("bbcode", "md", "txt", "json", "tts.txt", "tts.json")
    assert hrefs == [f"/s/{code}.{ext}" for ext in suffixes]
    exports = {href: page.request.get(href) for href in hrefs if href}
    assert [r.status for r in exports.values()] == [200] * 6
    assert "[b]Marine d'élite <b>[/b]" in exports[f"/s/{code}.tts.txt"].text()
    assert exports[f"/s/{code}.bbcode"].text() == expected_bbcode
    assert exports[f"/s/{code}.md"].headers["content-type"] == "text/markdown; charset=utf-8"
    assert exports[f"/s/{code}.txt"].text().startswith(f"{LIST_NAME}\n")
    snapshot = exports[f"/s/{code}.json"].json()
    assert snapshot["roster"]["name"] == LIST_NAME
    assert snapshot["summary"]["points"] == 141

    # Open Graph, for forum and chat previews.
    expect(page.locator('meta[property="og:title"]')).to_have_attribute(
        "content", f"{LIST_NAME} — 141/200 points"
    )
    expect(page.locator('meta[property="og:url"]')).to_have_attribute("content", share_url)

    # The carnet link opens the list for editing in another browser.
    other = new_context().new_page()
    other.goto(edit_url)
    other.locator("#adopt").click()  # the link asks; the click opens the carnet
    other.wait_for_url(f"{live_server}/listes")
    other.goto(roster_path)
    expect(other.locator("#roster-name")).to_have_value(LIST_NAME)
    expect(other.locator("#editor [data-total]")).to_have_text("141")

    # Duplicate: a new list of mine, editable, named "... (copie)".
    page.locator("#duplicate").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    copy_path = urlsplit(page.url).path
    assert copy_path != roster_path
    expect(page.locator("#roster-name")).to_have_value(f"{LIST_NAME} (copie)")
    expect(page.locator("#points-limit")).to_have_value("200")
    expect(page.locator("tr.entry")).to_have_count(2)
    expect(page.locator("#editor [data-total]")).to_have_text("141")
    expect(page.locator("#hidden-moves").get_by_label("Raid aérien")).to_be_checked()
    mark_document(page)
    jaffas = page.locator("#entry-1-count")
    assert (
        htmx_post(page, f"{copy_path}/nombres", lambda: type_and_leave(jaffas, "2")).status == 200
    )
    expect(page.locator("#editor [data-total]")).to_have_text("171")
    assert_same_document(page)


def test_creator_works_without_javascript(new_context: Callable[..., BrowserContext]) -> None:
    page = new_context(java_script_enabled=False).new_page()
    page.goto("/dcsystem/createur")
    calculate = page.get_by_role("button", name="Calculer")
    expect(calculate).to_be_visible()  # the form's default button, shown when scripts are off
    capacities = page.locator("#items-capacite")
    capacities.get_by_label("Élite").check()
    capacities.get_by_label("Soin").check()
    with page.expect_navigation() as navigation:
        calculate.click()
    response = navigation.value
    assert response is not None
    assert response.status == 200
    assert response.request.method == "POST"
    assert response.request.header_value("hx-request") is None
    # A whole page, not a fragment: the site header and the form come back with the result.
    expect(page.locator("header.site")).to_have_count(1)
    expect(page.locator("h1")).to_have_text("Créer un combattant")
    check_creator(
        page,
        48,
        "3/3 capacités ou équipements, 0/1 handicap",
        "4 dés rouges, 1 dé bleu, 2 dés blancs",
    )
    expect(capacities.get_by_label("Élite")).to_be_checked()
    expect(capacities.get_by_label("Soin")).to_be_checked()
    expect(page.locator("#items-equipement input:checked")).to_have_count(2)


def test_bad_points_limit_is_explained_next_to_the_field(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    roster_path = open_new_list(page, "dcsystem")
    mark_document(page)

    roster_name = page.locator("#roster-name")
    points_limit = page.locator("#points-limit")
    # Each change saves at once (no debounce): the name first.
    htmx_post(page, roster_path, lambda: type_and_leave(roster_name, "Ma liste du samedi"))
    limit_error = page.locator("label:has(#points-limit) + .field-error")
    flash = page.locator("#editor .flash.error")
    for bad in ("-5", "0"):
        response = htmx_post(page, roster_path, lambda bad=bad: type_and_leave(points_limit, bad))
        assert response.status == 422
        # The message sits right after the field; what was typed is all still there.
        expect(limit_error).to_have_text("Format (points) : nombre entier entre 1 et 100000")
        expect(limit_error).to_have_attribute("role", "alert")
        expect(flash).to_have_text(
            "Modification non enregistrée : corrigez les champs signalés."
            " Les totaux sont ceux de la liste enregistrée."
        )
        expect(points_limit).to_have_value(bad)
        expect(roster_name).to_have_value("Ma liste du samedi")
        expect(page.locator(".error-detail")).to_have_count(0)
    assert_same_document(page)

    # Corrected, it saves: the message goes, and a reload shows both values kept.
    assert htmx_post(page, roster_path, lambda: type_and_leave(points_limit, "150")).status == 200
    expect(limit_error).to_have_count(0)
    expect(flash).to_have_count(0)
    expect(page.locator("#total strong")).to_have_text("0 / 150 points")
    page.reload()
    expect(roster_name).to_have_value("Ma liste du samedi")
    expect(points_limit).to_have_value("150")
