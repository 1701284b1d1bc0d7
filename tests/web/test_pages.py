"""The HTML pages through TestClient: what a player sees, the HTMX fragments, bad input."""

import logging

from fastapi.testclient import TestClient

from app.middleware import RedactTokens
from tests.web.conftest import field


def new_roster(browser: TestClient, **form: str) -> str:
    response = browser.post("/listes", data={"system": "dcsystem", **form})
    assert response.status_code == 303
    location: str = response.headers["location"]
    assert location.startswith("/r/")
    return location


def test_home_lists_the_systems_and_battle_sheets(browser: TestClient) -> None:
    page = browser.get("/").text
    assert "Dices &amp; Colors System — Stargate&#39;s War" in page
    assert 'href="/dcsystem/catalogue"' in page and 'href="/dcsystem/createur"' in page
    assert "Feuille de bataille Réplicateurs" in page and "(199 points)" in page


def test_catalogue_shows_printed_computed_dice_and_discrepancies(browser: TestClient) -> None:
    page = browser.get("/dcsystem/catalogue").text
    jaffa = page[page.index('id="unit-jaffa"') :]
    jaffa = jaffa[: jaffa.index("</article>")]
    assert '<span class="printed" title="Coût imprimé">30 pts</span>' in jaffa
    assert "création : 28 pts" in jaffa
    assert jaffa.count('class="die die-red"') == 3 and jaffa.count('class="die die-white"') == 3
    assert "Donne trois dés blancs à utiliser durant les actions de tir." in jaffa
    assert "les règles de création donnent 28 points (15 + 10 + 3)." in jaffa
    membre = page[page.index('id="unit-membre_groupe_sg"') :]
    membre = membre[: membre.index("</article>")]
    assert "création : 30 pts ✓" in membre and "discrepancies" not in membre
    for army in ("tori", "goauld", "replicateurs", "unas", "orii", "wraith", "autres"):
        assert f'<section class="army" id="{army}" data-filter-section>' in page


