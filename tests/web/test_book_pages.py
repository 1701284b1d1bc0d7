"""The army book pages without JavaScript: « Mes livres d'armée », a book made there, units
added with the system's own creator (an invalid one kept and flagged), published."""

import html
import re

from fastapi.testclient import TestClient
from sqlmodel import Session


def make_book(browser: TestClient, system: str, name: str) -> str:
    made = browser.post("/livres", data={"system": system, "name": name, "army": "Kessel"})
    assert made.status_code == 303, made.text
    location = made.headers["location"]
    assert re.fullmatch(r"/livres/[0-9a-f]{24}", location)
    return location


def test_a_dcsystem_book_made_with_the_creator_and_published(browser: TestClient) -> None:
    assert "Aucun livre" in browser.get("/livres").text
    location = make_book(browser, "dcsystem", "Marines de Kessel")
    book_id = location.rsplit("/", 1)[1]
    page = browser.get(location).text
    assert 'id="no-units"' in page
    assert f'href="/dcsystem/createur?livre={book_id}"' in page
    creator = browser.get(f"/dcsystem/createur?livre={book_id}").text
    assert 'id="add-to-book"' in creator and "Ajouter au livre « Marines de Kessel »" in creator
    # L125-127: the Jaffa, 15 + 10 + 3 = 28; then an overloaded level 1 (11, invalid).
    jaffa = {"name": "Jaffa", "level": "2", "items": ["arme_tir_3", "arme_cc_1"]}
    added = browser.post("/dcsystem/createur/livre", data={**jaffa, "livre": book_id})
    assert added.status_code == 303 and added.headers["location"] == f"{location}#unit-jaffa"
    heavy = {"name": "Lourd", "level": "1", "items": ["arme_tir_1", "gilet_de_protection"]}
    assert (
        browser.post("/dcsystem/createur/livre", data={**heavy, "livre": book_id}).status_code
        == 303
    )
    page = browser.get(location).text
    assert 'id="unit-jaffa"' in page and "— 28 pts" in page
    assert 'id="unit-lourd"' in page and "Non valide" in page and 'id="invalid-banner"' in page
    assert "Marines de Kessel" in browser.get("/livres").text
    published = browser.post(f"{location}/publier")
    assert published.status_code == 303
    code = published.headers["location"].removeprefix("/a/")
    shared = browser.get(f"/a/{code}").text
    assert "— 28 pts" in shared and 'id="unit-lourd"' in shared
    # Unchanged: the same publication.
    assert browser.post(f"{location}/publier").headers["location"] == f"/a/{code}"
    assert f'href="/a/{code}"' in browser.get(location).text


def test_my_lists_link_to_my_army_books(browser: TestClient) -> None:
    """« Mes listes » leads to « Mes livres d'armée » and back (docs/books.md « Pages »)."""
    lists = browser.get("/listes").text
    assert '<a href="/livres" id="to-books">Mes livres d\'armée</a>' in lists
    assert '<a href="/listes">Mes listes</a>' in browser.get("/livres").text


def test_a_book_opens_only_in_its_carnets_browser(browser: TestClient, app: object) -> None:
    location = make_book(browser, "bastos", "Les Durs")
    browser.cookies.clear()
    assert browser.get(location).status_code == 404
    assert browser.post("/livres", data={"system": "nope", "name": "x"}).status_code == 422
    assert browser.post("/livres", data={"system": "bastos", "name": ""}).status_code == 422


