"""Issue 18: an installable web app. With the network cut (the browser context offline),
« Mes listes », a share page, its play sheet and its mode partie opened once open again,
read-only, with the « hors ligne » note; a write is refused clearly and nothing typed is
lost."""

import re

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.helpers import open_new_list
from tests.browser.test_play_sheets import example, share

pytestmark = pytest.mark.browser


def test_pages_opened_once_open_offline(context: BrowserContext) -> None:
    page = context.new_page()
    editor = open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    code = share(page, example(page, "nolimits"))
    page.goto("/listes")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    paths = ["/listes", code, f"{code}/feuille", f"{code}/partie", editor]
    for path in paths:  # opened once, with the network
        page.goto(path)
        page.wait_for_load_state("networkidle")
    page.locator(".figure").first  # noqa: B018 (the page is loaded)
    context.set_offline(True)
    try:
        for path in paths:
            page.goto(path)
            expect(page.locator("#offline-note")).to_be_visible()
            expect(page.locator("main h1")).not_to_be_empty()
        page.goto(f"{code}/feuille")
        expect(page.locator(".sheet-profile").first).to_be_visible()  # the book's table
        # The mode partie still counts (its state is the browser's).
        page.goto(f"{code}/partie")
        page.locator(".figure").first.locator("[data-step='1']").click()
        expect(page.locator(".figure").first.locator("output").first).to_have_text("1")
        # The editor's page opens read-only: a save is refused with the note, the value stays.
        page.goto(editor)
        name = page.locator("input[name=name]")
        name.fill("Liste renommée hors ligne")
        name.press("Tab")
        expect(page.locator("#offline-note")).to_be_visible()
        expect(name).to_have_value("Liste renommée hors ligne")
    finally:
        context.set_offline(False)


def test_the_app_is_installable(context: BrowserContext) -> None:
    page = context.new_page()
    page.goto("/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.request.get(href or "").json()
    assert manifest["start_url"] == "/listes" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert page.request.get(icon["src"]).status == 200
    worker = page.request.get("/sw.js")
    assert worker.status == 200
    assert re.match(r"text/javascript", worker.headers["content-type"])
    assert "script-src 'self'" in worker.headers["content-security-policy"]
