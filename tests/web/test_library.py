"""« Mes listes » (issue 7): the lists this browser holds with their total, validity and last
change in French, and what a player does with them; the new-list form."""

import html
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.dates import french_date, french_datetime
from app.roster_service import RosterService
from app.security.cookies import CARNET_COOKIE, cookie_name
from app.store import rosters as store
from app.store.models import Roster
from tests.web.conftest import field


def create(browser: TestClient, system: str, example: str = "") -> str:
    """A list made as a player makes one (an example, or the new-list form); its id."""
    if example:
        response = browser.post("/listes", data={"system": system, "example": example})
    else:
        response = browser.post("/listes/nouvelle", data={"system": system, "name": "Essai"})
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).removeprefix("/r/")


def card(page: str, roster_id: str) -> str:
    """The HTML of one list's card in « Mes listes »."""
    match = re.search(rf'<article class="card" id="roster-{roster_id}".*?</article>', page, re.S)
    assert match, roster_id
    return match.group(0)


def stored(session: Session, roster_id: str) -> Roster | None:
    session.expire_all()
    return store.get_roster(session=session, roster_id=roster_id)


def text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_library_shows_name_system_total_validity_and_date(
    browser: TestClient, session: Session
) -> None:
    sg = create(browser, "dcsystem", "feuille_de_bataille_sg")
    bastos = create(browser, "bastos", "imperiaux")
    roster = stored(session, sg)
    assert roster is not None
    roster.updated_at = datetime(2026, 11, 30, 13, 5, tzinfo=UTC)
    session.add(roster)
    session.commit()

    response = browser.get("/listes")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "private, no-store"  # it holds edit links
    page = response.text
    assert "version" not in text(page).lower()
    sg_card = text(card(page, sg))
    assert "Dices & Colors System — Stargate's War" in sg_card
    assert re.search(r"\d+ / \d+ points", sg_card) or re.search(r"\d+ points", sg_card)
    assert "Liste valide" in sg_card or "Liste non valide" in sg_card
    assert "Modifiée le 30 novembre 2026 à 14 h 05" in sg_card  # Paris is UTC+1 in November
    assert 'datetime="2026-11-30T13:05:00+00:00"' in card(page, sg)
    # A system without points shows its totals, never "0 points".
    bastos_card = text(card(page, bastos))
    assert "points" not in bastos_card
    assert "Pour quelques bastos de plus" in bastos_card
    assert "2 Figurines 7 Rep totale" in bastos_card
    assert "Arme de classe" not in bastos_card  # the headline totals only: the list has the rest


def test_points_come_first(browser: TestClient) -> None:
    infinity = create(browser, "infinity", "compagnie_de_brumeval")
    infinity_card = text(card(browser.get("/listes").text, infinity))
    assert re.search(r"300 / 300 points [\d.]+ / \d+ SWC", infinity_card), infinity_card
    assert "figurines" not in infinity_card


def test_library_figures_match_the_summary(browser: TestClient, systems: dict[str, Any]) -> None:
    sg = create(browser, "dcsystem", "feuille_de_bataille_sg")
    system = systems["dcsystem"]
    example = next(e for e in system.example_rosters() if e.id == "feuille_de_bataille_sg")
    parsed = system.roster_model.model_validate(example.document)
    summary = system.summarize(parsed, result := system.validate(parsed))
    points = next(b for b in summary.budgets if b.id == "points")
    expected = f"{points.used} / {points.limit} points" if points.limit else f"{points.used} points"
    sg_card = text(card(browser.get("/listes").text, sg))
    assert expected in sg_card
    assert ("Liste valide" if result.valid else "Liste non valide") in sg_card


