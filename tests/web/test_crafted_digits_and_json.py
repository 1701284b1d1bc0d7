"""Digits and JSON a page sends back, crafted (issue 25, item 6): « ² », « ⁵ » and « ① » are
digits to `str.isdigit()` and no number to int(), so every field read as a whole number was
a 500 when it held one (a count save first); « Annuler » after « Mettre à jour » read its
`undo-books` field with json.loads catching ValueError alone, so 100,000 « [ » were a 500
(RecursionError). Each is now a French message (or the whole form's save, which gives one)."""

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.systems.bastos.chances import parse_figure
from app.systems.inputs import is_digits
from tests.web.conftest import field
from tests.web.test_editor import open_example, stored_document

CRAFTED = ["²", "⁵", "①", "٣", "１"]  # superscripts, a circled one, Arabic-Indic, full-width
HTMX = {"HX-Request": "true"}


def editor(browser: TestClient) -> tuple[str, str]:
    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    return location, browser.get(location).text


def whole_form(page: str) -> dict[str, str]:
    """The editor's form as its save button sends it (the fields the tests here need)."""
    form = {"version": field(page, "version"), "name": field(page, "name")}
    for index in range(len(re.findall(r'name="entry-\d+-ref"', page))):
        form[f"entry-{index}-ref"] = field(page, f"entry-{index}-ref")
        form[f"entry-{index}-count"] = field(page, f"entry-{index}-count")
    return form


def test_only_ascii_digits_are_a_forms_digits() -> None:
    assert is_digits("0") and is_digits("0123456789")
    for text in ["", "-1", "1.5", " 1", "1_0", *CRAFTED, "1²"]:
        assert not is_digits(text), text


@pytest.mark.parametrize("digit", CRAFTED)
def test_a_count_save_of_a_crafted_digit_goes_to_the_whole_form(
    browser: TestClient, digit: str
) -> None:
    location, page = editor(browser)
    before = stored_document(browser, location)
    sent = {"version": field(page, "version"), "entry-0-count": digit}
    answer = browser.post(f"{location}/nombres", data=sent, headers=HTMX)
    # Not taken here: the page sends its whole form, whose save says why.
    assert answer.status_code == 200
    assert answer.headers["HX-Trigger"] == "caserne:save-whole"
    assert stored_document(browser, location) == before
    saved = browser.post(location, data={**whole_form(page), "entry-0-count": digit})
    assert saved.status_code == 422
    assert "nombre entier entre 1 et 100" in saved.text
    assert stored_document(browser, location) == before
    # A version of crafted digits, the same.
    sent = {"version": digit, "entry-0-count": "3"}
    answer = browser.post(f"{location}/nombres", data=sent, headers=HTMX)
    assert answer.headers["HX-Trigger"] == "caserne:save-whole"


@pytest.mark.parametrize("digit", ["²", "①"])
def test_the_editors_other_number_fields_refuse_crafted_digits(
    browser: TestClient, digit: str
) -> None:
    location, _page = editor(browser)
    before = stored_document(browser, location)
    for action in ({"action": f"remove:{digit}"}, {"action": "undo", "undo-index": digit}):
        form = whole_form(browser.get(location).text)
        answer = browser.post(location, data={**form, **action, "undo-entry": "{}"})
        assert answer.status_code == 200, action
        assert stored_document(browser, location)["entries"] == before["entries"]
    for route in ("livres", "livres/annuler"):
        answer = browser.post(f"{location}/{route}", data={"version": digit, "undo-books": "{}"})
        assert answer.status_code == 422, route
        assert "Version de la liste manquante." in answer.text or "Rien à annuler." in answer.text
    undone = browser.post(
        f"{location}/livres/annuler",
        data={
            "version": field(browser.get(location).text, "version"),
            "undo-books": json.dumps({f"entries[{digit}]": {}}),
        },
    )
    assert undone.status_code == 200
    assert "Mise à jour annulée : 0 unité comme avant." in undone.text
    chances = browser.get(f"/dcsystem/chances?rouges={digit}&bleus=0&blancs=0&reussite=5")
    assert chances.status_code == 422
    assert f"« {digit} » : un nombre de dés de 0 à" in chances.text
    reopened = browser.get(f"/dcsystem/createur?liste={location[3:]}&entree={digit}")
    assert reopened.status_code == 404  # no such row: the French page that says so
    assert "text/html" in reopened.headers["content-type"]
    assert parse_figure(f"{digit}|0|0|") is None


@pytest.mark.parametrize(
    "undo",
    ["[" * 100_000, "{" * 3000, '{"entries[0]": ' + "[" * 500 + "]" * 500 + "}"],
    ids=["100000-brackets", "3000-braces", "an-entry-500-deep"],
)
def test_undo_books_of_crafted_json_is_refused_in_french(browser: TestClient, undo: str) -> None:
    location, page = editor(browser)
    before = stored_document(browser, location)
    answer = browser.post(
        f"{location}/livres/annuler", data={"version": field(page, "version"), "undo-books": undo}
    )
    assert answer.status_code == 422
    assert "Rien à annuler." in answer.text
    assert stored_document(browser, location) == before


def test_a_battle_line_of_crafted_json_is_refused_in_french() -> None:
    """The page's own recruits are one select's unit id; what a page would say of a crafted
    one is what field_errors says of the model's refusal."""
    from pydantic import ValidationError

    from app.campaigns.models import BattleIn
    from app.web.forms import field_errors

    deep: Any = []
    for _ in range(500):
        deep = [deep]
    crafted = [
        ({"a": deep}, "imbrication trop profonde"),
        ({"xp": float("nan")}, "nombre fini attendu"),
    ]
    for recruit, french in crafted:
        with pytest.raises(ValidationError) as refused:
            BattleIn.model_validate({"date": "2026-12-01", "result": "win", "recruits": [recruit]})
        assert field_errors(refused.value)["recruits"] == f"recruits : {french}"
