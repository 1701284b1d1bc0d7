"""Necromunda–Warzone pages through TestClient: catalogue, creator, add to a list, the
shooting helper, the editor's XP and light wounds, and no points anywhere.

Lnn = line of shared/rules/necromunda-warzone.fr.txt."""

import re

from fastapi.testclient import TestClient

from tests.web.conftest import field

CODES = ("M", "CC", "CT", "F", "E", "PV", "I", "A", "Cd")
HTMX = {"HX-Request": "true"}


def profile_form(*values: int) -> dict[str, str]:
    return {f"p-{code}": str(value) for code, value in zip(CODES, values, strict=True)}


# A chef with 150 XP (L10: 3, 4 for a chef), CT 5 (L39: 2), a heavy weapon (L70).
CHEF = {
    "name": "Vorn",
    "leader": "1",
    "xp": "150",
    "light_wounds": "0",
    **profile_form(4, 4, 5, 3, 3, 2, 4, 2, 9),
    "w0-name": "Lance-flammes",
    "w0-heavy": "1",
    "w0-mod": "0",
    "w1-name": "Épée",
    "w1-mod": "1",
    "weapon_rows": "3",
}


def numbers(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-(actions|to-hit|encumbered|command-radius)="([^"]*)"', page))


def test_catalogue_tables_and_sample_figures(browser: TestClient) -> None:
    page = browser.get("/necrowarzone/catalogue").text
    # L9-11 and L38-39.
    assert re.findall(
        r'<tr data-band="[^"]+"><td>([^<]+)</td><td>(\d)</td><td>(\d)</td>', page
    ) == [
        ("0-100 XP", "2", "3"),
        ("101-400 XP", "3", "4"),
        ("401+ XP", "4", "5"),
    ]
    assert '<tr data-ct="4"><td>4</td><td>3</td><td>3+</td><td>67\u00a0%</td></tr>' in page
    assert '<tr data-ct="10"><td>10</td><td>-3</td><td>2+</td><td>83\u00a0%</td></tr>' in page
    # L42 « Cible à couvert -2 (-3 si … Se mettre à couvert) ».
    assert re.search(r'data-modifier="cible_a_couvert">.*?<td>-2 \(-3\)</td>', page, re.S)
    chef = page[page.index('id="figure-chef_de_gang"') :]
    chef = chef[: chef.index("</article>")]
    assert re.findall(r"<td>(\d+)</td>", chef) == ["4", "4", "4", "3", "3", "1", "4", "1", "8"]
    assert numbers(chef) == {
        "actions": "3",
        "to-hit": "3",
        "encumbered": "non",
        "command-radius": "8",
    }
    assert "Décisions de Caserne" in page and 'id="note-un_seul_chef"' in page
    # The shooting helper opens on CT 3 and nothing else: L39 gives 4.
    assert "<strong data-roll>4+</strong>" in page
    main = page.split("<main", 1)[1].split("</main>", 1)[0]
    assert not re.search(r"\bpts\b|\d points", main)


def test_creator_opens_on_a_ganger(browser: TestClient) -> None:
    page = browser.get("/necrowarzone/createur").text
    assert [field(page, f"p-{code}") for code in CODES] == [
        "4",
        "3",
        "3",
        "3",
        "3",
        "1",
        "3",
        "1",
        "7",
    ]
    assert field(page, "w0-name") == "Fusil laser" and field(page, "xp") == "23"
    # The live figures come before the controls.
    assert page.index('id="result"') < page.index('id="profile"')
    assert numbers(page) == {"actions": "2", "to-hit": "4", "encumbered": "non"}


def test_creator_preview(browser: TestClient) -> None:
    response = browser.post("/necrowarzone/createur", data=CHEF, headers=HTMX)
    assert response.status_code == 200
    fragment = response.text
    assert fragment.lstrip().startswith('<div id="creator-body">')
    assert numbers(fragment) == {
        "actions": "4",  # L10 « 101-400 … 3 (4 pour un chef de gang) »
        "to-hit": "2",  # L38-39 CT 5 → 2
        "encumbered": "oui",  # L70
        "command-radius": "9",  # L31 Cd 9
    }
    assert "touche sur <strong>2+</strong>" in fragment and "9 pas" in fragment
    wounded = browser.post(
        "/necrowarzone/createur", data={**CHEF, "light_wounds": "2"}, headers=HTMX
    ).text
    # L78: -1 CT and -1 action per light wound: CT 3 → 4+, 4 - 2 = 2 actions.
    assert numbers(wounded)["actions"] == "2" and numbers(wounded)["to-hit"] == "4"
    assert "CC 2, CT 3 (L78)" in wounded


