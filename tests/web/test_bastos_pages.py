"""Pour quelques bastos de plus pages through TestClient: catalogue, creator sheet, add to a
band, the editor's extras, the odds panel, the share page without points.

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt."""

import re

from fastapi.testclient import TestClient

from tests.web.conftest import field

HTMX = {"HX-Request": "true"}


def main_of(page: str) -> str:
    return page.split("<main", 1)[1].split("</main>", 1)[0]


def total(page: str, label: str, value: int) -> bool:
    """A band total on the page, however the shared macro orders label and value."""
    shown = re.findall(r'<span class="figure-total">(.*?)</span>', page)
    return any(
        re.sub(r"</?strong>|\s*:\s*", " ", item).split()
        in ([str(value), *label.split()], [*label.split(), str(value)])
        for item in shown
    )


def no_points(page: str) -> None:
    text = main_of(page)
    assert not re.search(r"\bpts\b|\bpoints\b(?! dans ce jeu)", text.replace("points_limit", ""))


def test_catalogue_prints_the_weapon_table(browser: TestClient) -> None:
    page = browser.get("/bastos/catalogue").text
    rows = re.findall(r'<tr id="weapon-(\w+)"[^>]*>(.*?)</tr>', page)
    cells = {wid: re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for wid, row in rows}
    # L13-71, as printed: Portée, Taux (écart), Impact, Classe; « - » where empty.
    assert cells == {
        "revolver": ["Revolver", "30cm", "1", "2", "1"],
        "pistolet_45": ["Pistolet automatique calibre .45", "30cm", "2 (5cm)", "2", "2"],
        "fusil_a_pompe": ["Fusil à pompe", "30cm", "3 (7,5cm)", "2", "3"],
        "mitraillette": ["Mitraillette", "60cm", "3 (7,5cm)", "3", "4"],
        "corps_a_corps": ["Arme de corps à corps", "-", "-", "2", "-"],
    }
    assert "Rep 4 — Fiable" in page  # L11
    assert 'id="figure-sergent_rooko"' in page and 'id="example-section"' in page
    assert 'id="note-de_de_leader"' in page and "Décisions de Caserne" in page
    # The odds panel opens on the first figure's Rep test: Rooko, leader Rep 4, 20/27.
    panel = page[page.index('id="odds-panel"') :]
    assert re.search(r'data-outcome="2">.*?<span class="frac">20/27</span>', panel)
    no_points(page)


def test_creator_shows_the_sheet_live(browser: TestClient) -> None:
    page = browser.get("/bastos/createur").text
    # The sheet comes before the controls.
    assert page.index('id="result"') < page.index('id="figure"')
    form = {"name": "Baby Face", "rep": "4", "weapon": "mitraillette"}
    sheet = browser.post("/bastos/createur", data=form, headers=HTMX).text
    assert sheet.lstrip().startswith('<section id="result"')
    # L80 Rep 4 on two dice: 4/9, 4/9, 1/9; L73 activation 4/6.
    rep_test = sheet[sheet.index('id="sheet-rep-test"') : sheet.index('id="sheet-activation"')]
    assert re.findall(
        r'<span class="frac">([^<]+)</span> <span class="pct">([^<]+)</span>', rep_test
    )[:3] == [
        ("4/9", "44 %"),
        ("4/9", "44 %"),
        ("1/9", "11 %"),
    ]
    assert '<strong><span class="odds"><span class="frac">2/3</span>' in sheet
    # L115-129 Rep 4 in the open: 10+ or 9 or 8 hit, 1/2; L152 jam at 3 dice 2/27.
    assert re.search(
        r'data-case="open"><th scope="row">À découvert</th><td class="num">'
        r'<span class="odds"><span class="frac">1/2</span>',
        sheet,
    )
    assert "2/27" in sheet
    # L173-183 stunned recovery 52/81; L209-218 melee against Rep 4: tie 11/27.
    assert "52/81" in sheet and "11/27" in sheet
    leader = browser.post("/bastos/createur", data={**form, "leader": "1"}, headers=HTMX).text
    assert "Dé de leader (3 dés)" in leader and "20/27" in leader  # L80


def test_creator_flags_a_bad_rep(browser: TestClient) -> None:
    bad = browser.post("/bastos/createur", data={"rep": "9", "weapon": "revolver"}, headers=HTMX)
    assert bad.status_code == 200
    assert 'data-code="invalid_rep"' in bad.text
    unusual = browser.post("/bastos/createur", data={"rep": "6", "weapon": ""}, headers=HTMX)
    assert 'data-code="unusual_rep"' in unusual.text and "Désarmée" in unusual.text
    nonsense = browser.post("/bastos/createur", data={"rep": "x", "weapon": "revolver"})
    assert nonsense.status_code == 422 and "field-error" in nonsense.text


