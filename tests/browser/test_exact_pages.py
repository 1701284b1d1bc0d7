"""Pages that never mislead (issue 14, findings 5-8, 10 and 11), as a player meets them in
Chromium."""

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.helpers import DESKTOP, PHONE, TRACK_HTMX, htmx_post, open_new_list

pytestmark = pytest.mark.browser


def editor_path(page: Page) -> str:
    return re.sub(r"^https?://[^/]+", "", page.url)


def test_infinity_group_zero_is_refused_in_french_and_never_saved(page: Page) -> None:
    # Finding 5: « Groupe » 0 or -1 blanked the editor with « group : au moins 1 », and the
    # refused row was saved in group 1 on the next change.
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, "infinity", "compagnie_de_brumeval")
    path = editor_path(page)
    rows = page.locator("tr.entry").count()
    total = page.locator("#total [data-total]").inner_text()
    for bad in ("0", "-1"):
        group = page.locator("#add-group")
        htmx_post(page, path, lambda g=group, v=bad: (g.fill(v), g.press("Tab")))
        response = htmx_post(page, path, lambda: page.locator("#add").click())
        assert response.status == 422
        expect(page.locator("#add-error")).to_have_text("Groupe : au moins 1")
        expect(page.locator(".flash.error")).to_contain_text("Ajout refusé : Groupe : au moins 1")
        expect(page.locator("#add-group")).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#add-group")).to_have_value(bad)
        # The list is still all there: names, profiles, points and totals.
        expect(page.locator("tr.entry")).to_have_count(rows)
        expect(page.locator("#total [data-total]")).to_have_text(total)
        expect(page.locator("tr.entry .details").first).not_to_be_empty()
    # The next change saves the list as it was: no row in group 1 appeared.
    htmx_post(
        page,
        path,
        lambda: (
            page.locator("#roster-name").fill("Compagnie"),
            page.locator("#roster-name").press("Tab"),
        ),
    )
    page.reload()
    expect(page.locator("tr.entry")).to_have_count(rows)
    expect(page.locator("#total [data-total]")).to_have_text(total)


def test_necrowarzone_creator_flags_the_field_it_refuses(page: Page) -> None:
    # Finding 6: « Corrigez les champs signalés » with nothing flagged, then English names.
    page.goto("/necrowarzone/createur")
    page.locator("#light-wounds").fill("50")
    page.locator("#light-wounds").press("Tab")
    expect(page.locator("#light-wounds")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#light-wounds-error")).to_have_text("Blessures légères : au plus 20")
    expect(page.locator("#result [data-errors]")).to_contain_text("Blessures légères : au plus 20")
    page.locator("#light-wounds").fill("0")
    page.locator("#xp").fill("2000000")
    page.locator("#xp").press("Tab")
    expect(page.locator("#xp-error")).to_have_text("Expérience (XP) : au plus 1000000")
    page.locator("#add-to-list").click()
    expect(page.locator("#xp-error")).to_have_text("Expérience (XP) : au plus 1000000")
    expect(page.locator("body")).not_to_contain_text("xp :")


def test_totals_are_the_saved_list_while_a_count_is_refused(page: Page) -> None:
    # Finding 7: typing 101 showed a row total computed from a clamped 100.
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, "dcsystem", "feuille_de_bataille_jaffa")
    path = editor_path(page)
    count = page.locator("#entry-0-count")
    saved_count = int(count.input_value())
    each = int(page.locator("#entry-0 td[data-label=Coût]").inner_text())
    total = page.locator("#total [data-total]").inner_text()
    response = htmx_post(page, path, lambda: (count.fill("101"), count.press("Tab")))
    assert response.status == 422
    expect(count).to_have_value("101")
    expect(count).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#entry-0 td[data-label=Total]")).to_have_text(str(each * saved_count))
    expect(page.locator("#total [data-total]")).to_have_text(total)
    expect(page.locator(".flash.error")).to_contain_text(
        "les totaux sont ceux de la liste enregistrée".capitalize()[:0]
        + "Les totaux sont ceux de la liste enregistrée"
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_total_stays_in_sight_on_a_long_list(page: Page, viewport: dict[str, int]) -> None:
    # Finding 8: sticky on phones only.
    page.set_viewport_size(viewport)
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, "dcsystem")
    path = editor_path(page)
    for _ in range(20):
        htmx_post(page, path, lambda: page.locator("#add").click())
    page.locator("#entry-19-count").scroll_into_view_if_needed()
    box = page.locator("#total").bounding_box()
    assert box is not None and 0 <= box["y"] < 60, box