def test_newest_change_first(browser: TestClient, session: Session) -> None:
    first = create(browser, "dcsystem")
    second = create(browser, "nolimits")
    for roster_id, hour in ((first, 15), (second, 9)):
        roster = stored(session, roster_id)
        assert roster is not None
        roster.updated_at = datetime(2026, 7, 1, hour, 0, tzinfo=UTC)
        session.add(roster)
        session.commit()
    page = browser.get("/listes").text
    assert page.index(f'id="roster-{first}"') < page.index(f'id="roster-{second}"')
    assert "Modifiée le 1er juillet 2026 à 17 h 00" in text(card(page, first))  # UTC+2 in July


def test_french_date_reads_naive_times_as_utc() -> None:
    """SQLite gives back naive datetimes: they are UTC."""
    assert french_datetime(datetime(2026, 11, 30, 13, 5)) == "30 novembre 2026 à 14 h 05"
    assert french_datetime(datetime(2026, 3, 1, 0, 30, tzinfo=UTC)) == "1er mars 2026 à 1 h 30"


@pytest.mark.parametrize(
    ("month", "name"),
    enumerate(
        ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
         "octobre", "novembre", "décembre"],
        start=1,
    ),
)  # fmt: skip
def test_french_dates_name_every_month(month: int, name: str) -> None:
    """Babel's French month names, accents included, on each month's first day (noon UTC is
    the same day in Paris)."""
    assert french_date(datetime(2026, month, 1, 12, 0, tzinfo=UTC)) == f"1er {name} 2026"
    assert french_date(datetime(2026, month, 15, 12, 0, tzinfo=UTC)) == f"15 {name} 2026"


def test_another_browsers_lists_are_never_shown(browser: TestClient, app: Any) -> None:
    mine = create(browser, "dcsystem", "feuille_de_bataille_sg")
    with TestClient(app, follow_redirects=False) as other:
        other.headers["Sec-Fetch-Site"] = "same-origin"
        theirs = create(other, "nolimits")
        page = other.get("/listes").text
        assert f"roster-{theirs}" in page and mine not in page
        # Knowing the id is not enough: actions need this browser's token.
        for action in ("renommer", "dupliquer", "supprimer"):
            refused = other.post(f"/listes/{mine}/{action}", data={"confirm": "oui", "name": "x"})
            assert refused.status_code == 403
        # A forged cookie (an old per-roster cookie with a wrong token) shows nothing either.
        other.cookies.set(cookie_name(mine), "not-the-token", domain="testserver.local")
        assert mine not in other.get("/listes").text
        assert cookie_name(mine) not in other.cookies  # verified, then removed
    page = browser.get("/listes").text
    assert f"roster-{mine}" in page and theirs not in page


def test_rename_inline(browser: TestClient, session: Session) -> None:
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    page = browser.get("/listes").text
    assert f'action="/listes/{roster_id}/renommer"' in card(page, roster_id)
    response = browser.post(f"/listes/{roster_id}/renommer", data={"name": "  Équipe SG-1  "})
    assert response.status_code == 303
    assert response.headers["location"] == f"/listes#roster-{roster_id}"
    roster = stored(session, roster_id)
    assert roster is not None and roster.name == "Équipe SG-1"
    assert roster.document["name"] == "Équipe SG-1"
    page = browser.get("/listes").text
    assert "Liste renommée : « Équipe SG-1 »." in text(page)
    assert "Liste renommée" not in browser.get("/listes").text  # the flash is shown once
    too_long = browser.post(f"/listes/{roster_id}/renommer", data={"name": "x" * 101})
    assert too_long.status_code == 422 and "100 caractères au plus" in too_long.text
    roster = stored(session, roster_id)
    assert roster is not None and roster.name == "Équipe SG-1"


def test_duplicate_keeps_the_original_and_says_so(browser: TestClient, session: Session) -> None:
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    original = stored(session, roster_id)
    assert original is not None
    response = browser.post(f"/listes/{roster_id}/dupliquer")
    assert response.status_code == 303
    copy_id = response.headers["location"].removeprefix("/listes#roster-")
    assert copy_id != roster_id
    copy = stored(session, copy_id)
    assert copy is not None and copy.name == f"{original.name} (copie)"
    assert copy.document["entries"] == original.document["entries"]
    page = browser.get("/listes").text
    assert f"Copie créée : « {original.name} (copie) »." in text(page)
    assert f"roster-{roster_id}" in page and f"roster-{copy_id}" in page
    assert browser.get(f"/r/{copy_id}").status_code == 200  # this browser may edit the copy


