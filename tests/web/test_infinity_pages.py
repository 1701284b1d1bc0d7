"""Infinity pages through TestClient: catalogue, trooper creator, "add to a list", and the
roster editor's combat groups (move a trooper, reserve) driven through its form.

Lnn = line of shared/rules/infinity-n2.fr.txt."""

import json
import re
from html.parser import HTMLParser
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import field

HTMX = {"HX-Request": "true"}

# A trooper typed into the creator, invented for the test.
HOPLITE = {
    "name": "Hoplite d'essai",
    "p-MOV1": "10",
    "p-MOV2": "5",
    "p-CC": "14",
    "p-TR": "12",
    "p-PH": "11",
    "p-VOL": "13",
    "p-BL": "2",
    "p-B": "1",
    "orders": "regular",
    "ava": "2",
    "skills": "ad_combat_jump",
    "free_skills": "Camouflage, Esquive",
    "o0-name": "Fusil d'assaut",
    "o0-points": "20",
    "o0-swc": "0",
    "o1-name": "Lieutenant, Fusil d'assaut",
    "o1-points": "20",
    "o1-swc": "0,5",
    "o1-lt": "1",
    "o2-name": "Lance-missiles",
    "o2-points": "31",
    "o2-swc": "1,5",
    "o2-equipment": "mines",
    "option_rows": "4",
    "chosen": "2",
}


