"""« Historique » on the pages (issue 30, « Every save kept »; docs/history.md): every save
of the editor kept, newest first, a page at a time; one version read-only; two compared; a
version restored as a new save over the version the page showed (a stale page restores
nothing)."""

import re
from typing import Any

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.store.history import prune_versions
from tests.store.test_history_prune import TODAY, kept, saved
from tests.web.page_tour import changed, form_fields
from tests.web.test_count_saves import count_change
from tests.web.test_editor import open_example, stored_document


def save_name(browser: TestClient, location: str, name: str) -> str:
    """The editor's whole form saved as shown, with a new name; the page it answers."""
    page = browser.get(location).text
    fields = [(k, v) for k, v in form_fields(page, "editor") if k != "action"]
    saved = browser.post(location, data=changed([*fields, ("action", "save")], name=name))
    assert saved.status_code == 200, saved.text[:500]
    return saved.text


def versions_shown(page: str) -> list[int]:
    return [int(v) for v in re.findall(r'<article class="card version" id="version-(\d+)"', page)]


def test_the_editor_links_its_history_and_each_save_is_listed(browser: TestClient) -> None:
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    editor = browser.get(location).text
    assert f'<a href="{location}/historique" id="to-history">Historique des versions</a>' in editor
    count_change(browser, location, editor)
    save_name(browser, location, "Équipe SG-1")
    page = browser.get(f"{location}/historique")
    assert page.status_code == 200
    assert page.headers["cache-control"] == "private, no-store"
    text = page.text
    assert versions_shown(text) == [3, 2, 1]
    first = text[text.index('id="version-3"') : text.index('id="version-2"')]
    assert "(actuelle)" in first
    assert "<li>Nom : « Feuille de bataille SG » → « Équipe SG-1 »</li>" in first
    assert "depuis les pages" in first and "<strong>253 points</strong>" in first
    assert "Rétablir" not in first  # the current version: nothing to restore
    second = text[text.index('id="version-2"') : text.index('id="version-1"')]
    assert "<li>Chef de groupe SG 1 → 2</li>" in second
    assert f'action="{location}/historique/2/retablir"' in second
    assert '<input type="hidden" name="version" value="3">' in second
    assert "<li>Liste créée</li>" in text
    assert '<p class="small muted" id="history-count">3 versions gardées</p>' in text


def test_a_version_opens_read_only_and_compares(browser: TestClient) -> None:
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    save_name(browser, location, "Équipe SG-1")
    old = browser.get(f"{location}/historique/1")
    assert old.status_code == 200
    assert "en lecture seule" in old.text
    assert "<h1>Feuille de bataille SG</h1>" in old.text
    assert "Chef de groupe SG" in old.text and 'id="restore"' in old.text
    assert 'name="entry-0-count"' not in old.text  # nothing to edit
    compared = browser.get(f"{location}/historique/comparer?de=2&a=1")
    assert compared.status_code == 200
    assert "<h1>De la version 1 à la version 2</h1>" in compared.text
    assert "<li>Nom : « Feuille de bataille SG » → « Équipe SG-1 »</li>" in compared.text
    same = browser.get(f"{location}/historique/comparer?de=2&a=2")
    assert "Aucun changement : les deux versions sont la même liste." in same.text
    assert browser.get(f"{location}/historique/9").status_code == 404
    assert browser.get(f"{location}/historique/abc").status_code == 404
    assert browser.get(f"{location}/historique/comparer?de=1&a=9").status_code == 404


def test_restoring_is_a_new_save_and_a_stale_page_restores_nothing(browser: TestClient) -> None:
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    first = stored_document(browser, location)
    save_name(browser, location, "Équipe SG-1")
    restored = browser.post(f"{location}/historique/1/retablir", data={"version": "2"})
    assert restored.status_code == 303
    assert restored.headers["location"] == f"{location}/historique?retablie=1"
    assert stored_document(browser, location) == first
    page = browser.get(restored.headers["location"]).text
    assert "Version 1 rétablie : c&#39;est la version 3 de la liste." in page
    assert versions_shown(page) == [3, 2, 1]
    top = page[page.index('id="version-3"') : page.index('id="version-2"')]
    assert "<li>Version 1 rétablie</li>" in top
    assert "<li>Nom : « Équipe SG-1 » → « Feuille de bataille SG »</li>" in top

    # A page that showed version 2: the list moved on, nothing is restored.
    stale = browser.post(f"{location}/historique/2/retablir", data={"version": "2"})
    assert stale.status_code == 409
    assert "rien n&#39;a été rétabli" in stale.text
    assert stored_document(browser, location) == first
    assert versions_shown(stale.text) == [3, 2, 1]


def test_the_history_is_paged(browser: TestClient, monkeypatch: Any) -> None:
    from app.web import history_pages

    monkeypatch.setattr(history_pages, "PER_PAGE", 2)
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    for n in range(3):
        save_name(browser, location, f"Nom {n}")
    first = browser.get(f"{location}/historique").text
    assert versions_shown(first) == [4, 3]
    assert 'rel="next" id="history-next"' in first
    second = browser.get(f"{location}/historique?page=2").text
    assert versions_shown(second) == [2, 1]
    assert versions_shown(browser.get(f"{location}/historique?page=x").text) == [4, 3]


def test_another_browser_sees_no_history(browser: TestClient, client: TestClient) -> None:
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    cookies = dict(browser.cookies)
    browser.cookies.clear()
    assert browser.get(f"{location}/historique").status_code == 403
    assert browser.post(f"{location}/historique/1/retablir", data={"version": "1"}).status_code in (
        403,
    )
    browser.cookies.update(cookies)


def test_a_list_deleted_from_the_pages_comes_back_with_its_versions(
    browser: TestClient, session: Session
) -> None:
    """The trash (issue 26) keeps a list whole: its versions wait with it (prune keeps them)
    and are there again once it is restored; a list deleted for good loses them at the
    next prune."""
    made = browser.post("/listes", data={"system": "dcsystem", "example": "feuille_de_bataille_sg"})
    roster_id = made.headers["location"].removeprefix("/r/")
    page = browser.get(f"/r/{roster_id}").text
    fields = [(k, v) for k, v in form_fields(page, "editor") if k != "action"]
    renamed = changed([*fields, ("action", "save")], name="Équipe SG-1")
    assert browser.post(f"/r/{roster_id}", data=renamed).status_code == 200
    assert kept(session, roster_id) == [1, 2]
    gone = browser.post(f"/listes/{roster_id}/supprimer", data={"confirm": "oui"})
    assert gone.status_code == 303
    assert kept(session, roster_id) == [1, 2]
    report = prune_versions(session=session, days=365, apply=True, on=TODAY)
    assert report.removed == 0 and kept(session, roster_id) == [1, 2]
    assert browser.post(f"/listes/{roster_id}/restaurer").status_code == 303
    listed = browser.get(f"/r/{roster_id}/historique").text
    assert "Nom : « Feuille de bataille SG » → « Équipe SG-1 »" in listed

    other, token = saved(client=browser, names=1)
    assert browser.delete(f"/api/v1/rosters/{other}", headers=token).status_code == 204
    dry = prune_versions(session=session, days=365, on=TODAY)
    assert (dry.removable, kept(session, other)) == (2, [1, 2])
    assert prune_versions(session=session, days=365, apply=True, on=TODAY).removed == 2
    assert kept(session, other) == []
    assert kept(session, roster_id) == [1, 2]