def test_delete_asks_first_then_deletes_and_forgets(browser: TestClient, session: Session) -> None:
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    name = html.unescape(re.search(r"<h2[^>]*><a[^>]*>([^<]*)<", browser.get("/listes").text)[1])  # type: ignore[index]
    asked = browser.post(f"/listes/{roster_id}/supprimer")
    assert asked.status_code == 200
    assert f"Supprimer « {name} » ?" in text(asked.text)
    confirm = re.search(r'<section class="card confirm-delete".*?</section>', asked.text, re.S)
    assert confirm and 'name="confirm" value="oui"' in confirm.group(0)
    assert f'href="/listes#roster-{roster_id}">Annuler' in confirm.group(0)
    assert stored(session, roster_id) is not None  # nothing deleted yet

    done = browser.post(f"/listes/{roster_id}/supprimer", data={"confirm": "oui"})
    assert done.status_code == 303 and done.headers["location"] == "/listes"
    assert stored(session, roster_id) is None
    page = browser.get("/listes").text
    assert f"Liste supprimée : « {name} »." in text(page)
    assert f"roster-{roster_id}" not in page and "Aucune liste" in page
    assert browser.get(f"/r/{roster_id}").status_code == 404  # « Cette liste n'existe pas. »


def carnet_link(page: str) -> str:
    field = re.search(r'<input type="text" readonly id="carnet-link-value" value="([^"]+)"', page)
    assert field is not None
    return html.unescape(field.group(1))


def adopt(client: TestClient, link: str) -> Any:
    """Opens a carnet link as a player does: the page asks, its form's POST opens it."""
    asked = client.get(link)
    assert asked.status_code == 200, asked.text
    assert CARNET_COOKIE not in str(asked.headers.get_list("set-cookie"))
    return client.post(link.split("?")[0], data={"t": field(asked.text, "t"), "choix": "ouvrir"})


def test_carnet_link_opens_every_list_in_another_browser(browser: TestClient, app: Any) -> None:
    first = create(browser, "dcsystem", "feuille_de_bataille_sg")
    second = create(browser, "nolimits")
    carnet_id, key = browser.cookies[CARNET_COOKIE].split(".")
    page = browser.get("/listes").text
    link = carnet_link(page)
    assert link == f"http://testserver/carnet/{carnet_id}?t={key}"
    assert 'id="carnet"' in page and '<svg role="img"' in page  # the QR code, inline
    assert "QR code du lien de ce carnet" in page
    with TestClient(app, follow_redirects=False) as other:
        other.headers["Sec-Fetch-Site"] = "same-origin"
        opened = adopt(other, link.removeprefix("http://testserver"))
        assert opened.status_code == 303 and opened.headers["location"] == "/listes"
        listed = other.get("/listes").text
        assert f"roster-{first}" in listed and f"roster-{second}" in listed
        assert other.get(f"/r/{first}").status_code == 200
        # A list made on the other device is in the same carnet.
        third = create(other, "bastos", "imperiaux")
    assert f"roster-{third}" in browser.get("/listes").text