def test_the_editor_shows_what_changed_and_updates(browser: TestClient) -> None:
    from tests.api.test_books import BOOK, create_book, drawn_roster, publish, token
    from tests.systems.test_books_engine import MARINE

    created = create_book(browser)
    code = publish(browser, created).json()["code"]
    roster = drawn_roster(browser, code)
    opened = browser.get(roster["edit_url"].removeprefix("http://testserver"))
    assert opened.status_code in (200, 303)
    editor = browser.get(f"/r/{roster['id']}").text
    assert 'id="book-updates"' not in editor
    veteran = {"level": 2, "items": ["arme_tir_1", "gilet_de_protection"]}
    changed = {
        **BOOK,
        "units": [{**BOOK["units"][1], "definition": veteran}, BOOK["units"][0]],
    }
    replaced = browser.put(
        f"/api/v1/books/{created['id']}", json=changed, headers={**token(created), "If-Match": "1"}
    )
    assert replaced.status_code == 200
    publish(browser, created)
    total = roster["validation"]["points"]
    editor = browser.get(f"/r/{roster['id']}").text
    assert 'id="book-updates"' in editor
    assert "Marine</strong>" in editor and ": 13 → 28 pts" in editor
    assert "Niveau 1 → 2" in editor and "Coût 13 → 28 pts" in editor
    assert f'id="book-updates-total">{total - 26 + 56}<' in editor
    assert MARINE == {"level": 1, "items": ["arme_tir_1"]}
    before = browser.get(f"/api/v1/rosters/{roster['id']}", headers=token(roster)).json()
    updated = browser.post(f"/r/{roster['id']}/livres", data={"version": "1"})
    assert updated.status_code == 200
    assert "2 unités mises à jour depuis le livre." in updated.text
    assert 'id="undo-books"' in updated.text and 'id="book-updates"' not in updated.text
    after = browser.get(f"/r/{roster['id']}").text
    assert 'id="book-updates"' not in after
    read = browser.get(f"/api/v1/rosters/{roster['id']}", headers=token(roster)).json()
    assert read["validation"]["points"] == total - 26 + 56
    # « Annuler »: the entries exactly as they were, and the update offered again.
    undo = re.search(r'name="undo-books" value="([^"]*)"', updated.text)
    assert undo is not None
    undone = browser.post(
        f"/r/{roster['id']}/livres/annuler",
        data={"version": str(read["version"]), "undo-books": html.unescape(undo.group(1))},
    )
    assert undone.status_code == 200
    assert "Mise à jour annulée : 2 unités comme avant." in undone.text
    assert 'id="book-updates"' in undone.text
    again = browser.get(f"/api/v1/rosters/{roster['id']}", headers=token(roster)).json()
    assert again["roster"]["entries"] == before["roster"]["entries"]
    assert again["validation"]["points"] == total
    # Nothing to undo, or a stale version: refused, nothing changed.
    bad = browser.post(
        f"/r/{roster['id']}/livres/annuler", data={"version": "1", "undo-books": "[]"}
    )
    assert bad.status_code == 422
    stale = browser.post(
        f"/r/{roster['id']}/livres/annuler",
        data={"version": "1", "undo-books": html.unescape(undo.group(1))},
    )
    assert stale.status_code == 409


def test_a_second_browser_duplicates_a_published_book_and_builds_a_list(
    browser: TestClient, app: object, session: Session
) -> None:
    from sqlmodel import select

    from app.store.models import Roster

    location = make_book(browser, "dcsystem", "Marines de Kessel")
    book_id = location.rsplit("/", 1)[1]
    for form in (
        {"name": "Jaffa", "level": "2", "items": ["arme_tir_3", "arme_cc_1"]},
        {"name": "Marine", "level": "1", "items": ["arme_tir_1"]},
        {"name": "Lourd", "level": "1", "items": ["arme_tir_1", "gilet_de_protection"]},
    ):
        browser.post("/dcsystem/createur/livre", data={**form, "livre": book_id})
    code = browser.post(f"{location}/publier").headers["location"].removeprefix("/a/")
    other = TestClient(app, follow_redirects=False)  # type: ignore[arg-type]
    other.headers["Sec-Fetch-Site"] = "same-origin"
    page = other.get(f"/a/{code}").text
    assert 'id="duplicate-book"' in page
    copied = other.post(f"/a/{code}/dupliquer")
    assert copied.status_code == 303
    copy = copied.headers["location"]
    assert copy != location
    copy_page = other.get(copy).text
    assert "Marines de Kessel (copie)" in copy_page and "— 28 pts" in copy_page
    assert browser.get(copy).status_code == 404  # the copy is the other player's
    first = other.post(f"{copy}/unites/jaffa/ajouter", data={"roster": ""})
    assert first.status_code == 303
    roster_url = first.headers["location"]
    roster_id = roster_url.removeprefix("/r/")
    second = other.post(f"{copy}/unites/marine/ajouter", data={"roster": roster_id})
    assert second.status_code == 303
    editor = other.get(f"/r/{roster_id}").text
    assert "Jaffa" in editor and "Marine" in editor
    # Each entry says where it comes from: the copy's published version.
    assert 'id="entry-0-origin"' in editor and 'id="entry-1-origin"' in editor
    assert 'Livre : <a href="/a/' in editor and "Marines de Kessel (copie), v" in editor
    session.expire_all()
    roster = session.exec(select(Roster).where(Roster.id == roster_id)).one()
    entries = roster.document["entries"]
    copy_code = entries[0]["source"]["book"]
    assert [e["source"]["unit"] for e in entries] == ["jaffa", "marine"]
    assert copy_code != code  # the copy's own published version
    assert [e["custom"]["level"] for e in entries] == [2, 1]