def test_creator_reports_what_the_text_rules_out(browser: TestClient) -> None:
    off = browser.post(
        "/necrowarzone/createur", data={**CHEF, "p-CT": "11", "xp": "-4"}, headers=HTMX
    ).text
    assert 'data-code="ct_off_table"' in off and 'data-code="invalid_xp"' in off
    bad = browser.post("/necrowarzone/createur", data={**CHEF, "p-CC": "vingt"})
    assert bad.status_code == 422
    assert "nombre entier attendu" in bad.text and 'name="p-CC"' in bad.text


def test_creator_more_weapon_rows(browser: TestClient) -> None:
    page = browser.post("/necrowarzone/createur", data={**CHEF, "action": "more_weapons"}).text
    assert field(page, "weapon_rows") == "4" and 'id="w3"' in page
    assert field(page, "w0-name") == "Lance-flammes"


def test_add_to_a_list_then_edit_xp_and_share(browser: TestClient) -> None:
    added = browser.post(
        "/necrowarzone/createur/ajouter", data={**CHEF, "roster": "", "count": "1"}
    )
    assert added.status_code == 303
    location = added.headers["location"]
    editor = browser.get(location).text
    assert "Vorn" in editor and "Lance-flammes (lourde), Épée (+1)" in editor
    assert "<strong>4</strong> actions par tour" in editor
    assert "pts" not in editor and "Format (points)" not in editor
    # Add a sample ganger, then give it 120 XP: it becomes the player's own figure.
    with_ganger = browser.post(
        location,
        data={
            "version": field(editor, "version"),
            "name": "Bande à Vorn",
            "entry-0-ref": field(editor, "entry-0-ref"),
            "entry-0-count": "1",
            "entry-0-xp": "150",
            "entry-0-light_wounds": "0",
            "action": "add",
            "add-unit": "ganger",
            "add-count": "3",
        },
        headers=HTMX,
    ).text
    assert "<strong>10</strong> actions par tour" in with_ganger  # 4 + 3 × 2 (L9-10)
    saved = browser.post(
        location,
        data={
            "version": field(with_ganger, "version"),
            "name": "Bande à Vorn",
            "entry-0-ref": field(with_ganger, "entry-0-ref"),
            "entry-0-count": "1",
            "entry-0-xp": "150",
            "entry-0-light_wounds": "0",
            "entry-1-ref": field(with_ganger, "entry-1-ref"),
            "entry-1-count": "3",
            "entry-1-xp": "120",
            "entry-1-light_wounds": "0",
            "action": "share",
        },
        headers=HTMX,
    )
    assert saved.status_code == 204
    share = saved.headers["hx-redirect"]
    bbcode = browser.get(f"{share}.bbcode").text
    assert "[b]Total : figurines : 4, actions par tour : 13, XP au total : 510," in bbcode
    assert (
        "[b]3 × Ganger[/b]\nM4 CC3 CT3 F3 E3 PV1 I3 A1 Cd7 — Fusil laser, Couteau — 120 XP"
        in bbcode
    )
    assert "pts" not in bbcode and "points" not in bbcode


def test_shooting_helper(browser: TestClient) -> None:
    form = {
        "ct": "3",
        "cover": "cible_partiellement_a_couvert",
        "target_took_cover": "1",
        "conditions": ["cible_rapide", "grande_cible"],
        "aim_actions": "1",
        "weapon_modifier": "-1",
    }
    response = browser.post("/necrowarzone/tir", data=form, headers=HTMX)
    assert response.status_code == 200
    fragment = response.text
    assert fragment.lstrip().startswith('<div id="shot-result"')
    # L39 CT 3 → 4; L41 partial cover after taking cover -2; L44 -1; L47 +1; L48 +1; L49 -1.
    assert '<th class="num" data-needed>6</th>' in fragment
    assert "<strong data-roll>6+</strong>" in fragment and "1/6" in fragment
    # Without JavaScript the whole catalogue comes back, the form keeping its values.
    page = browser.post("/necrowarzone/tir", data=form).text
    assert "<h1>Nécromunda–Warzone</h1>" in page and "data-roll>6+<" in page
    assert 'value="cible_partiellement_a_couvert" checked' in page


def test_shooting_helper_issues_and_errors(browser: TestClient) -> None:
    both = browser.post(
        "/necrowarzone/tir",
        data={"ct": "4", "conditions": ["petite_cible", "grande_cible"]},
        headers=HTMX,
    ).text
    assert 'data-code="small_and_large_target"' in both
    bad = browser.post("/necrowarzone/tir", data={"ct": "12"}, headers=HTMX)
    assert bad.status_code == 422
    assert 'role="alert"' in bad.text


def test_home_lists_the_system_without_points(browser: TestClient) -> None:
    home = browser.get("/").text
    card = home[home.index('id="system-necrowarzone"') :]
    card = card[: card.index("</article>")]
    assert "/necrowarzone/createur" in card and "/necrowarzone/catalogue" in card
    assert "Les Rats de la Ruche (exemple Caserne)" in card and "points" not in card
