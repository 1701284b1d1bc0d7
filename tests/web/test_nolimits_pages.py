"""No Limits pages through TestClient: catalogue, creator tables, roster editor, share.

Lnnn = line of shared/rules/no-limits.fr.txt."""

import re

from fastapi.testclient import TestClient

from tests.web.conftest import field

CODES = ("AC", "CT", "CC", "FO", "EN", "PV", "CO", "SV")


def profile_form(*values: int) -> dict[str, str]:
    return {f"p-{code}": str(value) for code, value in zip(CODES, values, strict=True)}


# The text's Titan Destroyer (L223-238) with its two Turbo Lasers (L243-246).
TITAN = {
    "name": "Titan",
    **profile_form(9, 7, 6, 8, 8, 15, 8, 7),
    "size": "tres_grande",
    "cw-turbo_laser": "2",
    "vehicle": "1",
    "vehicle-type": "marcheur",
    "vehicle-crew": "2",
    "weapon_rows": "3",
}


def test_catalogue_prints_the_book_profiles_with_prices(browser: TestClient) -> None:
    page = browser.get("/nolimits/catalogue").text
    fantassin = page[page.index('id="profile-fantassin"') :]
    fantassin = fantassin[: fantassin.index("</article>")]
    # L118-119: "AC CT CC FO EN PV CO SV / 9 5 5 4 5 1 5 2"
    assert re.findall(r"<td>(\d+)</td>", fantassin)[:8] == ["9", "5", "5", "4", "5", "1", "5", "2"]
    assert '<span class="printed">28 pts</span>' in fantassin
    titan = page[page.index('id="profile-titan_destroyer"') :]
    titan = titan[: titan.index("</article>")]
    assert '<span class="printed">350 pts</span>' in titan
    # L236-238, the damage indicator as printed.
    assert re.findall(r'<td class="box[^"]*">([^<]+)</td>', titan) == [
        "1",
        "2",
        "3",
        "Mv",
        "Ar",
        "6",
        "7",
        "Mv",
        "9",
        "Ar",
        "11",
        "Mv",
        "13",
        "14",
    ]
    assert "Décisions de Caserne" in page and "Système de points de Caserne" in page


def test_creator_costs_the_titan_live(browser: TestClient) -> None:
    response = browser.post("/nolimits/createur", data=TITAN, headers={"HX-Request": "true"})
    assert response.status_code == 200
    fragment = response.text
    # The form's body (controls and result), morphed in place by the page.
    assert fragment.lstrip().startswith('<div class="creator" id="creator-body">')
    assert "<span data-points>350</span>" in fragment
    # Turbo Laser FO 8 -> MA -4 (L175 "8 -4"), no CU on a vehicle (L241).
    assert re.findall(r"<td data-ma>(-?\d+)</td>", fragment) == ["-4", "-4"]
    assert fragment.count('class="box') == 14


def test_creator_inline_melee_weapon_gets_its_derived_use_cost(browser: TestClient) -> None:
    form = {
        "name": "Duelliste",
        **profile_form(9, 5, 5, 4, 5, 1, 5, 2),
        "w0-name": "Lame",
        "w0-melee": "1",
        "w0-CdA": "1",
        "w0-FO": "1",
        "w0-DG": "1",
        "weapon_rows": "3",
    }
    fragment = browser.post("/nolimits/createur", data=form, headers={"HX-Request": "true"}).text
    # The origin's sword: CdA 1, FO +1, DG 1 costs 3; its CU is 3 + 1 = 4 (L124, L171).
    row = fragment[fragment.index('data-weapon="Lame"') :]
    row = row[: row.index("</tr>")]
    assert re.findall(r"<td[^>]*>([^<]*)</td>", row)[:3] == ["Lame", "4", "Corps à corps"]
    assert row.rstrip().endswith('<td class="num">3</td>')


def test_creator_bad_profile_value_is_shown_next_to_the_table(browser: TestClient) -> None:
    form = {**TITAN, "p-AC": "abc"}
    page = browser.post("/nolimits/createur", data=form)
    assert page.status_code == 422
    assert "<li>AC : nombre entier attendu</li>" in page.text
    assert 'value="abc" aria-invalid="true" aria-describedby="profile-error"' in page.text
    assert 'value="abc"' in page.text  # what was typed stays


