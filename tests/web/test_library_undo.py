"""Issue 26: « every removal can be undone ». A list deleted from « Mes listes » comes back
whole with « Annuler la suppression » or from « Listes supprimées »: the same edit link, the
same carnet, its campaign place and its ledger; a second click does nothing more; another
carnet cannot bring it back; what waits longer than 30 days is removed by `caserne prune`."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text as sql
from sqlmodel import Session

from app.store import trash
from app.store.models import Battle, DeletedItem
from app.store.retention import prune
from tests.api.test_campaigns import battle, campaign_of, join, orlocks, stored
from tests.web.test_campaign_pages import open_in_browser
from tests.web.test_library import create, text
from tests.web.test_library import stored as stored_roster


def delete(browser: TestClient, roster_id: str) -> str:
    done = browser.post(f"/listes/{roster_id}/supprimer", data={"confirm": "oui"})
    assert done.status_code == 303 and done.headers["location"] == "/listes"
    return browser.get("/listes").text


def test_annuler_brings_the_list_back_whole(browser: TestClient, session: Session) -> None:
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    before = stored_roster(session, roster_id)
    assert before is not None
    document, version, token_hash = before.document, before.version, before.token_hash
    name = before.name

    page = delete(browser, roster_id)
    assert stored_roster(session, roster_id) is None
    assert browser.get(f"/r/{roster_id}").status_code == 404
    assert f"Liste supprimée : « {name} »." in text(page)
    undo = re.search(r'<form method="post" action="([^"]+)" class="undo-delete"', page)
    assert undo and undo[1] == f"/listes/{roster_id}/restaurer"
    assert 'id="undo-delete">Annuler la suppression</button>' in page

    back = browser.post(undo[1])
    assert back.status_code == 303 and back.headers["location"] == f"/listes#roster-{roster_id}"
    page = browser.get("/listes").text
    assert f"Liste restaurée : « {name} »." in text(page)
    assert f'id="roster-{roster_id}"' in page
    again = stored_roster(session, roster_id)
    assert again is not None
    assert (again.document, again.version, again.token_hash) == (document, version, token_hash)
    assert browser.get(f"/r/{roster_id}").status_code == 200  # the same edit link opens it

    # A second click (a double-click, a second tab): nothing more, and it says so.
    twice = browser.post(f"/listes/{roster_id}/restaurer")
    assert twice.status_code == 303
    assert "Cette liste est déjà restaurée." in text(browser.get("/listes").text)
    assert session.exec(sql("SELECT count(*) FROM deleted_item")).one()[0] == 0  # type: ignore[call-overload]


def test_listes_supprimees_shows_and_restores(browser: TestClient, session: Session) -> None:
    kept = create(browser, "bastos", "imperiaux")
    gone = create(browser, "dcsystem", "feuille_de_bataille_sg")
    name = stored_roster(session, gone).name  # type: ignore[union-attr]
    empty = browser.get("/listes/supprimees")
    assert empty.status_code == 200
    assert empty.headers["cache-control"] == "private, no-store"
    assert "Rien de supprimé ces 30 derniers jours." in text(empty.text)

    delete(browser, gone)
    page = browser.get("/listes/supprimees").text
    assert "1 supprimé" in text(page)
    card = re.search(rf'<article class="card" id="deleted-{gone}".*?</article>', page, re.S)
    assert card and name in text(card[0]) and "Stargate" in text(card[0])
    assert f'action="/listes/{gone}/restaurer"' in card[0]
    assert f"deleted-{kept}" not in page

    assert browser.post(f"/listes/{gone}/restaurer").status_code == 303
    assert "Rien de supprimé" in text(browser.get("/listes/supprimees").text)
    listing = browser.get("/listes").text
    assert f'id="roster-{gone}"' in listing and f'id="roster-{kept}"' in listing


def test_another_carnet_cannot_bring_it_back(
    browser: TestClient, app: Any, session: Session
) -> None:
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    delete(browser, roster_id)
    with TestClient(app, follow_redirects=False) as other:
        other.headers["Sec-Fetch-Site"] = "same-origin"
        # A stranger without any carnet: a French message, nothing restored.
        assert other.post(f"/listes/{roster_id}/restaurer").status_code == 303
        assert "n'est plus dans les listes supprimées" in text(other.get("/listes").text)
        create(other, "bastos", "imperiaux")  # a carnet of its own
        refused = other.post(f"/listes/{roster_id}/restaurer")
        assert refused.status_code == 303
        page = text(other.get("/listes").text)
        assert "n'est plus dans les listes supprimées de ce carnet" in page
        assert stored_roster(session, roster_id) is None
        assert f"deleted-{roster_id}" not in other.get("/listes/supprimees").text
    # Its own carnet still can.
    assert browser.post(f"/listes/{roster_id}/restaurer").status_code == 303
    assert stored_roster(session, roster_id) is not None


def test_a_gang_comes_back_with_its_campaign_place_and_ledger(
    browser: TestClient, session: Session
) -> None:
    gang = stored(browser, orlocks())
    campaign = campaign_of(browser)
    assert join(browser, campaign, gang).status_code == 201
    assert battle(browser, gang, 1, {"fighters": [{"entry": 1, "xp": 25}]}).status_code == 201
    open_in_browser(browser, gang)
    standings = browser.get(f"/c/{campaign['id']}").text
    assert "Les Orlocks" in standings

    delete(browser, gang["id"])
    assert "Les Orlocks" not in browser.get(f"/c/{campaign['id']}").text
    session.expire_all()
    assert session.exec(sql("SELECT count(*) FROM battle")).one()[0] == 0  # type: ignore[call-overload]

    assert browser.post(f"/listes/{gang['id']}/restaurer").status_code == 303
    assert "Les Orlocks" in browser.get(f"/c/{campaign['id']}").text
    page = browser.get(f"/r/{gang['id']}/campagne").text
    assert page.count('class="battle"') == 1
    # The API sees the same ledger with the same edit token.
    listed = browser.get(
        f"/api/v1/rosters/{gang['id']}/battles",
        headers={"Authorization": f"Bearer {gang['edit_token']}"},
    )
    assert listed.status_code == 200 and len(listed.json()["battles"]) == 1


def test_a_line_whose_id_was_taken_comes_back_under_a_new_one(
    browser: TestClient, session: Session
) -> None:
    """SQLite may hand a freed id to a new line: the restored line takes another, and the
    line of the other gang that named it is renamed with it."""
    gang = stored(browser, orlocks())
    assert battle(browser, gang, 1, {}).status_code == 201
    open_in_browser(browser, gang)
    line = session.exec(sql("SELECT id FROM battle")).one()[0]  # type: ignore[call-overload]
    delete(browser, gang["id"])
    kept = session.get(DeletedItem, gang["id"])
    assert kept is not None
    # Another gang's line now holds that id and names the deleted line as its partner.
    other = stored(browser, orlocks("Les Goliaths"))
    assert battle(browser, other, 1, {}).status_code == 201
    session.exec(sql(f"UPDATE battle SET id = {line} WHERE roster_id = '{other['id']}'"))  # type: ignore[call-overload]
    rows = dict(kept.rows)
    rows["battles"] = [{**rows["battles"][0], "confirms_id": line + 1000}]
    session.exec(sql(f"UPDATE battle SET confirms_id = {line} WHERE id = {line}"))  # type: ignore[call-overload]
    kept.rows = rows
    session.add(kept)
    session.commit()

    restored = trash.restore(session=session, item=kept, carnet_id=kept.carnet_id or "")
    assert restored is not None and restored.battles == 1
    session.expire_all()
    back = session.exec(sql(f"SELECT id FROM battle WHERE roster_id = '{gang['id']}'")).one()[0]  # type: ignore[call-overload]
    assert back != line
    assert session.get(Battle, line) is not None  # the other gang's line is untouched


def test_prune_keeps_a_deleted_lists_shares_until_its_30_days_are_over(
    browser: TestClient, session: Session
) -> None:
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    page = browser.get(f"/r/{roster_id}").text
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version
    shared = browser.post(f"/r/{roster_id}", data={"action": "share", "version": version[1]})
    assert shared.status_code in (200, 303), shared.text
    delete(browser, roster_id)
    report = prune(session=session, days=180)
    assert report.deleted_lists == 0  # waiting in the trash: its share is still its list's

    later = datetime.now(UTC) + timedelta(days=29)
    assert prune(session=session, days=180, on=later.date()).expired_lists == 0
    report = prune(session=session, days=180, on=(later + timedelta(days=2)).date(), apply=True)
    assert report.expired_lists == 1  # 31 days: removed, then its share with it
    assert report.deleted_lists == 1 and report.removed == 1
    assert session.exec(sql("SELECT count(*) FROM deleted_item")).one()[0] == 0  # type: ignore[call-overload]
    assert browser.post(f"/listes/{roster_id}/restaurer").status_code == 303
    assert stored_roster(session, roster_id) is None


def test_a_gang_restored_into_a_full_campaign_comes_back_without_its_place(
    browser: TestClient, session: Session, monkeypatch: Any
) -> None:
    """The campaign filled up while the gang waited in the trash: the list and its ledger
    come back, its place in the campaign does not (the gang cap holds)."""
    from app.store import trash as trash_module

    gang = stored(browser, orlocks())
    campaign = campaign_of(browser)
    assert join(browser, campaign, gang).status_code == 201
    open_in_browser(browser, gang)
    delete(browser, gang["id"])
    other = stored(browser, orlocks("Les Goliaths"))
    assert join(browser, campaign, other).status_code == 201
    monkeypatch.setattr(trash_module, "CAMPAIGN_MAX_GANGS", 1)  # now full
    assert browser.post(f"/listes/{gang['id']}/restaurer").status_code == 303
    assert stored_roster(session, gang["id"]) is not None
    standings = browser.get(f"/c/{campaign['id']}").text
    assert "Les Goliaths" in standings and "Les Orlocks" not in standings