def test_creator_fragment_and_full_page(browser: TestClient) -> None:
    form = {
        "name": "",
        "level": "2",
        "items": ["arme_tir_2", "gilet_de_protection", "elite", "soin"],
    }
    fragment = browser.post("/dcsystem/createur", data=form, headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    # Gzip (issue 18) adds Accept-Encoding to it.
    assert "HX-Request" in [v.strip() for v in fragment.headers["vary"].split(",")]
    assert fragment.text.lstrip().startswith('<div class="creator" id="creator-body">')
    assert "<span data-points>48</span>" in fragment.text
    assert "3/3 capacités ou équipements, 0/1 handicap" in fragment.text
    full = browser.post("/dcsystem/createur", data=form)
    assert full.text.startswith("<!doctype html>") and "<span data-points>48</span>" in full.text


def test_creator_shows_the_limit_issue(browser: TestClient) -> None:
    form = {"level": "1", "items": ["arme_tir_1", "rapide"]}
    page = browser.post("/dcsystem/createur", data=form, headers={"HX-Request": "true"}).text
    assert "2/1 capacités ou équipements, 0/1 handicap" in page
    assert "Niveau 1 : 2 capacités ou équipements pour 1 autorisé(s), 1 de trop." in page


def test_creator_bad_level_is_a_message_next_to_the_control(browser: TestClient) -> None:
    page = browser.post(
        "/dcsystem/createur", data={"name": "Bob", "level": "4", "items": ["elite"]}
    )
    assert page.status_code == 422
    assert '<p class="field-error" role="alert">Niveau : valeur inconnue</p>' in page.text
    assert 'value="Bob"' in page.text and 'value="elite" checked' in page.text


def test_add_a_created_fighter_to_a_new_list(browser: TestClient) -> None:
    response = browser.post(
        "/dcsystem/createur/ajouter",
        data={
            "name": "Marine",
            "level": "2",
            "items": ["arme_tir_2", "gilet_de_protection"],
            "roster": "",
            "count": "3",
        },
    )
    assert response.status_code == 303
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    editor = browser.get(response.headers["location"]).text
    assert field(editor, "entry-0-name") == "Marine"
    assert field(editor, "entry-0-count") == "3"
    assert "<span data-total>90</span>" in editor


def test_roster_editor_needs_the_edit_cookie(browser: TestClient) -> None:
    location = new_roster(browser)
    browser.cookies.clear()
    page = browser.get(location)
    assert page.status_code == 403
    assert "Cette liste est privée" in page.text


def test_editor_saves_adds_and_removes(browser: TestClient) -> None:
    location = new_roster(browser)
    page = browser.get(location).text
    saved = browser.post(
        location,
        data={
            "version": field(page, "version"),
            "name": "Ma liste",
            "points_limit": "200",
            "action": "add",
            "add-unit": "jaffa",
            "add-count": "6",
            "hidden_moves": "traitre",
        },
        headers={"HX-Request": "true"},
    )
    assert saved.status_code == 200
    assert "<span data-total>200</span> / 200" in saved.text
    assert field(saved.text, "version") == "2"
    removed = browser.post(
        location,
        data={
            "version": "2",
            "name": "Ma liste",
            "points_limit": "200",
            "entry-0-ref": field(saved.text, "entry-0-ref"),
            "entry-0-count": "6",
            "action": "remove:0",
        },
        headers={"HX-Request": "true"},
    )
    assert "<span data-total>0</span> / 200" in removed.text


def test_bad_input_keeps_what_was_typed(browser: TestClient) -> None:
    location = new_roster(browser)
    version = field(browser.get(location).text, "version")
    page = browser.post(
        location, data={"version": version, "name": "Garde <d'honneur>", "points_limit": "-5"}
    )
    assert page.status_code == 422
    assert "Modification non enregistrée" in page.text
    assert (
        '<p class="field-error" role="alert" id="points-limit-error">'
        "Format (points) : nombre entier entre 1 et 100000</p>"
    ) in page.text
    assert 'value="Garde &lt;d&#39;honneur&gt;"' in page.text
    assert field(browser.get(location).text, "version") == version  # nothing stored


def test_stale_version_is_a_conflict_that_keeps_the_values(browser: TestClient) -> None:
    location = new_roster(browser)
    browser.post(location, data={"version": "1", "name": "Onglet A"})
    page = browser.post(location, data={"version": "1", "name": "Onglet B"})
    assert page.status_code == 409
    assert "Cette liste a été modifiée ailleurs" in page.text
    assert 'value="Onglet B"' in page.text
    # Issue 14, finding 11: the page stays based on version 1 (a next change conflicts
    # again instead of overwriting the other tab's), says what differs, and offers both ways.
    assert field(page.text, "version") == "1"
    assert "<li>Nom : « Onglet A » là-bas, « Onglet B » ici</li>" in page.text
    assert f'href="{location}" class="button" id="conflict-reload"' in page.text
    assert field(page.text, "overwrite-version") == "2"
    again = browser.post(location, data={"version": "1", "name": "Onglet B, encore"})
    assert again.status_code == 409
    assert browser.get(f"/api/v1/rosters/{location.rsplit('/', 1)[1]}").status_code == 401
    kept = browser.post(
        location,
        data={"version": "1", "overwrite-version": "2", "action": "overwrite", "name": "Onglet B"},
    )
    assert kept.status_code == 200
    assert field(kept.text, "version") == "3" and 'value="Onglet B"' in kept.text


def test_share_page_owner_view_then_the_public_page(browser: TestClient) -> None:
    location = new_roster(browser, example="feuille_de_bataille_jaffa")
    page = browser.get(location).text
    form = {
        "version": field(page, "version"),
        "name": "Jaffa <b>forts</b>",
        "points_limit": "200",
        "entry-0-ref": field(page, "entry-0-ref"),
        "entry-0-count": "6",
        "hidden_moves": "traitre",
        "action": "share",
    }
    shared = browser.post(location, data=form, headers={"HX-Request": "true"})
    assert shared.status_code == 204
    share_url = shared.headers["hx-redirect"]
    first = browser.get(share_url)
    assert first.headers["cache-control"] == "private, no-store"
    assert f'<a href="{location}" id="edit-roster">Modifier</a>' in first.text
    assert "modifier?t=" not in first.text  # no secret on the share page
    browser.cookies.clear()  # a reader: the public, cacheable page
    second = browser.get(share_url)
    assert 'id="edit-roster"' not in second.text
    assert second.headers["cache-control"] == "public, max-age=86400, immutable"
    assert (
        browser.get(share_url, headers={"If-None-Match": second.headers["etag"]}).status_code == 304
    )
    # User text is escaped in the page and kept verbatim (not as a tag) in the BBCode box.
    assert "<b>forts</b>" not in second.text
    assert "Jaffa &lt;b&gt;forts&lt;/b&gt;" in second.text
    assert (
        '<meta property="og:title" content="Jaffa &lt;b&gt;forts&lt;/b&gt; — 200/200 points">'
        in second.text
    )
    assert f'<meta property="og:url" content="http://testserver{share_url}">' in second.text


def test_edit_link_opens_the_roster_on_another_device(browser: TestClient) -> None:
    created = browser.post("/api/v1/rosters", json={"system": "dcsystem", "name": "API"}).json()
    browser.cookies.clear()
    claimed = browser.get(f"/r/{created['id']}/modifier", params={"t": created["edit_token"]})
    assert claimed.status_code == 303 and claimed.headers["location"] == f"/r/{created['id']}"
    assert browser.get(claimed.headers["location"]).status_code == 200
    browser.cookies.clear()
    assert browser.get(f"/r/{created['id']}/modifier", params={"t": "forged"}).status_code == 403


def test_exports_and_duplicate(browser: TestClient) -> None:
    created = browser.post(
        "/api/v1/rosters",
        json={
            "system": "dcsystem",
            "name": "Réplicateurs",
            "entries": [{"unit": "replicateur", "count": 2}],
        },
    ).json()
    code = browser.post(
        f"/api/v1/rosters/{created['id']}/shares",
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    ).json()["code"]
    types = {
        "bbcode": "text/plain",
        "md": "text/markdown",
        "txt": "text/plain",
        "json": "application/json",
    }
    for ext, media_type in types.items():
        response = browser.get(f"/s/{code}.{ext}")
        assert response.status_code == 200 and response.headers["content-type"].startswith(
            media_type
        )
    assert browser.get(f"/s/{code}.pdf").status_code == 404
    duplicated = browser.post(f"/s/{code}/dupliquer")
    assert duplicated.status_code == 303
    page = browser.get(duplicated.headers["location"]).text
    assert field(page, "name") == "Réplicateurs (copie)" and "<span data-total>36</span>" in page


def test_score_helper(browser: TestClient) -> None:
    form = {
        "format": "200",
        "main_mission": "1",
        "secondary_mission": "1",
        "kills_3": "1",
        "kills_2": "0",
        "kills_1": "4",
    }
    fragment = browser.post("/dcsystem/score", data=form, headers={"HX-Request": "true"})
    assert "<strong data-score>37</strong>" in fragment.text
    bad = browser.post(
        "/dcsystem/score", data={**form, "kills_1": "-1"}, headers={"HX-Request": "true"}
    )
    assert bad.status_code == 422 and "field-error" in bad.text


def test_unknown_share_page(browser: TestClient) -> None:
    response = browser.get("/s/nothing", headers={"Accept": "text/html"})
    assert response.status_code == 404 and "Ce lien de partage n&#39;existe pas." in response.text


def test_access_log_never_shows_an_edit_token() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1", "GET", "/r/abc/modifier?t=SECRET-TOKEN&x=1", "1.1", 303),
        None,
    )
    RedactTokens().filter(record)
    assert "SECRET-TOKEN" not in record.getMessage()
    assert "/r/abc/modifier?t=[masqué]&x=1" in record.getMessage()