class _Form(HTMLParser):
    """What a browser would send for the first form of a page (inputs, selects)."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[str, str]] = []
        self._select: str | None = None
        self._first: tuple[str, str] | None = None
        self._chosen = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and "name" in a:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("submit", "button"):
                self.pairs.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select":
            self._select, self._first, self._chosen = a.get("name"), None, False
        elif tag == "option" and self._select is not None:
            if self._first is None:
                self._first = (self._select, a.get("value", ""))
            if "selected" in a and not self._chosen:
                self.pairs.append((self._select, a.get("value", "")))
                self._chosen = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            if not self._chosen and self._first is not None:
                self.pairs.append(self._first)
            self._select = None


def is_ref(value: str, **fields: object) -> bool:
    """Whether an entry's hidden ref holds these fields (key order is the database's)."""
    entry = json.loads(value)
    return all(entry.get(key) == expected for key, expected in fields.items())


def form_of(page: str) -> dict[str, Any]:
    parser = _Form()
    parser.feed(page)
    form: dict[str, Any] = {}
    for name, value in parser.pairs:
        if name in form:
            form[name] = [*(form[name] if isinstance(form[name], list) else [form[name]]), value]
        else:
            form[name] = value
    return form


def test_catalogue_marks_the_invented_faction_and_prints_the_tables(browser: TestClient) -> None:
    page = browser.get("/infinity/catalogue").text
    assert "faction inventée" in page and "inventée par Caserne" in page
    sergent = page[page.index('id="unit-sergent_veteran"') :]
    sergent = sergent[: sergent.index("</article>")]
    # MOV CC TR PH VOL BL B, then AVA (invented values).
    assert re.findall(r"<td>([^<]+)</td>", sergent)[:8] == [
        "10-5", "15", "13", "11", "14", "2", "1", "2"
    ]  # fmt: skip
    rows = re.findall(r'<tr data-option="([a-z_]+)">.*?</tr>', sergent, re.S)
    assert rows == ["fusil_lourd", "fusil_lourd_lt", "fusil_precision"]
    lt_row = re.search(r'<tr data-option="fusil_lourd_lt">(.*?)</tr>', sergent, re.S)
    assert lt_row and re.findall(r"<td[^>]*>([^<]*)</td>", lt_row.group(1))[1:] == [
        "Lt", "1", "26"
    ]  # fmt: skip
    assert 'value="sergent_veteran/fusil_lourd_lt"' in sergent
    assert "Décisions de Caserne" in page


def test_catalogue_add_to_a_new_list(browser: TestClient) -> None:
    added = browser.post(
        "/listes/ajouter",
        data={"system": "infinity", "unit": "sergent_veteran/fusil_lourd_lt", "count": "1"},
    )
    assert added.status_code == 303
    editor = browser.get(added.headers["location"]).text
    assert 'name="entry-0-option"' in editor
    assert re.search(r'<option value="fusil_lourd_lt" selected>', editor)
    assert "SWC 1 / 0" in editor  # no points limit and 26 points: floor(26 / 50) = 0


def test_creator_opens_on_an_invented_trooper(browser: TestClient) -> None:
    page = browser.get("/infinity/createur").text
    assert field(page, "p-MOV1") == "10" and field(page, "p-CC") == "13"
    assert "<span data-points>10</span>" in page


def test_creator_previews_the_chosen_option(browser: TestClient) -> None:
    fragment = browser.post("/infinity/createur", data=HOPLITE, headers=HTMX).text
    assert fragment.lstrip().startswith('<div class="creator" id="creator-body">')
    assert "<span data-points>31</span>" in fragment
    assert "<span data-swc>1.5</span>" in fragment
    assert "Hoplite d&#39;essai : Lance-missiles (SWC 1,5)" in fragment
    assert "3 mines" in fragment  # L117
    assert "AD : Combat Jump" in fragment
    assert "AVA : 2" in fragment
    total = browser.post("/infinity/createur", data={**HOPLITE, "ava": "Total"}, headers=HTMX)
    assert "AVA : Total" in total.text  # L79
    lieutenant = browser.post(
        "/infinity/createur", data={**HOPLITE, "chosen": "1"}, headers=HTMX
    ).text
    assert "<span data-swc>0.5</span>" in lieutenant and "Option Lieutenant" in lieutenant


def test_creator_refuses_a_swc_finer_than_halves(browser: TestClient) -> None:
    response = browser.post("/infinity/createur", data={**HOPLITE, "o2-swc": "0,3"}, headers=HTMX)
    assert response.status_code == 422
    errors = re.findall(r'class="field-error"[^>]*>([^<]*)<', response.text)
    assert len(errors) == 1 and "swc" in errors[0].lower()  # « Option « Lance-missiles » : SWC…
    assert "Corrigez les champs signalés" in response.text


def test_creator_more_option_rows(browser: TestClient) -> None:
    page = browser.post("/infinity/createur", data={**HOPLITE, "action": "more_options"}).text
    assert field(page, "option_rows") == "5" and 'id="o4"' in page


def test_add_to_a_list_stores_the_trooper_and_an_entry(browser: TestClient) -> None:
    added = browser.post(
        "/infinity/createur/ajouter",
        data={**HOPLITE, "chosen": "1", "roster": "", "count": "1", "group": "2"},
    )
    assert added.status_code == 303
    location = added.headers["location"]
    editor = browser.get(location).text
    assert "Hoplite d&#39;essai" in editor
    form = form_of(editor)
    assert form["entry-0-group"] == "2" and form["entry-0-option"] == "lieutenant_fusil_d_assaut"
    roster_id = location.rsplit("/", 1)[-1]
    # The same trooper added again to that list is reused; a changed one gets its own id.
    for chosen, points in (("0", "20"), ("0", "21")):
        again = browser.post(
            "/infinity/createur/ajouter",
            data={**HOPLITE, "o0-points": points, "chosen": chosen, "roster": roster_id},
        )
        assert again.status_code == 303 and again.headers["location"] == location
    form = form_of(browser.get(location).text)
    assert is_ref(form["entry-1-ref"], unit="hoplite_d_essai", option="fusil_d_assaut")
    assert is_ref(form["entry-2-ref"], unit="hoplite_d_essai_2")
    assert form["extras-units"].count('"id": "hoplite_d_essai') == 2


def test_editor_moves_a_trooper_between_groups_and_holds_it_in_reserve(
    browser: TestClient,
) -> None:
    created = browser.post(
        "/listes", data={"system": "infinity", "example": "compagnie_de_brumeval"}
    )
    location = created.headers["location"]
    page = browser.get(location).text
    form = form_of(page)
    assert "18 figurines" in re.sub(r"<[^>]+>", "", page).replace("\n", " ")
    # Entry 1, a Garde with a heavy machine gun, goes from group 1 to group 2: the list
    # keeps its entries by group, so it joins the end of group 2's block.
    assert is_ref(form["entry-1-ref"], unit="garde_de_brumeval", option="mitrailleuse")
    moved = browser.post(location, data={**form, "entry-1-group": "2"}, headers=HTMX).text
    after = form_of(moved)
    groups = [after[f"entry-{i}-group"] for i in range(14)]
    assert groups == ["1"] * 7 + ["2"] * 7
    assert is_ref(after["entry-13-ref"], unit="garde_de_brumeval", option="mitrailleuse")
    text = re.sub(r"<[^>]+>", "", moved)
    assert "ordres au groupe 1" in text
    # The second Sauteur de brume (AD: Combat Jump, L19-20) is held in reserve too: group
    # 2's pool at deployment loses one more order (L20).
    sauteur = next(
        i
        for i in range(14)
        if is_ref(after[f"entry-{i}-ref"], unit="sauteur_de_brume", option="lance_flammes")
    )
    assert f"entry-{sauteur}-reserve" not in after
    held = browser.post(
        location, data={**after, f"entry-{sauteur}-reserve": "1"}, headers=HTMX
    ).text
    final = form_of(held)
    assert final[f"entry-{sauteur}-reserve"] == "1"
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", held))
    # Group 2: 5 regulars (2 Sauteurs, Garde x2, Sergent) of 8 troopers, 2 in reserve.
    assert "5 ordres au groupe 2, 3 au déploiement, + 4 irréguliers, + 2 impétueux" in text
    # A reserve is refused to a trooper without AD: Combat Jump (L20).
    refused = browser.post(location, data={**final, "entry-0-reserve": "1"}, headers=HTMX).text
    assert 'data-code="lieutenant_in_reserve"' in refused
    assert 'data-code="reserve_without_airborne"' in refused


def test_editor_introductory_game_and_share(browser: TestClient) -> None:
    created = browser.post("/listes", data={"system": "infinity"})
    location = created.headers["location"]
    form = form_of(browser.get(location).text)
    for unit in ("maraudeur/fusil_lt", "maraudeur/fusil", "maraudeur/fusil"):
        page = browser.post(
            location,
            data={**form, "action": "add", "add-unit": unit, "add-group": "1"},
            headers=HTMX,
        ).text
        form = form_of(page)
    assert 'data-code="ava_exceeded"' in page  # 3 Maraudeurs for an AVA of 2 (L76)
    page = browser.post(location, data={**form, "initiation": "1"}, headers=HTMX).text
    assert 'data-code="ava_exceeded"' not in page  # L78
    form = form_of(page)
    assert form["initiation"] == "1"
    shared = browser.post(location, data={**form, "action": "share"}, headers=HTMX)
    assert shared.status_code == 204
    bbcode = browser.get(f"{shared.headers['hx-redirect']}.bbcode").text
    assert "[u]GROUPE 1 — 3 figurines · 0 ordre, 3 irréguliers[/u]\n" in bbcode
    assert "Partie d'initiation : la Disponibilité (AVA) n'est pas appliquée (L78)." in bbcode


def test_editor_removes_the_line_the_player_saw(browser: TestClient) -> None:
    """A removal keeps the displayed order, even when a group select changed with it."""
    created = browser.post(
        "/listes", data={"system": "infinity", "example": "compagnie_de_brumeval"}
    )
    location = created.headers["location"]
    form = form_of(browser.get(location).text)
    assert is_ref(form["entry-2-ref"], unit="garde_de_brumeval", option="lance_grenades")
    page = browser.post(
        location, data={**form, "entry-0-group": "2", "action": "remove:2"}, headers=HTMX
    ).text
    after = form_of(page)
    refs = [after[f"entry-{i}-ref"] for i in range(13)]
    assert 'name="entry-13-ref"' not in page
    assert sum('"option": "lance_grenades"' in ref for ref in refs) == 1  # group 2's stays
    assert is_ref(refs[0], unit="sergent_veteran", option="fusil_lourd_lt", group=2)


def test_own_stylesheet(browser: TestClient) -> None:
    # The CSP allows no inline <style>: the pages link their own, by content hash.
    for path in ("/infinity/createur", "/infinity/catalogue"):
        page = browser.get(path).text
        css = re.search(
            r'<link rel="stylesheet" href="(/infinity/static/infinity\.css\?v=\w+)">', page
        )
        assert css and "<style" not in page.split("<body", 1)[1], path
    answer = browser.get(css.group(1))
    assert answer.headers["content-type"].startswith("text/css")
    assert "immutable" in answer.headers["cache-control"]
    assert "table.edit.infinity-options" in answer.text
    assert browser.get("/infinity/static/secret.py").status_code == 404


def test_a_group_out_of_range_is_refused_in_french_and_sizes_nothing(
    browser: TestClient,
) -> None:
    """Issue 13, finding 2: after a refused save the group select was drawn from the typed
    value (`entry-0-group=1000000` rendered a 38.8 MB page in 7-10 s). L85 numbers the
    combat groups; the model allows 1 to 100."""
    created = browser.post(
        "/listes", data={"system": "infinity", "example": "compagnie_de_brumeval"}
    )
    location = created.headers["location"]
    page = browser.get(location).text
    form = form_of(page)
    normal = len(page)
    for typed, message in [
        ("1000000", "Groupe : au plus 100"),
        ("101", "Groupe : au plus 100"),
        ("0", "Groupe : au moins 1"),
        ("9" * 5000, "Groupe : nombre entier attendu"),
        ("abc", "Groupe : nombre entier attendu"),
    ]:
        refused = browser.post(location, data={**form, "entry-0-group": typed}, headers=HTMX)
        assert refused.status_code == 422, typed
        assert message in refused.text, typed
        # The refused row (sorted first or last by its group) says so, and only it.
        pattern = r'<select id="entry-\d+-group"([^>]*)>(.*?)</select>'
        selects = re.findall(pattern, refused.text, re.S)
        assert len(selects) == 14
        invalid = [i for i, (attrs, _) in enumerate(selects) if "aria-invalid" in attrs]
        assert len(invalid) == 1, typed
        assert f'aria-describedby="entry-{invalid[0]}-error"' in selects[invalid[0]][0]
        # Groups 1 and 2 are used: each select offers 1 to 3, whatever was typed.
        for _, options in selects:
            assert re.findall(r'<option value="(\d+)"', options) == ["1", "2", "3"], typed
        assert len(refused.text) < normal, typed
    # The add panel's group is bounded the same way.
    refused = browser.post(
        location,
        data={**form, "action": "add", "add-unit": form["add-unit"], "add-group": "1000000"},
        headers=HTMX,
    )
    assert refused.status_code == 422
    assert "au plus 100" in refused.text
    assert len(refused.text) < 2 * normal


def test_the_add_panel_offers_only_the_next_group(browser: TestClient) -> None:
    """Issue 26, item 15: the add panel took group 99 in a list of groups 1 and 2 (the
    rows' selects offer 1 to 3). L85 numbers the combat groups in turn: an add may open the
    next group, not one 96 groups further."""
    created = browser.post(
        "/listes", data={"system": "infinity", "example": "compagnie_de_brumeval"}
    )
    location = created.headers["location"]
    page = browser.get(location).text
    assert 'id="add-group" type="number" name="add-group" min="1" max="3"' in page
    form = form_of(page)
    rows = len(re.findall(r'<tr class="entry', page))
    refused = browser.post(
        location,
        data={**form, "action": "add", "add-unit": form["add-unit"], "add-group": "99"},
        headers=HTMX,
    )
    assert refused.status_code == 422
    message = "Groupe : au plus 3 (le groupe qui suit le dernier de la liste)"
    assert f'<p class="field-error" role="alert" id="add-error">{message}</p>' in refused.text
    assert f"Ajout refusé : {message}" in refused.text
    assert re.search(r'id="add-group"[^>]*value="99"[^>]*aria-invalid="true"', refused.text)
    stored = browser.get(location).text
    assert len(re.findall(r'<tr class="entry', stored)) == rows
    # The next group is taken, and the panel then offers one more.
    added = browser.post(
        location,
        data={**form, "action": "add", "add-unit": form["add-unit"], "add-group": "3"},
        headers=HTMX,
    )
    assert added.status_code == 200
    assert len(re.findall(r'<tr class="entry', added.text)) == rows + 1
    assert 'name="add-group" min="1" max="4"' in added.text
