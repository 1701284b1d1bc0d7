"""Issue 29: the pages of a campaign as a browser sees them: the organiser's own page is
never stored nor revalidated, and a page number is bounded where it enters (422, said in
French). docs/campaigns.md « Views remembered per version »."""

import re
from typing import Any

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.store import tallies
from tests.api.test_campaigns import campaign_of, orlocks, stored
from tests.api.test_carnet_file import exported, rich_carnet
from tests.api.test_carnets import key, make_carnet
from tests.campaigns.test_campaign_views import Club, club, forget, reference, table_of
from tests.campaigns.test_ledger_work import auth
from tests.web.test_campaign_pages import open_in_browser


def test_the_organiser_s_page_is_never_stored_nor_revalidated(browser: TestClient) -> None:
    made = browser.post("/campagnes/nouvelle", data={"system": "necrowarzone", "name": "Ruche"})
    assert made.status_code == 201, made.text
    url = re.search(r'/c/([0-9a-f]+)"', made.text)
    assert url is not None
    page = f"/c/{url[1]}"
    stranger = TestClient(browser.app)
    public = stranger.get(page)
    mine = browser.get(page, headers={"If-None-Match": public.headers["etag"]})
    assert mine.status_code == 200
    assert "Inviter des joueurs" in mine.text
    assert mine.headers["cache-control"] == "private, no-store"
    assert "Cookie" in mine.headers["vary"].split(", ")
    assert "etag" not in mine.headers


def test_a_page_number_is_bounded_where_it_enters(browser: TestClient) -> None:
    gang = stored(browser, orlocks())
    open_in_browser(browser, gang)
    shared = browser.post(f"/api/v1/rosters/{gang['id']}/shares", headers=auth(gang))
    code = shared.json()["code"]
    campaign = campaign_of(browser)
    for path in (f"/campagne/gang/{code}", f"/r/{gang['id']}/campagne", f"/c/{campaign['id']}"):
        for bad in ("0", "101", "abc", "-1", "²", "1.5", "", "1000000000000"):
            response = browser.get(path, params={"page": bad})
            assert response.status_code == 422, (path, bad)
            assert "Page : un nombre entier de 1 à 100." in response.text
        assert browser.get(path, params={"page": "100"}).status_code == 200, path


def test_a_gang_deleted_then_brought_back_changes_what_others_show(
    browser: TestClient,
) -> None:
    """Deleting a gang takes its lines off the standings and its opponents' pages; bringing
    it back (« Annuler la suppression ») is a join: neither is answered 304."""
    made = Club(browser)
    alpha, bravo, _charlie = made.gangs
    made.record(bravo, {"opponent_roster": alpha["id"]})
    open_in_browser(browser, bravo)
    stranger = TestClient(browser.app)
    views = [f"/c/{made.campaign['id']}", f"/campagne/gang/{made.share(alpha)}"]
    seen = {url: stranger.get(url).headers["etag"] for url in views}
    assert "Bravo" in stranger.get(views[1]).text  # the battle Bravo recorded against Alpha
    for step in (f"/listes/{bravo['id']}/supprimer", f"/listes/{bravo['id']}/restaurer"):
        assert browser.post(step, data={"confirm": "oui"}).status_code == 303
        for url, etag in list(seen.items()):
            response = stranger.get(url, headers={"If-None-Match": etag})
            assert response.status_code == 200, (step, url)
            seen[url] = response.headers["etag"]
        assert ("Bravo" in stranger.get(views[1]).text) == step.endswith("restaurer")


def test_the_kept_standings_follow_a_gang_deleted_brought_back_and_a_carnet_restored(
    browser: TestClient, session: Session
) -> None:
    """The standings the writes keep (app/campaigns/tallies.py) are those every ledger gives
    after a gang is deleted and brought back from the trash (its tallies go with it and are
    counted again), and in a campaign a carnet file brings in, in a new process each time."""
    made = club(browser, 3)
    alpha, bravo, _charlie = made.gangs
    open_in_browser(browser, bravo)
    campaign = made.campaign["id"]

    def same() -> list[tuple[Any, ...]]:
        forget(browser)
        session.expire_all()
        table = table_of(browser, campaign)
        assert table == reference(session, campaign)
        return table

    before = same()
    assert (
        browser.post(f"/listes/{bravo['id']}/supprimer", data={"confirm": "oui"}).status_code == 303
    )
    without = same()
    assert [row[0] for row in without] == [alpha["id"], made.gangs[2]["id"]]
    assert browser.post(f"/listes/{bravo['id']}/restaurer").status_code == 303
    assert same() == before
    assert tallies.kept(session=session, campaign_id=campaign)[bravo["id"]].battles == before[1][1]

    first, _names = rich_carnet(browser)
    carnet = make_carnet(browser)
    came = browser.post(
        f"/api/v1/carnets/{carnet['id']}/import", json=exported(browser, first), headers=key(carnet)
    )
    assert came.status_code == 200, came.text
    campaign = came.json()["campaigns"][0]["id"]
    restored = same()
    # Alpha: one win (its second line voided); Bravo: the same battle, a loss, and its dead.
    assert [row[1:5] for row in restored] == [(1, 1, 0, 0), (1, 0, 0, 1)]
    assert restored[1][7] == 1