def test_share_page_cache_keeps_each_host_its_own_links(browser: TestClient) -> None:
    created = browser.post("/api/v1/rosters", json={"system": "dcsystem", "name": "Hôtes"}).json()
    code = browser.post(
        f"/api/v1/rosters/{created['id']}/shares",
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    ).json()["code"]
    first = browser.get(f"/s/{code}")
    cached = browser.get(f"/s/{code}")
    assert cached.text == first.text and cached.headers["etag"] == first.headers["etag"]
    # Another allowed host (ALLOWED_HOSTS; any other Host is refused with 400).
    other = browser.get(f"/s/{code}", headers={"Host": "localhost"})
    assert f'content="http://localhost/s/{code}"' in other.text
    assert f'content="http://testserver/s/{code}"' in cached.text
    conditional = browser.get(f"/s/{code}", headers={"If-None-Match": first.headers["etag"]})
    assert conditional.status_code == 304
    assert conditional.headers["cache-control"] == "public, max-age=86400, immutable"


def test_the_creators_counter_is_for_capacites_and_equipements_together(
    browser: TestClient,
) -> None:
    """ "Combattant de niveau 2 (2 capacités ou équipements et 1 handicape maximum)" (L318):
    a gun and a vest are two of them; Élite adds one "de plus que ce que devrait lui
    permettre son niveau" and "n'est pas pris en compte dans le nombre de capacités" (L260)."""
    form = {"name": "", "level": "2", "items": ["arme_tir_2", "gilet_de_protection"]}
    page = browser.post("/dcsystem/createur", data=form).text
    assert "2/2 capacités ou équipements, 0/1 handicap" in page
    assert "2/2 capacités ou équip." in page  # the phones' cost bar
    form["items"] = [*form["items"], "elite"]
    page = browser.post("/dcsystem/createur", data=form).text
    assert "2/3 capacités ou équipements, 0/1 handicap" in page
    assert "(2 capacités ou équipements, " in page  # the level's radio button


def test_dice_pools_read_as_words(browser: TestClient) -> None:
    # Issue 14, finding 12: « 4 4 2 » to screen readers, from an aria-label a span may not
    # carry; the pool is one image named in words.
    page = browser.get("/dcsystem/catalogue").text
    jaffa = page[page.index('id="unit-jaffa"') :]
    assert (
        '<span class="dice" role="img" aria-label="3 dés rouges, 1 dé bleu, 3 dés blancs">' in jaffa
    )