def test_changing_the_key_closes_the_old_link_and_the_old_cookie(
    browser: TestClient, app: Any
) -> None:
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    old_link = carnet_link(browser.get("/listes").text).removeprefix("http://testserver")
    with TestClient(app, follow_redirects=False) as other:
        other.headers["Sec-Fetch-Site"] = "same-origin"
        assert adopt(other, old_link).status_code == 303
        assert other.get(f"/r/{roster_id}").status_code == 200
        rotated = rotate_key(browser)
        assert rotated.status_code == 303 and rotated.headers["location"] == "/listes#carnet"
        # The owner's browser keeps working, with a new link.
        page = browser.get("/listes").text
        assert f"roster-{roster_id}" in page and "Nouvelle clé" in text(page)
        new_link = carnet_link(page).removeprefix("http://testserver")
        assert new_link != old_link
        assert browser.get(f"/r/{roster_id}").status_code == 200
        # The old cookie and the old link open nothing.
        assert other.get(f"/r/{roster_id}").status_code == 403
        refused = other.get("/listes")
        assert refused.status_code == 403 and "La clé de ce carnet a été changée" in text(
            refused.text
        )
        with TestClient(app, follow_redirects=False) as third:
            third.headers["Sec-Fetch-Site"] = "same-origin"
            assert third.get(old_link).status_code == 403
            assert adopt(third, new_link).status_code == 303


def rotate_key(browser: TestClient) -> Any:
    """« Changer la clé du carnet », then « Changer la clé maintenant »."""
    asked = browser.get("/listes/carnet/cle")
    assert asked.status_code == 200 and asked.headers["cache-control"] == "private, no-store"
    return browser.post(
        "/listes/carnet/cle", data={"confirm": "oui", "cle": field(asked.text, "cle")}
    )


def test_changing_the_key_asks_first_and_a_double_click_changes_it_once(
    browser: TestClient, session: Session
) -> None:
    """Issue 26, item 2: « Changer la clé du carnet » acted on one click. One click now
    asks; the confirmation posted twice (a double-click: the second request still carries
    the old cookie, the first answer and its new cookie may be lost) changes the key once
    and leaves this browser holding it."""
    from app.store.models import Carnet

    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    old_cookie = browser.cookies[CARNET_COOKIE]
    carnet_id, old_key = old_cookie.split(".")
    link = carnet_link(browser.get("/listes").text)
    assert 'action="/listes/carnet/cle"' in browser.get("/listes").text

    for click in (
        lambda: browser.get("/listes/carnet/cle"),
        lambda: browser.post("/listes/carnet/cle"),
    ):
        asked = click()
        assert asked.status_code == 200
        assert "Changer la clé du carnet ?" in text(asked.text)
        assert "L'ancien lien n'ouvrira plus rien" in text(asked.text)
        assert browser.cookies[CARNET_COOKIE] == old_cookie
        assert carnet_link(browser.get("/listes").text) == link  # nothing changed
    new_key = field(asked.text, "cle")
    assert new_key != old_key

    first = browser.post("/listes/carnet/cle", data={"confirm": "oui", "cle": new_key})
    assert first.status_code == 303
    browser.cookies.set(CARNET_COOKIE, old_cookie, domain="testserver.local")  # answer lost
    second = browser.post("/listes/carnet/cle", data={"confirm": "oui", "cle": new_key})
    assert second.status_code == 303 and second.headers["location"] == "/listes#carnet"
    assert browser.cookies[CARNET_COOKIE] == f"{carnet_id}.{new_key}"
    page = browser.get("/listes").text
    assert f"roster-{roster_id}" in page
    assert carnet_link(page).endswith(f"?t={new_key}")
    session.expire_all()
    stored_carnet = session.get(Carnet, carnet_id)
    assert stored_carnet is not None
    from app.store.rosters import hash_token

    assert stored_carnet.key_hash == hash_token(new_key)
    # A made-up key is not taken, and a browser without the carnet gets nothing.
    browser.cookies.set(CARNET_COOKIE, old_cookie, domain="testserver.local")
    refused = browser.post("/listes/carnet/cle", data={"confirm": "oui", "cle": "A" * 43})
    assert refused.status_code == 403


