"""Every save kept, in a browser (issue 30, « Every save kept »; docs/history.md): a list
edited on two devices of one carnet (a phone renames it, a computer changes a count), then
restored from the history to the version from before both: the list as it was, one new
version, the versions of both edits still there. And the history's and the carnet file's
pages, at 390 and 1280 px, with axe-core."""

import json
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.helpers import DESKTOP, PHONE, TRACK_HTMX, htmx_post, open_new_list
from tests.browser.test_every_page import Tour

pytestmark = pytest.mark.browser

EXAMPLE = ("dcsystem", "feuille_de_bataille_sg")


def device(new_context: Callable[..., BrowserContext], viewport: dict[str, int]) -> Page:
    page = new_context(viewport=viewport).new_page()
    page.add_init_script(TRACK_HTMX)
    return page


def carnet_link(page: Page) -> str:
    page.goto("/listes")
    page.locator("#carnet summary").click()
    return page.locator("#carnet-link-value").input_value()


def versions(page: Page) -> list[str]:
    return page.locator("article.version h2").all_inner_texts()


def test_a_list_edited_on_two_devices_comes_back_from_before_both(
    new_context: Callable[..., BrowserContext],
) -> None:
    phone = device(new_context, PHONE)
    path = open_new_list(phone, *EXAMPLE)
    first_count = phone.locator("#entry-0-count").input_value()
    computer = device(new_context, DESKTOP)
    computer.goto(carnet_link(phone))
    computer.locator("#adopt").click()  # the same carnet on a second device
    computer.wait_for_url(re.compile(r"/listes$"))

    # Both devices open the list; the phone renames it, then the computer (its page from
    # before the rename) changes a count: refused as a conflict, it keeps its own version.
    phone.goto(path)
    computer.goto(path)
    name = phone.locator("#roster-name")
    renamed = htmx_post(phone, path, lambda: (name.fill("Sur le téléphone"), name.press("Tab")))
    assert renamed.status == 200
    count = computer.locator("#entry-0-count")
    stale = htmx_post(computer, path, lambda: (count.fill("3"), count.press("Tab")))
    assert stale.status == 409
    expect(computer.locator("#conflict")).to_be_visible()
    kept = htmx_post(computer, path, lambda: computer.locator("#conflict-overwrite").click())
    assert kept.status == 200

    # The history holds the three saves, newest first, each saying what it changed.
    computer.goto(f"{path}/historique")
    assert versions(computer) == ["Version 3 (actuelle)", "Version 2", "Version 1"]
    expect(computer.locator("#version-2 ul.summary li")).to_have_text(
        ["Nom : « Feuille de bataille SG » → « Sur le téléphone »"]
    )
    expect(computer.locator("#version-3 ul.summary li")).to_contain_text(
        [
            f"Chef de groupe SG {first_count} → 3",
            "Nom : « Sur le téléphone » → « Feuille de bataille SG »",
        ]
    )

    # Version 1, from before both, read-only, then restored.
    computer.locator("#open-1").click()
    expect(computer.locator("#read-only")).to_contain_text("Version 1")
    expect(computer.locator("#entry-0-count")).to_have_count(0)
    computer.locator("#restore").click()
    computer.wait_for_url(re.compile(r"/historique\?retablie=1$"))
    expect(computer.locator("#history-message")).to_contain_text(
        "Version 1 rétablie : c'est la version 4 de la liste."
    )
    assert versions(computer) == ["Version 4 (actuelle)", "Version 3", "Version 2", "Version 1"]
    expect(computer.locator("#version-4 ul.summary li").first).to_have_text("Version 1 rétablie")

    # The right document, on the other device too: one new version, nothing lost.
    phone.goto(path)
    expect(phone.locator("#roster-name")).to_have_value("Feuille de bataille SG")
    expect(phone.locator("#entry-0-count")).to_have_value(first_count)
    phone.goto(f"{path}/historique/comparer?de=1&a=4")
    expect(phone.locator("#differences")).to_have_text(
        "Aucun changement : les deux versions sont la même liste."
    )
    phone.goto(f"{path}/historique/comparer?de=3&a=4")
    expect(phone.locator("#differences li")).to_contain_text(
        [f"Chef de groupe SG 3 → {first_count}"]
    )


def test_history_and_carnet_file_pages(page: Page) -> None:
    """Each page checked at 390 and 1280 px (test_every_page.py's `Tour`)."""
    tour = Tour(page)
    path = open_new_list(page, *EXAMPLE)
    name = page.locator("#roster-name")
    page.add_init_script(TRACK_HTMX)
    page.reload()
    htmx_post(page, path, lambda: (name.fill("Équipe SG-1"), name.press("Tab")))
    for where in (
        f"{path}/historique",
        f"{path}/historique/1",
        f"{path}/historique/comparer?de=1&a=2",
        "/listes",
        "/listes/carnet/restauration",
    ):
        page.goto(where)
        tour.check(where)
    file = page.request.get("/listes/carnet/fichier").body()
    assert json.loads(file)["format"] == "caserne-carnet"
    page.locator("#restore-file").set_input_files(
        {"name": "faux.json", "mimeType": "application/json", "buffer": b"pas du JSON"}
    )
    page.locator("#restore-submit").click()
    expect(page.locator("#restore-error")).to_contain_text("Ce fichier n'est pas du JSON")
    tour.check("restaurer un carnet (erreur)")
    page.locator("#restore-file").set_input_files(
        {"name": "carnet.json", "mimeType": "application/json", "buffer": file}
    )
    page.locator("#restore-submit").click()
    expect(page.locator("#restored")).to_contain_text("Arrivé dans votre carnet : 1 liste")
    tour.check("carnet restauré")
    tour.done()
