"""Issue 7's small hooks: every form that posts carries the CSRF token (the public share
page excepted: it is cached for everyone), the editor offers the edit link again and is
never cached, and the error pages name 413 and 429."""

from html.parser import HTMLParser
from typing import Any

from fastapi.testclient import TestClient

from app.web.render import MESSAGES

# Templates another session owns (templates/systems/<id>/): their forms are listed, not
# failed, until their owner adds {{ csrf_input() }}.


class Forms(HTMLParser):
    """Each <form method="post"> of a page: its action and the names of its fields."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "form":
            self.depth += 1
            if (named.get("method") or "get").lower() == "post":
                self.forms.append({"action": named.get("action"), "fields": set()})
            else:
                self.forms.append({"action": None, "fields": set()})
        elif tag in ("input", "select", "textarea", "button") and self.forms and self.depth:
            self.forms[-1]["fields"].add(named.get("name"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.depth -= 1


def post_forms(page: str) -> list[dict[str, Any]]:
    parser = Forms()
    parser.feed(page)
    return [form for form in parser.forms if form["action"] is not None]


def pages_of(browser: TestClient) -> dict[str, str]:
    """Every page a player meets, by path: home, each system's pages, the library, each
    system's editor (an example list) and its share page."""
    app: Any = browser.app
    paths = ["/", "/listes"]
    for system_id, system in app.state.systems.items():
        paths.append(f"/listes/nouvelle?system={system_id}")
        for path in (f"/{system_id}/catalogue", f"/{system_id}/createur"):
            if browser.get(path).status_code == 200:
                paths.append(path)
        example = system.example_rosters()[0]
        created = browser.post("/listes", data={"system": system_id, "example": example.id})
        assert created.status_code == 303
        editor = str(created.headers["location"])
        paths.append(editor)
        version = browser.get(editor).text.split('name="version" value="', 1)[1].split('"')[0]
        shared = browser.post(editor, data={"action": "share", "version": version})
        assert shared.status_code == 303, shared.text
        paths.append(str(shared.headers["location"]))
    return {path: browser.get(path).text for path in paths}


def test_every_post_form_carries_the_csrf_token_but_the_public_share_page(
    browser: TestClient,
) -> None:
    missing: list[str] = []
    shared: list[str] = []
    for path, page in pages_of(browser).items():
        for form in post_forms(page):
            where = f"{path} → {form['action']}"
            if path.startswith("/s/"):
                shared.append(where) if "csrf" in form["fields"] else None
            elif "csrf" not in form["fields"]:
                missing.append(where)
    assert missing == []
    assert shared == []  # a page cached for everyone holds no one's token


def shared_example(browser: TestClient) -> tuple[str, str]:
    """A DCSystem example made a list in this browser's carnet and shared from its editor:
    the editor's path and the share page's."""
    created = browser.post(
        "/listes", data={"system": "dcsystem", "example": "feuille_de_bataille_sg"}
    )
    editor = str(created.headers["location"])
    version = browser.get(editor).text.split('name="version" value="', 1)[1].split('"')[0]
    code = str(
        browser.post(editor, data={"action": "share", "version": version}).headers["location"]
    )
    return editor, code


def test_a_share_page_duplicates_without_a_token(browser: TestClient) -> None:
    _editor, code = shared_example(browser)
    browser.cookies.clear()
    page = browser.get(code).text
    assert 'name="csrf"' not in page
    assert browser.post(f"{code}/dupliquer").status_code == 303


def test_the_editor_says_where_the_carnet_link_is_and_is_never_cached(
    browser: TestClient,
) -> None:
    created = browser.post("/listes", data={"system": "nolimits", "example": "compagnie_d_assaut"})
    editor = str(created.headers["location"])
    page = browser.get(editor)
    assert page.headers["cache-control"] == "private, no-store"
    assert 'id="other-device"' in page.text and 'href="/listes#carnet"' in page.text
    saved = browser.post(
        editor, data={"action": "save", "version": "1"}, headers={"HX-Request": "true"}
    )
    assert saved.headers["cache-control"] == "private, no-store"
    # The note is after the form: an HTMX save (the form's inside) does not carry it.
    assert 'id="other-device"' not in saved.text


def test_the_share_page_offers_its_owner_modifier(browser: TestClient, app: Any) -> None:
    editor, code = shared_example(browser)
    page = browser.get(code)
    assert page.headers["cache-control"] == "private, no-store"
    assert f'<a href="{editor}" id="edit-roster">Modifier</a>' in page.text
    assert f'id="public-link" value="http://testserver{code}"' in page.text
    with TestClient(app) as stranger:
        public = stranger.get(code)
        assert 'id="edit-roster"' not in public.text and 'id="public-link"' in public.text
        assert public.headers["cache-control"] == "public, max-age=86400, immutable"


def varies(response: Any) -> list[str]:
    return [name.strip() for name in response.headers.get("vary", "").split(",")]


def test_the_share_page_varies_by_cookie(browser: TestClient, app: Any) -> None:
    """Its owner's variant (« Modifier ») and the public one share a URL: every answer says
    `Vary: Cookie`, so a cache in front never hands the public page to the owner (issue 29),
    the public page's first answer, its remembered one and its 304 alike."""
    _editor, code = shared_example(browser)
    assert "Cookie" in varies(browser.get(code))
    with TestClient(app) as stranger:
        first = stranger.get(code)
        again = stranger.get(code)
        unchanged = stranger.get(code, headers={"If-None-Match": first.headers["etag"]})
    assert (first.status_code, again.status_code, unchanged.status_code) == (200, 200, 304)
    assert all("Cookie" in varies(r) for r in (first, again, unchanged))
    assert first.headers["cache-control"] == "public, max-age=86400, immutable"


def test_error_pages_name_413_and_429() -> None:
    assert MESSAGES[413] == "Requête trop volumineuse."
    assert MESSAGES[429] == "Trop de requêtes."
