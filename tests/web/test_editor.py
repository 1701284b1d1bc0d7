"""The roster editor without JavaScript (issue 7): Enter saves, each row reads its own entry,
a bad count keeps the table, hidden moves are lines that add up to the total."""

import html
import re
from typing import Any

from fastapi.testclient import TestClient

from app.store import rosters as store
from tests.web.conftest import field


def open_example(browser: TestClient, system: str, example: str) -> str:
    response = browser.post("/listes", data={"system": system, "example": example})
    assert response.status_code == 303
    return str(response.headers["location"])


def stored_document(browser: TestClient, location: str) -> dict[str, Any]:
    app: Any = browser.app
    with app.state.session_factory() as session:
        roster = store.get_roster(session=session, roster_id=location.removeprefix("/r/"))
        assert roster is not None
        return dict(roster.document)


def rows(page: str) -> list[str]:
    """The HTML of each entry row of the editor, in order."""
    return re.findall(r'<tr class="entry[^"]*" id="entry-\d+">(.*?)</tr>', page, re.S)


def submit_buttons(form: str) -> list[tuple[str, str]]:
    return re.findall(r'<button type="submit" name="action" value="([^"]*)"[^>]*>([^<]*)<', form)


def test_enter_in_any_field_saves_the_editor_never_removes(browser: TestClient) -> None:
    """Implicit submission (Enter) uses the form's first submit button: "Enregistrer"."""
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    page = browser.get(location).text
    form = page[page.index('<form id="editor"') :]
    assert submit_buttons(form)[0] == ("save", "Enregistrer")
    # What a browser without JavaScript sends on Enter: the fields and that button.
    sent = {
        "version": field(page, "version"),
        "name": "Équipe SG",
        "points_limit": "200",
        "action": "save",
        **{f"entry-{i}-ref": field(page, f"entry-{i}-ref") for i in range(3)},
        **{f"entry-{i}-count": field(page, f"entry-{i}-count") for i in range(3)},
    }
    saved = browser.post(location, data=sent)
    assert saved.status_code == 200
    assert len(rows(saved.text)) == 3
    document = stored_document(browser, location)
    assert document["name"] == "Équipe SG" and len(document["entries"]) == 3


def test_the_creators_default_button_previews(browser: TestClient) -> None:
    for system in ("dcsystem", "nolimits"):
        page = browser.get(f"/{system}/createur").text
        form = page[page.index('<form id="creator"') :]
        first = re.search(r"<button type=\"submit\"[^>]*>", form)
        assert first is not None
        assert 'value="preview"' in first.group(0) and "formaction" not in first.group(0)


def test_each_nolimits_row_reads_its_own_entry(browser: TestClient) -> None:
    """Issue 7, blocking 2: a leader makes a second summary line; later rows must not shift."""
    location = open_example(browser, "nolimits", "compagnie_d_assaut")
    page = browser.get(location).text
    app: Any = browser.app
    system = app.state.systems["nolimits"]
    document = system.roster_model.model_validate(stored_document(browser, location))
    result = system.validate(document)
    found = rows(page)
    assert len(found) == len(document.entries) == 5
    for row, entry, entry_result in zip(found, document.entries, result.entries, strict=True):
        assert f'placeholder="{html.escape(entry_result.name)}"' in html.unescape(row) or (
            f'value="{entry.name}"' in html.unescape(row)
        )
        assert f">{entry_result.points}" in row
    titan = found[4]
    assert "Sergent" not in titan and "Général d&#39;armée" not in titan
    assert "Titan Destroyer" in titan and ">350<" in titan
    # The section with its leader lists both parts: troopers and the Sergent.
    assert "7 × Fantassin" in found[1] and "1 × Sergent (chef d&#39;unité)" in found[1]


def test_a_bad_count_keeps_the_table_and_names_the_field(browser: TestClient) -> None:
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    page = browser.get(location).text
    before = stored_document(browser, location)
    for bad in ("0", "-3", "500", "abc"):
        sent = {
            "version": field(page, "version"),
            "name": before["name"],
            "points_limit": "200",
            **{f"entry-{i}-ref": field(page, f"entry-{i}-ref") for i in range(3)},
            **{f"entry-{i}-count": field(page, f"entry-{i}-count") for i in range(3)},
            "entry-1-count": bad,
        }
        answer = browser.post(location, data=sent, headers={"HX-Request": "true"})
        assert answer.status_code == 422
        text = answer.text
        assert "Nombre : nombre entier entre 1 et 100" in text
        assert "entries.1" not in text
        assert f'value="{bad}" class="count" aria-label="Nombre" aria-invalid="true"' in text
        # Names, costs and the total stay.
        assert len(rows(text)) == 3
        assert 'placeholder="Chef de groupe SG"' in text
        assert "<span data-total>" in text
    assert stored_document(browser, location) == before


def test_hidden_moves_are_lines_that_add_up_to_the_total(browser: TestClient) -> None:
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    page = browser.get(location).text
    totals = re.findall(r'<td class="num" data-label="Total">(\d+)', page)
    assert "Coup caché : Raid aérien" in page
    header = re.search(r"<span data-total>(\d+)</span>", page)
    assert header is not None
    assert sum(int(t) for t in totals) == int(header.group(1))


def test_a_renamed_row_still_says_which_profile_it_is(browser: TestClient) -> None:
    """Issue 26, item 15: once renamed, a row showed only « Sgt Bob » (the profile's name
    was the name field's placeholder, hidden by the new name)."""
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    page = browser.get(location).text
    profile = html.unescape(
        re.search(r'id="entry-0-name"[^>]*placeholder="([^"]*)"', page).group(1)  # type: ignore[union-attr]
    )
    assert profile
    sent = {
        "version": field(page, "version"),
        "name": field(page, "name"),
        "points_limit": field(page, "points_limit"),
        "action": "save",
        **{f"entry-{i}-ref": field(page, f"entry-{i}-ref") for i in range(3)},
        **{f"entry-{i}-count": field(page, f"entry-{i}-count") for i in range(3)},
        "entry-0-name": "Sgt Bob",
    }
    saved = browser.post(location, data=sent, headers={"HX-Request": "true"})
    assert saved.status_code == 200
    for shown in (saved.text, browser.get(location).text):
        row = rows(shown)[0]
        assert 'value="Sgt Bob"' in row
        assert (
            f'<span class="small profile" id="entry-0-profile">{html.escape(profile)}</span>' in row
        )
    # An unrenamed row needs no such line: its name field says the profile.
    assert 'id="entry-1-profile"' not in rows(saved.text)[1]
