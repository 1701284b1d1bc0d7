"""Issue 7, major 11: a custom entry reopens in its system's creator with its values, and the
creator saves it over the same row (same index, same count), never appending."""

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.test_editor import stored_document


class FormFields(HTMLParser):
    """What a browser sends for the form `form_id`: named fields with their values, checked
    boxes, selected options (buttons left out)."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self.select: str | None = None
        self.first_option: tuple[str, str] | None = None
        self.selected = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("submit", "button"):
                self.fields.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select":
            self.select, self.first_option, self.selected = a.get("name"), None, False
        elif tag == "option" and self.select:
            option = (self.select, a.get("value", ""))
            self.first_option = self.first_option or option
            if "selected" in a:
                self.fields.append(option)
                self.selected = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        if tag == "select" and self.select:
            if not self.selected and self.first_option:
                self.fields.append(self.first_option)
            self.select = None


def form_of(page: str, form_id: str = "creator") -> list[tuple[str, str]]:
    parser = FormFields(form_id)
    parser.feed(page)
    return parser.fields


def changed(fields: list[tuple[str, str]], **values: str) -> dict[str, list[str]]:
    """The fields as a form body (a name may repeat), with some values changed or added."""
    body: dict[str, list[str]] = {}
    for name, value in fields:
        body.setdefault(name, []).append(value)
    return body | {name: [value] for name, value in values.items()}


def add_custom(browser: TestClient, system: str, name: str, roster: str = "") -> str:
    """The creator's default unit, named, added to `roster` (or a new list); the editor's path."""
    fields = changed(form_of(browser.get(f"/{system}/createur").text), name=name, roster=roster)
    response = browser.post(f"/{system}/createur/ajouter", data=fields)
    assert response.status_code == 303, response.text
    return str(response.headers["location"])


@pytest.mark.parametrize(
    ("system", "example", "change"),
    [
        ("dcsystem", "feuille_de_bataille_sg", {"level": "3"}),
        ("nolimits", "compagnie_d_assaut", {"p-PV": "3"}),
        ("necrowarzone", None, {"p-CT": "4"}),
        ("bastos", None, {"rep": "5"}),
    ],
)
def test_a_custom_entry_reopens_in_its_creator_and_is_saved_over_its_row(
    browser: TestClient, system: str, example: str | None, change: dict[str, str]
) -> None:
    app: Any = browser.app
    if example is None:
        example = app.state.systems[system].example_rosters()[0].id
    created = browser.post("/listes", data={"system": system, "example": example})
    editor = str(created.headers["location"])
    roster_id = editor.removeprefix("/r/")
    assert add_custom(browser, system, "Le Héros", roster_id) == editor
    before = stored_document(browser, editor)["entries"]
    index = len(before) - 1
    # The player sets the row's count in the editor; the creator must keep it.
    page = browser.get(editor).text
    fields = changed(form_of(page, "editor"), **{f"entry-{index}-count": "2"})
    assert browser.post(editor, data=fields | {"action": ["save"]}).status_code == 200
    page = browser.get(editor).text
    link = f"/{system}/createur?liste={roster_id}&amp;entree={index}"
    assert f'<a href="{link}"' in page
    assert f'id="entry-{index}-edit"' in page
    reopened = browser.get(link.replace("&amp;", "&"))
    assert reopened.status_code == 200
    assert 'value="Le Héros"' in reopened.text
    assert "Enregistrer dans la liste" in reopened.text
    fields = form_of(reopened.text)
    assert ("entree", str(index)) in fields and ("liste", roster_id) in fields
    assert "roster" not in dict(fields)  # no list to choose: it saves where it came from
    saved = browser.post(
        f"/{system}/createur/ajouter",
        data=changed(fields, name="Le Héros blessé", **change),
    )
    assert saved.status_code == 303, saved.text
    assert saved.headers["location"] == f"{editor}#entry-{index}"
    after = stored_document(browser, editor)["entries"]
    assert len(after) == len(before)
    assert after[:index] == before[:index]
    assert after[index]["count"] == 2
    assert after[index]["name"] == "Le Héros blessé"
    assert after[index]["custom"] != before[index]["custom"]


def test_a_catalogue_entry_and_a_foreign_list_do_not_reopen(browser: TestClient) -> None:
    created = browser.post(
        "/listes", data={"system": "dcsystem", "example": "feuille_de_bataille_sg"}
    )
    editor = str(created.headers["location"])
    roster_id = editor.removeprefix("/r/")
    page = browser.get(editor).text
    assert "&amp;entree=" not in page  # the example's fighters are the catalogue's
    assert browser.get(f"/dcsystem/createur?liste={roster_id}&entree=0").status_code == 404
    add_custom(browser, "dcsystem", "Vala", roster_id)
    browser.cookies.clear()
    assert browser.get(f"/dcsystem/createur?liste={roster_id}&entree=3").status_code == 404
    refused = browser.post(
        "/dcsystem/createur/ajouter",
        data={"liste": roster_id, "entree": "3", "level": "2", "name": "Intrus"},
    )
    assert refused.status_code == 404


def test_a_row_that_moved_away_is_not_overwritten(browser: TestClient) -> None:
    editor = add_custom(browser, "dcsystem", "Daniel")
    roster_id = editor.removeprefix("/r/")
    fields = form_of(browser.get(f"/dcsystem/createur?liste={roster_id}&entree=0").text)
    page = browser.get(editor).text
    removed = browser.post(editor, data=changed(form_of(page, "editor"), action="remove:0"))
    assert removed.status_code == 200
    assert browser.post("/dcsystem/createur/ajouter", data=changed(fields)).status_code == 404
    assert stored_document(browser, editor)["entries"] == []


def test_the_creator_preview_keeps_the_row_it_edits(browser: TestClient) -> None:
    editor = add_custom(browser, "nolimits", "Sniper")
    roster_id = editor.removeprefix("/r/")
    fields = form_of(browser.get(f"/nolimits/createur?liste={roster_id}&entree=0").text)
    preview = browser.post("/nolimits/createur", data=changed(fields, **{"p-PV": "2"}))
    assert re.search(r'name="entree" value="0"', preview.text)
    assert "Enregistrer dans la liste" in preview.text