def test_creator_marks_each_invalid_field_and_the_weapon_that_lacks_a_range(
    browser: TestClient,
) -> None:
    """Issue 7, Major 5: an invalid value marks its own field, not only the cost card."""
    bad = {**TITAN, "p-AC": "99", "p-PV": "0"}
    page = browser.post("/nolimits/createur", data=bad, headers={"HX-Request": "true"}).text
    assert 'name="p-AC" min="0" max="20" value="99" aria-invalid="true"' in page
    assert 'name="p-PV" min="1" max="100" value="0" aria-invalid="true"' in page
    assert "<li>AC : au plus 20</li>" in page and "<li>PV : au moins 1</li>" in page
    assert 'name="p-CT" min="0" max="20" value="7">' in page
    # A named weapon without a range: its fieldset is marked, and its range inputs.
    no_range = {**profile_form(9, 5, 5, 4, 5, 1, 5, 2), "w0-name": "Laser", "w0-FO": "3"}
    no_range |= {"w0-CdA": "1", "w0-DG": "1", "w0-CU": "3", "weapon_rows": "3"}
    page = browser.post("/nolimits/createur", data=no_range, headers={"HX-Request": "true"}).text
    weapon = page[page.index('id="w0"') : page.index('id="w1"')]
    assert 'class="weapon invalid"' in page
    pl_distance = weapon[weapon.index('name="w0-PL-d"') :]
    marked = 'aria-invalid="true" aria-describedby="w0-error"'
    assert pl_distance[: pl_distance.index(">")].endswith(marked)
    assert "une arme à distance a besoin d&#39;au moins une portée" in weapon


def test_creator_more_weapon_rows(browser: TestClient) -> None:
    page = browser.post("/nolimits/createur", data={**TITAN, "action": "more_weapons"}).text
    assert field(page, "weapon_rows") == "4" and 'id="w3"' in page


def test_house_rule_is_marked_everywhere(browser: TestClient) -> None:
    form = {**TITAN, "h0-name": "Sang-froid", "h0-points": "4", "roster": "", "count": "1"}
    added = browser.post("/nolimits/createur/ajouter", data=form)
    assert added.status_code == 303
    editor = browser.get(added.headers["location"]).text
    assert "Sang-froid" in editor
    assert 'data-code="house_rule"' in editor


def test_roster_with_a_formation_general_and_share(browser: TestClient) -> None:
    created = browser.post("/listes", data={"system": "nolimits"})
    location = created.headers["location"]
    page = browser.get(location).text
    added = browser.post(
        location,
        data={
            "version": field(page, "version"),
            "name": "Compagnie",
            "points_limit": "1000",
            "army": "Humains",
            "action": "add",
            "add-unit": "section_de_fantassins",
        },
        headers={"HX-Request": "true"},
    ).text
    # "De 4 à 8 fantassins par unité" (L120): a new section starts with 4.
    assert field(added, "entry-0-count") == "4"
    assert 'data-code="no_general"' in added
    saved = browser.post(
        location,
        data={
            "version": field(added, "version"),
            "name": "Compagnie",
            "points_limit": "1000",
            "army": "Humains",
            "entry-0-ref": field(added, "entry-0-ref"),
            "entry-0-count": "6",
            "entry-0-leader-slot": "sergent",
            "entry-0-leader": "1",
            "entry-0-general": "1",
            "action": "share",
        },
        headers={"HX-Request": "true"},
    )
    assert saved.status_code == 204
    share = saved.headers["hx-redirect"]
    bbcode = browser.get(f"{share}.bbcode").text
    assert bbcode.startswith("[b]Compagnie[/b] — No Limits\n")
    # 6 Fantassins at 28 and a Sergent at 49 (Caserne's points system).
    assert "[b]6 × Fantassin[/b] — 28 pts chacun, 168 pts" in bbcode
    assert "[b]Total : 217 / 1000 points[/b]" in bbcode


def test_building_calculator(browser: TestClient) -> None:
    # L279 "Brique 6 4 1 par 1”": a 6" brick wall has EN 6, SV 4, 6 PV.
    form = {"material": "brique", "size_in": "6"}
    fragment = browser.post("/nolimits/batiment", data=form, headers={"HX-Request": "true"}).text
    assert '<strong data-building>Brique, 6" : EN 6, SV 4, PV 6</strong>' in fragment
    bad = browser.post("/nolimits/batiment", data={"material": "papier", "size_in": "6"})
    assert bad.status_code == 422 and "field-error" in bad.text


def test_building_errors_name_their_field_in_french_once(browser: TestClient) -> None:
    form = {"material": "x", "size_in": "-1"}
    answer = browser.post("/nolimits/batiment", data=form, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    assert "Matériau : inconnu du catalogue; Taille (pouces) : au moins 1</span>" in answer.text
