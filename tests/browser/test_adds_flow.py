"""Adds go to the list being edited (issue 15), in every system: from a list's editor, the
catalogue and the creator it links to choose that list, say « Ajouté à « X » », offer the
way back, never default to « Nouvelle liste », and a double click adds once."""

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.conftest import SYSTEMS

pytestmark = pytest.mark.browser


def entries(page: Page) -> int:
    return page.locator("#editor input[name^=entry-][name$=-ref]").count()


def lists(page: Page) -> int:
    page.goto("/listes")
    return page.locator("#library article").count()


@pytest.mark.parametrize("system", SYSTEMS)
def test_three_adds_from_the_catalogue_and_the_creator_go_to_the_list(
    new_context: Callable[..., BrowserContext], system: str
) -> None:
    page = new_context().new_page()
    name = f"Liste {system}"
    page.goto(f"/listes/nouvelle?system={system}")
    page.locator("#new-name").fill(name)
    page.locator("#new-name").press("Enter")
    page.wait_for_url(re.compile(r"/r/\w+$"))
    roster_path = page.url.split("127.0.0.1", 1)[1].split("/", 1)[1]
    roster_path = "/" + roster_path
    assert entries(page) == 0

    # The catalogue, from the editor: this list is chosen, « Nouvelle liste » comes last.
    page.locator("#to-catalogue").click()
    page.wait_for_url(re.compile(rf"/{system}/catalogue\?liste="))
    expect(page.locator("#adding-to")).to_contain_text(f"Vous ajoutez à « {name} »")
    forms = page.locator("form.add-to-list")
    first = forms.nth(0)
    # One picker for the page (issue 26), its choice in every card.
    expect(page.locator("#pick-roster option:checked")).to_have_text(name)
    expect(page.locator("#pick-roster option").last).to_have_text("Nouvelle liste")
    chosen = page.locator("#pick-roster").input_value()
    assert first.locator("input[name=roster]").input_value() == chosen
    first.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"ajoute=1"))
    expect(page.locator("#adding-to")).to_contain_text(f"Ajouté à « {name} » : ")
    # A double click adds once: the second click sends nothing.
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    with page.expect_response(lambda r: r.url.endswith("/listes/ajouter")):
        page.locator("form.add-to-list").nth(1).locator("button[type=submit]").dblclick()
    page.wait_for_load_state("networkidle")
    assert len(posts) == 1, posts
    page.locator("#back-to-list").click()
    page.wait_for_url(re.compile(rf"{roster_path}$"))
    assert entries(page) == 2

    # The creator, from the editor: its unit goes to this list too.
    page.locator("#to-creator").click()
    page.wait_for_url(re.compile(rf"/{system}/createur\?liste="))
    expect(page.locator("select[name=roster] option:checked")).to_have_text(name)
    posts.clear()
    page.locator("#add-to-list").dblclick()  # htmx: the second click sends nothing either
    page.wait_for_url(re.compile(r"ajoute=1"))
    assert [url for url in posts if url.endswith("/ajouter")] == [
        f"{page.url.split('/', 3)[0]}//{page.url.split('/', 3)[2]}/{system}/createur/ajouter"
    ], posts
    expect(page.locator("#adding-to")).to_contain_text(f"Ajouté à « {name} » : 1 × ")
    page.locator("#back-to-list").click()
    page.wait_for_url(re.compile(rf"{roster_path}$"))
    assert entries(page) == 3
    assert lists(page) == 1  # no new list was made


def test_the_share_page_offers_its_public_link_and_the_owner_modifier(
    new_context: Callable[..., BrowserContext], live_server: str
) -> None:
    """Issue 15: the share page's public link and its copy button, « Modifier » for the owner
    only, and the editor's « plus à jour » note once the list changed."""
    owner = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = owner.new_page()
    page.goto("/listes/nouvelle?system=dcsystem")
    page.locator("#new-name").fill("À partager")
    page.locator("#new-name").press("Enter")
    page.wait_for_url(re.compile(r"/r/\w+$"))
    roster_path = "/r/" + page.url.rsplit("/r/", 1)[1]
    page.locator("#share").click()
    page.wait_for_url(re.compile(r"/s/\w+$"))
    share_url = page.url
    expect(page.locator("#public-link")).to_have_value(share_url)
    page.locator("#copy-public-link").click()
    expect(page.locator("#copy-public-link")).to_have_text("Copié !")
    assert page.evaluate("navigator.clipboard.readText()") == share_url
    expect(page.locator("#edit-roster")).to_have_text("Modifier")
    page.locator("#edit-roster").click()
    page.wait_for_url(re.compile(rf"{roster_path}$"))
    expect(page.locator("#share-state")).to_contain_text("Partagée le ")
    expect(page.locator("#share-state")).not_to_contain_text("plus à jour")
    with page.expect_response(lambda r: r.url.endswith(roster_path) and r.request.method == "POST"):
        page.locator("#roster-name").fill("À partager, changée")
        page.locator("#roster-name").press("Tab")
    expect(page.locator("#share-state")).to_contain_text("La version partagée n'est plus à jour")
    page.locator("#share-again").click()
    page.wait_for_url(re.compile(r"/s/\w+$"))
    assert page.url != share_url
    expect(page.locator("#share h1")).to_have_text("À partager, changée")
    # A reader sees the public page: no « Modifier ».
    reader = new_context().new_page()
    reader.goto(share_url)
    expect(reader.locator("#public-link")).to_have_value(share_url)
    expect(reader.locator("#edit-roster")).to_have_count(0)


def test_a_double_click_on_the_editors_add_adds_once(
    new_context: Callable[..., BrowserContext],
) -> None:
    page = new_context().new_page()
    page.goto("/listes/nouvelle?system=dcsystem")
    page.locator("#new-name").fill("Double clic")
    page.locator("#new-name").press("Enter")
    page.wait_for_url(re.compile(r"/r/\w+$"))
    page.locator("#add-unit").select_option(index=1)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.locator("#add").dblclick()
    expect(page.locator("#editor input[name^=entry-][name$=-ref]")).to_have_count(1)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    assert entries(page) == 1 and len(posts) == 1, posts
    page.reload()
    assert entries(page) == 1