def test_a_browser_with_its_own_carnet_is_asked_merge_or_switch(
    browser: TestClient, app: Any
) -> None:
    mine = create(browser, "dcsystem", "feuille_de_bataille_sg")
    link = carnet_link(browser.get("/listes").text).removeprefix("http://testserver")
    for choice in ("fusionner", "changer"):
        with TestClient(app, follow_redirects=False) as other:
            other.headers["Sec-Fetch-Site"] = "same-origin"
            theirs = create(other, "nolimits")
            asked = other.get(link)
            assert asked.status_code == 200
            assert "Ce navigateur a déjà son propre carnet (1 liste)" in text(asked.text)
            # Its own carnet's link, to come back; the advised button filled, the other not.
            own = other.cookies[CARNET_COOKIE].replace(".", "?t=")
            assert f'value="http://testserver/carnet/{own}"' in asked.text
            assert 'id="merge" class="primary"' in asked.text
            assert 'id="switch" class="secondary"' in asked.text
            key = field(asked.text, "t")
            done = other.post(link.split("?")[0], data={"t": key, "choix": choice})
            assert done.status_code == 303
            listed = other.get("/listes").text
            assert f"roster-{mine}" in listed
            assert (f"roster-{theirs}" in listed) is (choice == "fusionner")
            assert (f"roster-{theirs}" in browser.get("/listes").text) is (choice == "fusionner")


@pytest.mark.parametrize("held", ["none", "revoked"])
def test_a_carnet_link_never_opens_the_carnet_on_a_get(
    browser: TestClient, app: Any, held: str
) -> None:
    """Issue 25, item 2 (login CSRF): a page on another site sending a browser to the
    attacker's carnet link must not give that browser the attacker's carnet. The GET asks;
    only the page's form (a POST, same origin) opens the carnet."""
    theirs = create(browser, "dcsystem", "feuille_de_bataille_sg")
    link = carnet_link(browser.get("/listes").text).removeprefix("http://testserver")
    with TestClient(app, follow_redirects=False) as victim:
        if held == "revoked":
            victim.headers["Sec-Fetch-Site"] = "same-origin"
            create(victim, "nolimits")
            own = victim.cookies[CARNET_COOKIE].split(".")[0]
            victim.cookies.set(CARNET_COOKIE, f"{own}.changed", domain="testserver.local")
        victim.headers["Sec-Fetch-Site"] = "cross-site"
        asked = victim.get(link)
        assert asked.status_code == 200
        assert asked.headers["cache-control"] == "private, no-store"
        assert not [c for c in asked.headers.get_list("set-cookie") if CARNET_COOKIE in c]
        assert "Ouvrir ce carnet dans ce navigateur" in text(asked.text)
        assert "Ce lien ouvre un carnet de 1 liste." in text(asked.text)
        victim.headers["Sec-Fetch-Site"] = "same-origin"
        assert f"roster-{theirs}" not in victim.get("/listes").text
        # A cross-site POST is refused by the CSRF guard; the page's own opens the carnet.
        victim.headers["Sec-Fetch-Site"] = "cross-site"
        key = field(asked.text, "t")
        forged = victim.post(link.split("?")[0], data={"t": key, "choix": "ouvrir"})
        assert forged.status_code == 403
        victim.headers["Sec-Fetch-Site"] = "same-origin"
        opened = victim.post(link.split("?")[0], data={"t": key, "choix": "ouvrir"})
        assert opened.status_code == 303 and opened.headers["location"] == "/listes"
        assert f"roster-{theirs}" in victim.get("/listes").text


