"""Issue 26, item 15 and « every removal can be undone », for army books: a book is renamed
and deleted from its page, a deleted book and a unit taken out of a book come back with
« Annuler » (or « Restaurer », « Remettre »), a second click does nothing more, and « Ajouter
à la liste » from a book's page says to which list the unit went."""

import re

from fastapi.testclient import TestClient

from tests.web.test_library import text


def example_book(browser: TestClient) -> tuple[str, list[str]]:
    """The DCSystem example book copied into this browser's carnet: its page, its units."""
    copied = browser.post("/livres/exemples/dcsystem/dupliquer")
    assert copied.status_code == 303, copied.text
    location = copied.headers["location"]
    return location, units(browser.get(location).text)


def units(page: str) -> list[str]:
    return re.findall(r'<section class="card book-unit[^"]*" id="unit-([a-z0-9_]+)"', page)


def undo_path(page: str) -> str:
    found = re.search(r'<form method="post" action="([^"]+)" class="undo-delete"', page)
    assert found, "no « Annuler »"
    return found[1]


def test_a_book_is_renamed_from_its_page(browser: TestClient) -> None:
    location, _ = example_book(browser)
    done = browser.post(f"{location}/renommer", data={"name": "Ma garnison", "army": "SGC"})
    assert done.status_code == 303 and done.headers["location"] == location
    page = browser.get(location).text
    assert "Livre renommé : « Ma garnison »." in text(page)
    assert re.search(r"<h1>Ma garnison <span class=\"muted\">\(SGC\)</span></h1>", page)
    assert "Ma garnison" in browser.get("/livres").text
    # The message is shown once.
    assert "Livre renommé" not in browser.get(location).text
    refused = browser.post(f"{location}/renommer", data={"name": "  "})
    assert refused.status_code == 303
    page = browser.get(location).text
    assert "Nom refusé : de 1 à 100 caractères, sans caractère invalide." in text(page)
    assert "<h1>Ma garnison" in page


def test_a_deleted_book_comes_back_with_annuler(browser: TestClient) -> None:
    location, before = example_book(browser)
    book_id = location.rsplit("/", 1)[1]
    name = re.search(r"<h1>([^<]+?) ?<", browser.get(location).text)[1]  # type: ignore[index]
    deleted = browser.post(f"{location}/supprimer", data={"confirm": "oui"})
    assert deleted.status_code == 303 and deleted.headers["location"] == "/livres"
    mine = browser.get("/livres").text
    assert f"Livre supprimé : « {name} »." in text(mine)
    assert undo_path(mine) == f"/livres/{book_id}/restaurer"
    assert f'id="book-{book_id}"' not in mine
    assert browser.get(location).status_code == 404
    trash = browser.get("/listes/supprimees").text
    assert f'action="/livres/{book_id}/restaurer"' in trash and "Livre d'armée" in text(trash)

    back = browser.post(f"/livres/{book_id}/restaurer")
    assert back.status_code == 303 and back.headers["location"] == location
    page = browser.get(location).text
    assert f"Livre restauré : « {name} »." in text(page)
    assert units(page) == before
    assert f'id="book-{book_id}"' in browser.get("/livres").text
    twice = browser.post(f"/livres/{book_id}/restaurer")
    assert twice.headers["location"] == location
    assert "Ce livre est déjà restauré." in text(browser.get(location).text)


def test_a_unit_taken_out_is_put_back_at_its_place(browser: TestClient) -> None:
    location, before = example_book(browser)
    assert len(before) >= 3
    middle = before[1]
    removed = browser.post(f"{location}/unites/{middle}/retirer")
    assert removed.status_code == 303
    # A second click on the same « Retirer »: nothing more, the first message stays.
    assert browser.post(f"{location}/unites/{middle}/retirer").status_code == 303
    page = browser.get(location).text
    assert units(page) == [before[0], *before[2:]]
    assert "retiré du livre." in text(page)
    path = undo_path(page)
    assert re.fullmatch(rf"{location}/unites/[0-9a-f]{{32}}/remettre", path)
    section = re.search(r'<section class="card" id="removed-units".*?</section>', page, re.S)
    assert section and f'action="{path}"' in section[0]

    put = browser.post(path)
    assert put.status_code == 303 and put.headers["location"] == f"{location}#unit-{middle}"
    page = browser.get(location).text
    assert units(page) == before
    assert "remis dans le livre." in text(page)
    assert 'id="removed-units"' not in page
    again = browser.post(path)
    assert again.status_code == 303
    assert "Cette unité n'est plus parmi les unités retirées du livre." in text(
        browser.get(location).text
    )
    assert units(browser.get(location).text) == before


def test_another_browser_cannot_restore_a_book(browser: TestClient, app: object) -> None:
    location, _ = example_book(browser)
    book_id = location.rsplit("/", 1)[1]
    browser.post(f"{location}/supprimer", data={"confirm": "oui"})
    with TestClient(app, follow_redirects=False) as other:  # type: ignore[arg-type]
        other.headers["Sec-Fetch-Site"] = "same-origin"
        refused = other.post(f"/livres/{book_id}/restaurer")
        assert refused.status_code == 303 and refused.headers["location"] == "/livres"
        assert "n'est plus dans les éléments supprimés de ce carnet" in text(
            other.get("/livres").text
        )
    assert browser.get(location).status_code == 404


def test_adding_from_a_book_says_to_which_list(browser: TestClient) -> None:
    location, before = example_book(browser)
    # « Nouvelle liste »: the new list's editor opens (it shows where the unit went).
    made = browser.post(
        f"{location}/unites/{before[0]}/ajouter", data={"roster": "", "retour": location}
    )
    assert made.status_code == 303
    roster_id = made.headers["location"].removeprefix("/r/")
    # A list of the carnet: back to the book, which says to which list.
    added = browser.post(
        f"{location}/unites/{before[1]}/ajouter", data={"roster": roster_id, "retour": location}
    )
    assert added.status_code == 303
    assert added.headers["location"] == f"{location}?liste={roster_id}&ajoute=1"
    page = browser.get(added.headers["location"]).text
    said = re.search(r'<p class="flash ok" role="status" id="added-to-list">(.*?)</p>', page)
    assert said and said[1] == (
        f'Ajouté à « Liste sans nom » : <a href="/r/{roster_id}">ouvrir la liste</a>.'
    )
    # A `retour` that is not a book page still goes to the list's editor.
    elsewhere = browser.post(
        f"{location}/unites/{before[0]}/ajouter",
        data={"roster": roster_id, "retour": "https://ailleurs.example/"},
    )
    assert elsewhere.headers["location"] == f"/r/{roster_id}"
