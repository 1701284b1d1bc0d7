"""Campaign pages without JavaScript: « Après la bataille » records several fighters in one
form, the gang's public page, the report, a campaign's standings and joining it."""

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_campaigns import campaign_of, orlocks, stored


def open_in_browser(browser: TestClient, roster: dict[str, Any]) -> None:
    """The edit link puts the list in this browser's carnet."""
    response = browser.get(roster["edit_url"].removeprefix("http://testserver"))
    assert response.status_code in (200, 303), response.text
    if response.status_code == 303:
        browser.get(response.headers["location"])


def version(page: str) -> str:
    match = re.search(r'name="version" value="(\d+)"', page)
    assert match
    return match[1]


def record(browser: TestClient, roster_id: str, data: dict[str, str]) -> Any:
    page = browser.get(f"/r/{roster_id}/campagne").text
    body = {"date": "2026-12-01", "opponent": "Les Goliaths", "result": "win", **data}
    return browser.post(f"/r/{roster_id}/campagne", data={"version": version(page), **body})


def test_after_the_battle_from_the_form(browser: TestClient) -> None:
    gang = stored(browser, orlocks())
    open_in_browser(browser, gang)
    page = browser.get(f"/r/{gang['id']}/campagne")
    assert page.status_code == 200
    assert "seuil de déroute 3" in page.text  # 9 figures, L84
    first = record(browser, gang["id"], {"f1_xp": "25", "f3_xp": "5"})
    assert first.status_code == 303, first.text
    second = record(
        browser,
        gang["id"],
        {"result": "draw", "f1_xp": "20", "f2_stat": "CT", "f2_by": "-1", "f2_cause": "Œil crevé"},
    )
    assert second.status_code == 303
    page = browser.get(f"/r/{gang['id']}/campagne").text
    row = re.search(r'<tr id="fighter-1">(.*?)</tr>', page, re.S)
    assert row and '<td class="acts">3</td>' in row[1]  # 105 XP, L10
    assert "B2 : CT −1 (Œil crevé)" in page
    third = record(browser, gang["id"], {"result": "loss", "f4_state": "dead"})
    assert third.status_code == 303
    page = browser.get(f"/r/{gang['id']}/campagne").text
    assert "8 figurines en jeu · seuil de déroute 2" in page
    assert page.count('class="battle"') == 3
    # A bad value is a French message and nothing is recorded.
    bad = record(browser, gang["id"], {"f1_xp": "beaucoup"})
    assert bad.status_code == 422
    assert 'id="campaign-error"' in bad.text
    assert bad.text.count('class="battle"') == 3
    # A stale form (another device recorded first): 409, nothing recorded.
    stale = browser.post(
        f"/r/{gang['id']}/campagne", data={"version": "1", "date": "2026-12-02", "result": "win"}
    )
    assert stale.status_code == 409
    # The public page by the last battle's share, and its report.
    shares = re.findall(r'href="/campagne/rapport/([a-z0-9]+)\.bbcode"', page)
    assert len(shares) == 3
    public = browser.get(f"/campagne/gang/{shares[0]}")
    assert public.status_code == 200
    assert "Après la bataille" not in public.text  # the public page has no form
    assert public.text.count('class="battle"') == 3
    report = browser.get(f"/campagne/rapport/{shares[-1]}.bbcode")
    assert report.status_code == 200
    assert report.text.startswith(
        "[b]Rapport de bataille — Les Orlocks[/b]\nBataille 1 — 1er décembre 2026"
    )
    assert "[*][b]Ganger 1[/b] : +25 XP\n" in report.text


def test_a_campaign_page_and_joining_it(browser: TestClient) -> None:
    campaign = campaign_of(browser)
    gang = stored(browser, orlocks("Alpha"))
    open_in_browser(browser, gang)
    join = browser.get(campaign["join_url"].removeprefix("http://testserver"))
    assert join.status_code == 200 and "Alpha" in join.text
    refused = browser.post(
        f"/c/{campaign['id']}/rejoindre", data={"code": "faux", "roster": gang["id"]}
    )
    assert refused.status_code == 403
    joined = browser.post(
        f"/c/{campaign['id']}/rejoindre", data={"code": campaign["join_code"], "roster": gang["id"]}
    )
    assert joined.status_code == 303
    record(browser, gang["id"], {"campaign": campaign["id"]})
    page = browser.get(f"/c/{campaign['id']}")
    assert page.status_code == 200
    assert re.search(r">Alpha</a></td><td>1</td><td>1</td>", page.text)
    assert browser.get("/c/nope").status_code == 404


def test_an_organiser_creates_a_campaign_from_the_pages(browser: TestClient) -> None:
    form = browser.get("/campagnes/nouvelle?systeme=necrowarzone")
    assert form.status_code == 200
    assert '<option value="necrowarzone" selected>' in form.text
    # Bad values: a French message, what was typed kept, nothing created.
    for data, said in [
        ({"system": "necrowarzone", "name": "   "}, "Nom :"),
        ({"system": "échecs", "name": "La Ruche"}, "Système :"),
        ({"system": "necrowarzone", "name": "x" * 101}, "Nom :"),
        (
            {"system": "necrowarzone", "name": "Ruche", "notes": "n" * 4001},
            "Règles de la campagne :",
        ),
        ({"system": "necrowarzone", "name": "Ru\x00che"}, "Nom :"),
    ]:
        refused = browser.post("/campagnes/nouvelle", data=data)
        assert refused.status_code == 422, (data, refused.text[:300])
        assert 'id="new-campaign-error"' in refused.text and said in refused.text, data
        assert 'aria-invalid="true"' in refused.text
    made = browser.post(
        "/campagnes/nouvelle",
        data={"system": "necrowarzone", "name": "La Ruche", "notes": "10 XP par bataille"},
    )
    assert made.status_code == 201, made.text
    join_url = re.search(r'id="join-url" value="([^"]+)"', made.text)
    assert join_url and "/rejoindre?code=" in join_url[1]
    campaign_id = re.search(r"/c/([0-9a-f]+)/rejoindre", join_url[1])
    assert campaign_id
    # The campaign is in this browser's carnet (« Mes listes ») and its page is public.
    mine = browser.get("/listes").text
    assert f'<a href="/c/{campaign_id[1]}">La Ruche</a>' in mine
    page = browser.get(f"/c/{campaign_id[1]}")
    assert page.status_code == 200 and "10 XP par bataille" in page.text
    # A player's list joins by that link.
    gang = stored(browser, orlocks("Alpha"))
    open_in_browser(browser, gang)
    join = browser.get(join_url[1].removeprefix("http://testserver"))
    assert join.status_code == 200 and "Alpha" in join.text
    code = join_url[1].split("code=", 1)[1]
    joined = browser.post(
        f"/c/{campaign_id[1]}/rejoindre", data={"code": code, "roster": gang["id"]}
    )
    assert joined.status_code == 303
    standings = browser.get(f"/c/{campaign_id[1]}").text
    assert re.search(r"<tr><td>(<a [^>]+>)?Alpha(</a>)?</td><td>0</td>", standings)
