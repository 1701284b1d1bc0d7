"""Offline (issue 18, then issue 25 item 4 and issue 26 item 3; docs/offline.md). With the
network cut (the browser context offline), a share page, its play sheet and its mode partie
opened once open again, read-only, with the « hors ligne » note; a page the worker did not
keep — a carnet's pages are never kept: « Mes listes », the editors, the carnet link — shows
Caserne's « Hors ligne » page, never an old copy nor the browser's own error. After a key
change from another device, or cookies cleared, nothing private is shown offline."""

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.helpers import open_new_list
from tests.browser.test_play_sheets import example, share

pytestmark = pytest.mark.browser

SECRET_QUERY = re.compile(r"[?&](t|token|edit_token|code|cle|key)=")


def with_worker(page: Page) -> None:
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def kept_urls(page: Page) -> list[str]:
    urls: list[str] = page.evaluate(
        """async () => {
          const out = [];
          for (const name of await caches.keys()) {
            if (!name.startsWith("caserne-pages")) continue;
            const cache = await caches.open(name);
            for (const request of await cache.keys()) out.push(request.url);
          }
          return out;
        }"""
    )
    return urls


def rename(page: Page, name: str) -> None:
    with page.expect_response(lambda r: r.request.method == "POST" and "/r/" in r.url):
        page.locator("input[name=name]").fill(name)
        page.locator("input[name=name]").press("Tab")


def test_pages_opened_once_open_offline(context: BrowserContext) -> None:
    page = context.new_page()
    with_worker(page)
    editor = open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    code = share(page, example(page, "nolimits"))
    paths = [code, f"{code}/feuille", f"{code}/partie", "/listes", editor]
    for path in paths:  # opened once, with the network
        page.goto(path)
        page.wait_for_load_state("networkidle")
    context.set_offline(True)
    try:
        for path in paths[:3]:
            page.goto(path)
            expect(page.locator("#offline-note")).to_be_visible()
            expect(page.locator("main h1")).not_to_be_empty()
        page.goto(f"{code}/feuille")
        expect(page.locator(".sheet-profile").first).to_be_visible()  # the book's table
        # The mode partie still counts (its state is the browser's).
        page.goto(f"{code}/partie")
        page.locator(".figure").first.locator("[data-step='1']").click()
        expect(page.locator(".figure").first.locator("output").first).to_have_text("1")
        # A carnet's pages are not kept: Caserne's own « Hors ligne » page, not a stale copy.
        for path in ("/listes", editor, "/jamais-ouverte"):
            page.goto(path)
            expect(page.locator("main h1")).to_have_text("Hors ligne")
            expect(page.locator("#offline-page")).to_be_visible()
    finally:
        context.set_offline(False)


def private_shown(page: Page, words: list[str]) -> list[str]:
    body = page.locator("body").inner_text()
    html = page.content()
    return [word for word in words if word in body or word in html]


@pytest.mark.parametrize("how", ["key changed elsewhere", "cookies cleared"])
def test_offline_pages_show_nothing_private(
    context: BrowserContext, new_context: object, how: str
) -> None:
    """Issue 25, item 4: the worker kept « Mes listes » (with the carnet's key), the editors
    and the carnet link whatever their `no-store`; nothing cleared them."""
    page = context.new_page()
    with_worker(page)
    editor = open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    secret_name = "Liste secrète du joueur"
    page.goto(editor)
    rename(page, secret_name)
    page.goto("/listes")
    page.locator("#carnet summary").click()
    link = page.locator("#carnet-link-value").input_value()
    key = link.split("t=")[1]
    visited = ["/listes", editor, link, "/listes/carnet/cle", "/"]
    for path in visited:
        page.goto(path)
        page.wait_for_load_state("networkidle")
    kept = kept_urls(page)
    assert kept, "the worker keeps public pages"
    assert not [u for u in kept if SECRET_QUERY.search(u)], kept
    assert not [u for u in kept if re.search(r"/(listes|r/|carnet)", u)], kept

    if how == "key changed elsewhere":
        other = new_context().new_page()  # type: ignore[operator]
        other.goto(link)
        other.locator("#adopt").click()
        other.goto("/listes/carnet/cle")
        other.locator("#confirm-rotate-button").click()
        expect(other.locator("#library-message")).to_contain_text("Nouvelle clé")
    else:
        context.clear_cookies()
    context.set_offline(True)
    try:
        for path in visited:
            page.goto(path)
            assert private_shown(page, [secret_name, key]) == [], path
    finally:
        context.set_offline(False)
    if how == "key changed elsewhere":
        # Back online, the revoked cookie is dropped with Clear-Site-Data.
        with page.expect_response(re.compile(r"/listes$")) as answer:
            page.goto("/listes")
        assert answer.value.status == 403
        assert not [c for c in context.cookies() if c["name"] == "caserne_carnet"]
        said = page.request.get("/listes", headers={"Cookie": "caserne_carnet=x.y"})
        assert said.headers.get("clear-site-data") == '"cache"'


def test_forgetting_the_carnet_leaves_the_device_clean(context: BrowserContext) -> None:
    page = context.new_page()
    with_worker(page)
    editor = open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    code = share(page, example(page, "nolimits"))
    for path in (code, editor):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    assert kept_urls(page)
    page.goto("/listes")
    page.locator("#carnet summary").click()
    page.locator("#forget-carnet").click()
    link = page.locator("#forget-carnet-link").input_value()
    assert "/carnet/" in link
    page.locator("#confirm-forget-button").click()
    expect(page.locator("#carnet-forgotten")).to_be_visible()
    page.wait_for_function(
        "caches.keys().then((names) => names.filter((n) => n.startsWith('caserne-pages')))"
        ".then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys()))))"
        ".then((all) => all.every((keys) => keys.length === 0 || keys.every("
        "(r) => /\\/(hors-ligne)?$/.test(new URL(r.url).pathname))))"
    )
    assert not [c for c in context.cookies() if c["name"] == "caserne_carnet"]
    page.goto("/listes")
    expect(page.locator("#library-empty")).to_be_visible()


def test_a_change_typed_offline_is_sent_when_the_network_comes_back(
    context: BrowserContext,
) -> None:
    """Issue 26, item 3: a change typed offline was never sent, and a reload brought the old
    value back. It is kept in the page, leaving asks first, and it is saved once online."""
    page = context.new_page()
    editor = open_new_list(page, "dcsystem", "feuille_de_bataille_sg")
    page.goto(editor)
    name = page.locator("input[name=name]")
    context.set_offline(True)
    try:
        name.fill("Renommée à la table")
        name.press("Tab")
        expect(page.locator("#offline-pending")).to_be_visible()
        asked: list[str] = []

        def dismiss(dialog: object) -> None:
            asked.append(dialog.type)  # type: ignore[attr-defined]
            dialog.dismiss()  # type: ignore[attr-defined]

        page.once("dialog", dismiss)
        page.evaluate("setTimeout(() => location.reload(), 0)")
        page.wait_for_timeout(500)
        assert asked == ["beforeunload"]
        expect(name).to_have_value("Renommée à la table")
        with page.expect_response(
            lambda r: r.request.method == "POST" and r.url.endswith(editor), timeout=10_000
        ) as saved:
            context.set_offline(False)
        assert saved.value.status == 200
    finally:
        context.set_offline(False)
    expect(page.locator("#offline-pending")).to_be_hidden()
    page.reload()
    expect(page.locator("input[name=name]")).to_have_value("Renommée à la table")


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