def test_an_edit_link_from_another_site_asks_before_joining(browser: TestClient, app: Any) -> None:
    """Issue 25, item 2: an edit link followed from another site does not put the list in
    the visitor's carnet; the page asks, its POST joins. Typed or pasted (`none`), it
    joins at once."""
    mine = create(browser, "dcsystem", "feuille_de_bataille_sg")
    with TestClient(app, follow_redirects=False) as attacker:
        made = attacker.post("/api/v1/rosters", json={"system": "nolimits", "name": "Piège"})
        assert made.status_code == 201, made.text
        edit = made.json()["edit_url"].removeprefix("http://testserver")
        theirs = made.json()["id"]
    browser.headers["Sec-Fetch-Site"] = "cross-site"
    asked = browser.get(edit)
    browser.headers["Sec-Fetch-Site"] = "same-origin"
    assert asked.status_code == 200 and asked.headers["cache-control"] == "private, no-store"
    assert "Ajouter « Piège » à ce navigateur ?" in text(asked.text)
    assert not asked.headers.get_list("set-cookie") or CARNET_COOKIE not in str(
        asked.headers.get_list("set-cookie")
    )
    listed = browser.get("/listes").text
    assert f"roster-{mine}" in listed and f"roster-{theirs}" not in listed
    assert browser.get(f"/r/{theirs}").status_code == 403
    # A fresh browser following it from another site gets no carnet either.
    with TestClient(app, follow_redirects=False) as fresh:
        fresh.headers["Sec-Fetch-Site"] = "cross-site"
        assert fresh.get(edit).status_code == 200
        assert CARNET_COOKIE not in fresh.cookies
    joined = browser.post(f"/r/{theirs}/modifier", data={"t": field(asked.text, "t")})
    assert joined.status_code == 303 and joined.headers["location"] == f"/r/{theirs}"
    assert f"roster-{theirs}" in browser.get("/listes").text
    assert browser.post(f"/r/{theirs}/modifier", data={"t": "wrong"}).status_code == 403
    # Pasted in the address bar: it joins at once.
    with TestClient(app, follow_redirects=False) as pasted:
        pasted.headers["Sec-Fetch-Site"] = "none"
        opened = pasted.get(edit)
        assert opened.status_code == 303 and opened.headers["location"] == f"/r/{theirs}"
        assert pasted.get(f"/r/{theirs}").status_code == 200


def test_old_per_roster_cookies_join_the_carnet_and_are_removed(
    browser: TestClient, app: Any, session: Session, systems: dict[str, Any]
) -> None:
    """A browser from before carnets sends one cookie per list: on its first visit each is
    verified, its list joins the browser's carnet, and the cookie is removed."""
    service = RosterService(session, systems)
    system = systems["dcsystem"]
    made = [
        service.create(system.roster_model.model_validate({"system": "dcsystem", "name": f"L{i}"}))
        for i in range(40)
    ]
    with TestClient(app, follow_redirects=False) as old:
        for roster, token in made:
            old.cookies.set(cookie_name(roster.id), token, domain="testserver.local")
        old.cookies.set(cookie_name("forged"), "x", domain="testserver.local")
        page = old.get("/listes")
        assert page.status_code == 200
        # 40 lists: two pages of « Mes listes » (24 a page, issue 26).
        assert "40 listes — page 1 sur 2" in page.text
        both = page.text + old.get("/listes?page=2").text
        assert all(f"roster-{roster.id}" in both for roster, _ in made)
        assert CARNET_COOKIE in old.cookies
        assert not [name for name in old.cookies if name.startswith("caserne_r_")]
        assert len(page.headers.get_list("set-cookie")) >= 41
        again = old.get("/listes").text + old.get("/listes?page=2").text
        assert sum(f'id="roster-{roster.id}"' in again for roster, _ in made) == 40
        assert old.get(f"/r/{made[0][0].id}").status_code == 200


