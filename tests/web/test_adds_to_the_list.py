"""From a list's editor, the catalogue and the creator add to that list (issue 15)."""

from typing import Any

from fastapi.testclient import TestClient

from tests.web.test_library import create, stored


def test_the_catalogue_from_an_editor_adds_to_that_list_and_says_so(
    browser: TestClient, session: Any
) -> None:
    roster_id = create(browser, "dcsystem")
    editor = browser.get(f"/r/{roster_id}").text
    assert f'href="/dcsystem/catalogue?liste={roster_id}" id="to-catalogue"' in editor
    assert f'href="/dcsystem/createur?liste={roster_id}" id="to-creator"' in editor
    page = browser.get(f"/dcsystem/catalogue?liste={roster_id}").text
    assert "Vous ajoutez à « Essai »." in page
    assert f'<option value="{roster_id}" selected>Essai</option>' in page
    assert '<option value="">Nouvelle liste</option>\n  </select>' in page  # last, not chosen
    added = browser.post(
        "/listes/ajouter",
        data={
            "system": "dcsystem",
            "unit": "jaffa",
            "roster": roster_id,
            "count": "2",
            "retour": "/dcsystem/catalogue",
        },
    )
    assert added.status_code == 303
    assert added.headers["location"] == f"/dcsystem/catalogue?liste={roster_id}&ajoute=1"
    back = browser.get(added.headers["location"]).text
    assert "Ajouté à « Essai » : 2 × Jaffa." in back
    assert f'<a href="/r/{roster_id}" id="back-to-list">Revenir à « Essai »</a>' in back
    roster = stored(session, roster_id)
    assert roster is not None
    assert [(e["unit"], e["count"]) for e in roster.document["entries"]] == [("jaffa", 2)]
    # `retour` leads only to this system's catalogue or creator.
    elsewhere = browser.post(
        "/listes/ajouter",
        data={"system": "dcsystem", "unit": "jaffa", "roster": roster_id, "retour": "//evil"},
    )
    assert elsewhere.headers["location"] == f"/r/{roster_id}"


def test_a_list_that_is_not_this_browsers_is_refused_not_replaced_by_a_new_one(
    browser: TestClient, app: Any, session: Any
) -> None:
    roster_id = create(browser, "dcsystem")
    with TestClient(app, follow_redirects=False) as other:
        other.headers["Sec-Fetch-Site"] = "same-origin"
        refused = other.post(
            "/listes/ajouter", data={"system": "dcsystem", "unit": "jaffa", "roster": roster_id}
        )
        assert refused.status_code == 403
        assert "Cette liste est privée" in refused.text
        assert "Vous ajoutez" not in other.get(f"/dcsystem/catalogue?liste={roster_id}").text
    roster = stored(session, roster_id)
    assert roster is not None and roster.document["entries"] == []


def test_the_editor_says_when_it_was_shared_and_when_the_share_is_out_of_date(
    browser: TestClient,
) -> None:
    """Issue 15: « Partagée le … », then « La version partagée n'est plus à jour » once the
    list changed, with a one-click new share."""
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    editor = f"/r/{roster_id}"
    page = browser.get(editor).text
    assert 'id="share-state"' not in page
    version = page.split('name="version" value="', 1)[1].split('"')[0]
    first = browser.post(editor, data={"action": "share", "version": version})
    code = first.headers["location"]
    page = browser.get(editor).text
    assert "Partagée le " in page and f'<a href="{code}">voir la page partagée</a>' in page
    assert "plus à jour" not in page
    version = page.split('name="version" value="', 1)[1].split('"')[0]
    # Sharing an unchanged list again keeps its code, and the note stays « à jour ».
    again = browser.post(editor, data={"action": "share", "version": version})
    assert again.headers["location"] == code
    page = browser.get(editor).text
    assert "plus à jour" not in page
    version = page.split('name="version" value="', 1)[1].split('"')[0]
    changed = browser.post(
        editor,
        data={"action": "save", "version": version, "name": "Autre nom", "points_limit": "200"},
        headers={"HX-Request": "true"},
    )
    assert changed.status_code == 200
    assert "La version partagée n'est plus à jour" in changed.text
    assert 'id="share-again"' in changed.text
    version = changed.text.split('name="version" value="', 1)[1].split('"')[0]
    new = browser.post(
        editor,
        data={"action": "share", "version": version, "name": "Autre nom", "points_limit": "200"},
    )
    assert new.headers["location"] != code
    assert "plus à jour" not in browser.get(editor).text


def test_a_full_carnet_refuses_a_new_list_and_stores_nothing(
    browser: TestClient, session: Any, monkeypatch: Any
) -> None:
    import app.carnet_service as carnet_service

    create(browser, "dcsystem")
    monkeypatch.setattr(carnet_service, "CARNET_MAX_ROSTERS", 1)
    from sqlmodel import func, select

    from app.store.models import Roster

    before = session.exec(select(func.count()).select_from(Roster)).one()
    refused = browser.post("/listes", data={"system": "dcsystem"})
    assert refused.status_code == 409
    assert "Ce carnet est plein" in refused.text
    assert session.exec(select(func.count()).select_from(Roster)).one() == before