def test_infinity_creator_shows_the_whole_options_table_at_1280(page: Page) -> None:
    # Finding 8: « Vérifier » was clipped to « Vér ».
    page.set_viewport_size(DESKTOP)
    page.goto("/infinity/createur")
    table = page.locator("table.infinity-options")
    fits = table.evaluate(
        "(t) => t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right"
    )
    assert fits
    header = page.locator("table.infinity-options th").last
    expect(header).to_have_text("Vérifier")
    assert header.evaluate("(th) => th.scrollWidth <= th.clientWidth + 1")


@pytest.mark.parametrize("kills", ["-1", "100000000000000000000"])
def test_score_panel_says_what_is_wrong(page: Page, kills: str) -> None:
    # Finding 10: -1 or 10^20 kills sent nothing and kept the stale result.
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, "dcsystem")
    field = page.locator("input[name=kills_2]")
    htmx_post(page, "/dcsystem/score", lambda: (field.fill("3"), field.press("Tab")))
    expect(page.locator("[data-score]")).to_be_visible()
    response = htmx_post(page, "/dcsystem/score", lambda: (field.fill(kills), field.press("Tab")))
    assert response.status == 422
    expect(page.locator("#score-result [role=alert]")).to_contain_text("Ennemis mis hors jeu")
    expect(page.locator("[data-score]")).to_have_count(0)


def test_skip_link_reaches_the_add_panel(page: Page) -> None:
    # Finding 11: 208 Tab presses to reach « Ajouter » on a 50-entry list.
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, "dcsystem", "feuille_de_bataille_jaffa")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Aller au contenu")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Aller à « Ajouter un combattant »")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#add-panel') !== null")


def test_enter_in_the_add_count_adds(page: Page) -> None:
    # Finding 11: Enter in « Nombre » saved instead of adding.
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, "dcsystem")
    path = editor_path(page)
    page.locator("#add-count").fill("3")
    htmx_post(page, path, lambda: page.locator("#add-count").press("Enter"))
    expect(page.locator("tr.entry")).to_have_count(1)
    expect(page.locator("#entry-0-count")).to_have_value("3")


@pytest.mark.parametrize(("system", "example"), [("bastos", None), ("necrowarzone", None)])
def test_added_says_the_figures_name(page: Page, system: str, example: None) -> None:
    # Finding 11: « Ajouté : 1 × combattant ».
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, system)
    path = editor_path(page)
    chosen = page.locator("#add-unit option:checked").inner_text()
    htmx_post(page, path, lambda: page.locator("#add").click())
    name = page.locator("#entry-0-name").get_attribute("placeholder")
    assert name and name != "combattant"
    expect(page.locator(".flash.ok")).to_have_text(f"Ajouté : 1 × {name}.")
    assert name.split(" ")[0] in chosen


def test_tab_title_follows_a_rename(page: Page) -> None:
    page.add_init_script(TRACK_HTMX)
    open_new_list(page, "dcsystem")
    path = editor_path(page)
    field = page.locator("#roster-name")
    htmx_post(page, path, lambda: (field.fill("Équipe Alpha"), field.press("Tab")))
    expect(page).to_have_title("Équipe Alpha — Caserne")


def test_two_tabs_conflict_offers_a_way_out(context: BrowserContext) -> None:
    # Finding 11: « enregistrez à nouveau » with no button, and saving again overwrote the
    # other tab's change without showing it.
    first = context.new_page()
    first.add_init_script(TRACK_HTMX)
    open_new_list(first, "dcsystem")
    path = editor_path(first)
    second = context.new_page()
    second.add_init_script(TRACK_HTMX)
    second.goto(path)
    name = first.locator("#roster-name")
    htmx_post(first, path, lambda: (name.fill("Onglet A"), name.press("Tab")))
    other = second.locator("#roster-name")
    response = htmx_post(second, path, lambda: (other.fill("Onglet B"), other.press("Tab")))
    assert response.status == 409
    expect(second.locator("#conflict li")).to_have_text(
        ["Nom : « Onglet A » là-bas, « Onglet B » ici"]
    )
    # Another change is not a way to overwrite silently: still a conflict.
    limit = second.locator("#points-limit")
    again = htmx_post(second, path, lambda: (limit.fill("250"), limit.press("Tab")))
    assert again.status == 409
    # « Recharger » shows the other tab's version.
    second.locator("#conflict-reload").click()
    expect(second.locator("#roster-name")).to_have_value("Onglet A")
    # And after a new conflict, « Enregistrer ma version par-dessus » keeps this tab's.
    htmx_post(first, path, lambda: (name.fill("Onglet A2"), name.press("Tab")))
    response = htmx_post(second, path, lambda: (other.fill("Onglet B"), other.press("Tab")))
    assert response.status == 409
    saved = htmx_post(second, path, lambda: second.locator("#conflict-overwrite").click())
    assert saved.status == 200
    first.reload()
    expect(first.locator("#roster-name")).to_have_value("Onglet B")