def test_add_to_a_band_then_share_without_points(browser: TestClient) -> None:
    form = {"name": "Baby Face", "rep": "5", "leader": "1", "weapon": "mitraillette"}
    added = browser.post("/bastos/createur/ajouter", data={**form, "roster": "", "count": "1"})
    assert added.status_code == 303
    location = added.headers["location"]
    editor = browser.get(location).text
    assert "Baby Face" in editor and 'data-code="no_leader"' not in editor
    assert 'name="points_limit"' not in editor
    assert total(editor, "Figurine", 1) and total(editor, "Rep totale", 5)
    no_points(editor)
    # The editor adds a figure of the text and the band's objective.
    more = browser.post(
        location,
        data={
            "version": field(editor, "version"),
            "name": "Les Durs",
            "entry-0-ref": field(editor, "entry-0-ref"),
            "entry-0-count": "1",
            "entry-0-name": "Baby Face",
            "objective": "Tenir le pont",
            "optional_rules": "porter_les_blesses",
            "action": "add",
            "add-unit": "bleu",
            "add-count": "2",
        },
        headers=HTMX,
    ).text
    assert total(more, "Figurines", 3) and total(more, "Rep totale", 11)
    # The Rep distribution: 2 Bleus of Rep 3 (L282), Baby Face at Rep 5.
    assert total(more, "Figurines de Rep 3", 2) and total(more, "Figurine de Rep 5", 1)
    assert 'value="Tenir le pont"' in more
    # The odds panel lists the band's figures.
    assert re.search(r'<option value="5\|1\|0\|mitraillette"[^>]*>Baby Face \(Rep 5\)', more)
    assert re.search(r'<option value="3\|0\|0\|fusil_a_pompe"[^>]*>Bleu \(Rep 3\)', more)
    shared = browser.post(
        location,
        data={
            "version": field(more, "version"),
            "name": "Les Durs",
            "entry-0-ref": field(more, "entry-0-ref"),
            "entry-0-count": "1",
            "entry-0-name": "Baby Face",
            "entry-1-ref": field(more, "entry-1-ref"),
            "entry-1-count": "2",
            "objective": "Tenir le pont",
            "action": "share",
        },
        headers=HTMX,
    )
    assert shared.status_code == 204
    page = browser.get(shared.headers["hx-redirect"]).text
    assert "Les Durs" in page and "Chef" in page
    og = re.search(r'<meta property="og:title" content="([^"]*)"', page)
    assert og and og.group(1) == "Les Durs"
    no_points(page)


def test_odds_panel(browser: TestClient) -> None:
    ask = {"odds-figure": "4|0|0|mitraillette", "odds-test": "melee", "odds-opponent": "4"}
    answer = browser.post("/bastos/chances", data=ask, headers=HTMX).text
    assert answer.lstrip().startswith('<div id="odds-answer"')
    assert 'id="odds-opponent"' in answer  # the situation's own fields
    # L209-222: Rep 4 against Rep 4 with Impact 3, each side's chance is the same margin.
    assert 'data-outcome="no_result"' in answer and "11/27" in answer
    shooting = browser.post(
        "/bastos/chances",
        data={**ask, "odds-test": "shooting", "odds-target": "cover"},
        headers=HTMX,
    ).text
    # L123-125 + L138 at Rep 4 in cover: 10+ (5, 6) hits, 1/3 · ... and a 6 never misses.
    assert 'data-answer="shooting"' in shooting
    unarmed = browser.post(
        "/bastos/chances", data={**ask, "odds-figure": "4|0|0|", "odds-test": "shooting"}
    )
    assert unarmed.status_code == 200
    assert "elle ne tire pas" in unarmed.text and "<html" in unarmed.text  # a whole page
    # Without JavaScript the editor's "Calculer" posts the whole form here: the band's
    # figures come back with it.
    page = browser.post(
        "/bastos/chances",
        data={**ask, "odds-choices": "4|0|0|mitraillette=Vétéran (Rep 4)\n3|0|0|=Bleu (Rep 3)"},
    ).text
    assert '<option value="3|0|0|">Bleu (Rep 3)</option>' in page
    assert re.search(r'<option value="4\|0\|0\|mitraillette" selected>Vétéran', page)


def test_own_stylesheet_and_script(browser: TestClient) -> None:
    # The CSP allows no inline <style> or script: the pages link their own, by content hash.
    page = browser.get("/bastos/createur").text
    css = re.search(r'<link rel="stylesheet" href="(/bastos/static/bastos\.css\?v=\w+)">', page)
    assert css and "<style" not in main_of(page) and "hx-on" not in page
    answer = browser.get(css.group(1))
    assert answer.headers["content-type"].startswith("text/css")
    assert "immutable" in answer.headers["cache-control"]
    script = browser.get("/bastos/static/bastos.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert browser.get("/bastos/static/secret.py").status_code == 404
