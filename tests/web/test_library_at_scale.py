"""Issue 26 item 11: « Mes listes » with 300 lists: found by a piece of their name, by system,
in an order, a page at a time (server side, query parameters, bounded), under 60 KB on the
wire."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.carnet_service import CarnetService
from app.roster_service import RosterService
from app.store.models import Carnet, CarnetRoster, Roster
from tests.web.test_library import create

LISTS = 300
BUDGET = 60_000  # bytes on the wire


def fill(browser: TestClient, session: Session, app: Any) -> list[str]:
    """300 lists in this browser's carnet: 150 DCSystem, 150 No Limits, named « Liste n »,
    the n-th changed n minutes after the first."""
    first = create(browser, "dcsystem", "feuille_de_bataille_sg")
    carnet_id = session.exec(
        select(CarnetRoster.carnet_id).where(CarnetRoster.roster_id == first)
    ).one()
    carnet = session.get(Carnet, carnet_id)
    assert carnet is not None
    service = RosterService(session, app.state.systems)
    examples = {
        system: next(iter(app.state.systems[system].example_rosters())).document
        for system in ("dcsystem", "nolimits")
    }
    ids = []
    for n in range(1, LISTS):
        system = "dcsystem" if n % 2 else "nolimits"
        document = {**examples[system], "name": f"Liste {n:03d}"}
        parsed = app.state.systems[system].roster_model.model_validate(document)
        roster, _token = service.create(parsed)
        ids.append(roster.id)
    CarnetService(session).add(carnet, ids)
    start = datetime(2026, 6, 1, tzinfo=UTC)
    for n, roster_id in enumerate([first, *ids]):
        roster = session.get(Roster, roster_id)
        assert roster is not None
        roster.updated_at = start + timedelta(minutes=n)
        session.add(roster)
    session.commit()
    return [first, *ids]


def names(page: str) -> list[str]:
    return re.findall(r'<h2 id="roster-[^"]+-title"><a href="/r/[^"]+">([^<]+)</a>', page)


def test_300_lists_are_paged_searched_filtered_sorted_under_60_kb(
    browser: TestClient, session: Session, app: Any
) -> None:
    fill(browser, session, app)
    page = browser.get("/listes", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200
    wire = page.num_bytes_downloaded
    print(f"/listes with {LISTS} lists: {len(page.content)} bytes of HTML, {wire} on the wire")
    assert page.headers.get("content-encoding") == "gzip"
    assert wire < BUDGET, wire
    # Even uncompressed.
    assert len(page.content) < BUDGET, len(page.content)
    shown = names(page.text)
    assert len(shown) == 24
    assert shown[:3] == ["Liste 299", "Liste 298", "Liste 297"]  # newest change first
    assert "300 listes — page 1 sur 13" in page.text

    # Page 2 carries on; a page past the last shows the last.
    second = names(browser.get("/listes?page=2").text)
    assert second[0] == "Liste 275"
    last = browser.get("/listes?page=999999999999").text
    assert "page 13 sur 13" in last and len(names(last)) == 300 - 12 * 24

    # A piece of the name, case and spaces aside.
    found = browser.get("/listes", params={"q": "  liste 12 "}).text
    assert sorted(names(found)) == [f"Liste {n}" for n in range(120, 130)]
    assert "10 listes trouvées" in found
    # « % » and « _ » are letters here, not patterns.
    assert "Aucune liste ne correspond" in browser.get("/listes", params={"q": "%"}).text

    # By system: the 149 No Limits lists (even numbers), by name.
    nolimits = browser.get("/listes", params={"systeme": "nolimits", "tri": "nom"}).text
    assert "149 listes trouvées — page 1 sur 7" in nolimits
    assert names(nolimits)[:3] == ["Liste 002", "Liste 004", "Liste 006"]
    # Oldest change first; an unknown system or order is ignored, a huge page is bounded.
    oldest = browser.get("/listes", params={"tri": "ancien"}).text
    assert names(oldest)[1:3] == ["Liste 001", "Liste 002"]
    assert names(browser.get("/listes", params={"systeme": "x", "tri": "y"}).text) == shown
    assert browser.get("/listes", params={"page": "9" * 60}).status_code == 200
    # Digits a form would not write (issue 25 item 6: isdigit() is true of « ² », int() refuses it).
    for crafted in ("²", "⁵", "①", "1²"):
        assert browser.get("/listes", params={"page": crafted}).status_code == 200, crafted
    # The pager keeps the search.
    assert 'href="/listes?systeme=nolimits&amp;tri=nom&amp;page=2"' in nolimits


def test_a_catalogue_lists_the_players_lists_once(
    browser: TestClient, session: Session, app: Any
) -> None:
    """Each card's « Ajouter à la liste » used to repeat the whole list of the player's lists
    (33 cards × 61 DCSystem lists: 259 KB); the list is chosen once for the page."""
    ids = [i for i in fill(browser, session, app) if session.get(Roster, i).system == "dcsystem"]
    page = browser.get("/dcsystem/catalogue")
    assert page.status_code == 200
    cards = page.text.count('class="add-to-list')
    print(f"/dcsystem/catalogue: {len(ids)} lists, {cards} cards, {len(page.content)} bytes")
    assert cards >= 30
    assert page.text.count(f'<option value="{ids[5]}"') == 1
    assert len(page.content) < 200_000, len(page.content)
    # Aimed at a list (?liste=, as « Choisir » does), every card adds to it and comes back.
    aimed = browser.get("/dcsystem/catalogue", params={"liste": ids[5]}).text
    assert f'<option value="{ids[5]}" selected>' in aimed
    assert aimed.count(f'name="roster" value="{ids[5]}" data-pick-roster') == cards
    form = re.search(
        r'<form method="post" action="/listes/ajouter" class="add-to-list">.*?</form>', aimed, re.S
    )
    assert form is not None
    data = dict(
        re.findall(r'<input type="(?:hidden|number)" name="([^"]+)" value="([^"]*)"', form.group(0))
    )
    before = len(session.get(Roster, ids[5]).document["entries"])
    added = browser.post("/listes/ajouter", data=data)
    assert added.status_code == 303
    assert added.headers["location"] == f"/dcsystem/catalogue?liste={ids[5]}&ajoute=1"
    session.expire_all()
    assert len(session.get(Roster, ids[5]).document["entries"]) == before + 1