def test_the_library_reads_stored_cards(
    browser: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """« Mes listes » never validates a list: each save stores its card (issue 13, item 4)."""
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    roster = stored(session, roster_id)
    assert roster is not None and roster.card is not None
    assert roster.card["budgets"][0]["id"] == "points"
    import app.roster_service as roster_service

    def no_check(*_args: Any) -> Any:
        raise AssertionError("a library view validated a list")

    monkeypatch.setattr(roster_service, "check", no_check)
    page = browser.get("/listes")
    assert page.status_code == 200 and f"roster-{roster_id}" in page.text


def test_a_card_from_before_is_computed_once_and_kept(
    browser: TestClient, session: Session
) -> None:
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    roster = stored(session, roster_id)
    assert roster is not None
    expected = roster.card
    roster.card = None
    session.add(roster)
    session.commit()
    version = roster.version
    assert f"roster-{roster_id}" in browser.get("/listes").text
    roster = stored(session, roster_id)
    assert roster is not None and roster.card == expected and roster.version == version


def test_empty_library(browser: TestClient) -> None:
    page = browser.get("/listes").text
    assert "Aucune liste dans ce navigateur" in page and 'href="/listes/nouvelle"' in page


# The new-list form: nothing is stored before « Créer la liste ».


def count_rosters(session: Session) -> int:
    from sqlmodel import func, select

    return int(session.exec(select(func.count()).select_from(Roster)).one())


def test_home_new_list_is_a_get_that_stores_nothing(browser: TestClient, session: Session) -> None:
    home = browser.get("/").text
    assert '<form method="get" action="/listes/nouvelle">' in home
    before = count_rosters(session)
    for _ in range(3):
        page = browser.get("/listes/nouvelle", params={"system": "dcsystem"})
        assert page.status_code == 200
    assert count_rosters(session) == before
    assert 'name="name"' in page.text and 'name="points_limit"' in page.text
    assert '<option value="goauld">Armée Goa&#39;uld</option>' in page.text


def test_new_list_form_creates_with_name_format_and_army(
    browser: TestClient, session: Session
) -> None:
    response = browser.post(
        "/listes/nouvelle",
        data={"system": "dcsystem", "name": "Chasse au Goa'uld", "points_limit": "200"},
    )
    assert response.status_code == 303
    roster = stored(session, response.headers["location"].removeprefix("/r/"))
    assert roster is not None and roster.name == "Chasse au Goa'uld"
    assert roster.document["points_limit"] == 200 and roster.document["entries"] == []
    # An army of the catalogue names an unnamed list (DCSystem lists keep no army field).
    named = browser.post("/listes/nouvelle", data={"system": "dcsystem", "army": "goauld"})
    roster = stored(session, named.headers["location"].removeprefix("/r/"))
    assert roster is not None and roster.name == "Armée Goa'uld"
    # No Limits keeps the army in its document.
    nolimits = browser.post(
        "/listes/nouvelle", data={"system": "nolimits", "army": "Orques", "points_limit": ""}
    )
    roster = stored(session, nolimits.headers["location"].removeprefix("/r/"))
    assert roster is not None and roster.document["extras"]["army"] == "Orques"
    assert roster.document["points_limit"] is None


def test_new_list_form_without_points_has_no_format(browser: TestClient) -> None:
    page = browser.get("/listes/nouvelle", params={"system": "bastos"}).text
    assert 'name="points_limit"' not in page and 'name="army"' not in page
    assert 'name="name"' in page


def test_new_list_form_says_what_is_wrong(browser: TestClient, session: Session) -> None:
    before = count_rosters(session)
    response = browser.post(
        "/listes/nouvelle", data={"system": "dcsystem", "name": "Test", "points_limit": "-5"}
    )
    assert response.status_code == 422
    assert 'aria-invalid="true"' in response.text and "Format (points)" in response.text
    assert 'value="Test"' in response.text  # what was typed is kept
    assert re.search(r'id="new-points"[^>]*aria-invalid="true" autofocus', response.text)
    assert not re.search(r'id="new-name"[^>]*autofocus', response.text)
    assert count_rosters(session) == before


def test_new_list_without_system_offers_the_systems(browser: TestClient) -> None:
    page = browser.get("/listes/nouvelle").text
    assert 'href="/listes/nouvelle?system=dcsystem"' in page
    assert browser.post("/listes/nouvelle", data={"system": "nope"}).status_code == 422


def test_post_listes_still_creates_as_before(browser: TestClient) -> None:
    response = browser.post("/listes", data={"system": "dcsystem"})
    assert response.status_code == 303 and response.headers["location"].startswith("/r/")


def test_library_forms_carry_the_csrf_token_for_browsers_that_send_no_origin(
    browser: TestClient, app: Any, session: Session
) -> None:
    """A browser that sends neither Sec-Fetch-Site nor Origin proves a write with the form's
    `csrf` field (app/security/csrf.py); every form of the library carries it."""
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    with TestClient(app, follow_redirects=False) as old:
        old.cookies.set(CARNET_COOKIE, browser.cookies[CARNET_COOKIE])
        page = old.get("/listes").text
        forms = re.findall(r'<form method="post".*?</form>', page, re.S)
        # Rename, duplicate, delete (the key change asks on a page of its own: a GET form).
        assert len(forms) == 3 and all('name="csrf"' in form for form in forms)
        rotation = old.get("/listes/carnet/cle").text
        assert 'name="csrf"' in re.findall(r'<form method="post".*?</form>', rotation, re.S)[0]
        token = re.search(r'name="csrf" value="([^"]+)"', page)
        assert token is not None
        refused = old.post(f"/listes/{roster_id}/renommer", data={"name": "Sans jeton"})
        assert refused.status_code == 403
        renamed = old.post(
            f"/listes/{roster_id}/renommer", data={"name": "Avec jeton", "csrf": token[1]}
        )
        assert renamed.status_code == 303
    roster = stored(session, roster_id)
    assert roster is not None and roster.name == "Avec jeton"
    new_form = browser.get("/listes/nouvelle", params={"system": "dcsystem"}).text
    assert 'name="csrf"' in new_form


def test_a_revoked_carnet_cookie_is_dropped_with_the_pages_kept(browser: TestClient) -> None:
    """Issue 25, item 4: on a cookie whose key was changed, `Clear-Site-Data` tells the
    browser and its service worker to forget the pages they kept."""
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    carnet_id = browser.cookies[CARNET_COOKIE].split(".")[0]
    for path in ("/listes", f"/r/{roster_id}", f"/r/{roster_id}/partie"):
        browser.cookies.set(CARNET_COOKIE, f"{carnet_id}.changed", domain="testserver.local")
        answer = browser.get(path)
        assert answer.headers.get("clear-site-data") == '"cache"', path
        # « Mes listes » says why and removes it (the next visit starts afresh).
        dropped = 'caserne_carnet=""' in str(answer.headers.get_list("set-cookie"))
        assert dropped is (path == "/listes"), path
    assert "clear-site-data" not in browser.get("/").headers


def test_forgetting_the_carnet_on_this_device(browser: TestClient) -> None:
    roster_id = create(browser, "dcsystem", "feuille_de_bataille_sg")
    link = carnet_link(browser.get("/listes").text)
    assert 'href="/listes/carnet/oublier"' in browser.get("/listes").text
    asked = browser.get("/listes/carnet/oublier")
    assert asked.status_code == 200 and asked.headers["cache-control"] == "private, no-store"
    assert f'value="{html.escape(link)}"' in asked.text
    assert browser.post("/listes/carnet/oublier").status_code == 200  # asks again
    assert f"roster-{roster_id}" in browser.get("/listes").text
    done = browser.post("/listes/carnet/oublier", data={"confirm": "oui"})
    assert done.status_code == 200 and "Carnet oublié sur cet appareil" in text(done.text)
    assert done.headers["clear-site-data"] == '"cache", "cookies", "storage"'
    assert CARNET_COOKIE not in browser.cookies
    assert "Aucune liste dans ce navigateur" in browser.get("/listes").text


def test_the_service_worker_never_keeps_a_secret_url_or_a_private_page() -> None:
    from pathlib import Path

    from app.security.tokens import SECRET_PARAMETERS

    worker = (Path(__file__).parents[2] / "static" / "sw.js").read_text()
    listed = re.search(r"const SECRETS = \[([^\]]*)\]", worker)
    assert listed is not None
    names = set(re.findall(r'"([^"]+)"', listed.group(1)))
    assert SECRET_PARAMETERS | {"code"} <= names
    assert 'control.includes("no-store")' in worker
