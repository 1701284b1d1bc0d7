"""Issue 26 item 4: an out-of-range XP or « Blessures légères » in Necromunda–Warzone's editor
keeps the form as typed, says what is wrong beside the field, in French, and keeps every
row and the totals; XP and light wounds are bounded alike (0 to 1,000,000 XP, 0 to 20 light
wounds, docs/rules-notes.md). Nothing is saved."""

import re

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import field

HTMX = {"HX-Request": "true"}
EXAMPLE = "rats_de_la_ruche"  # chef 63 XP, vétéran 114 XP, ganger à l'arme lourde, 5 gangers


def open_example(browser: TestClient) -> tuple[str, str]:
    created = browser.post("/listes", data={"system": "necrowarzone", "example": EXAMPLE})
    assert created.status_code == 303
    path = created.headers["location"]
    return path, browser.get(path).text


def form_of(page: str, **changes: str) -> dict[str, str]:
    """The editor's fields as the page shows them, with `changes` typed over them."""
    names = re.findall(r'name="(entry-\d+-(?:count|ref|name|xp|light_wounds))"', page)
    data = {name: field(page, name) for name in names}
    data |= {"version": field(page, "version"), "name": field(page, "name")}
    return data | {key.replace("__", "-"): value for key, value in changes.items()}


def totals(page: str) -> str:
    start = page.index('id="total"')
    return re.sub(r"\s+", " ", page[start : page.index("</div>", start)])


def rows(page: str) -> list[str]:
    """Each row's figures line (its details), as the reader sees it."""
    return re.findall(r'<div class="details">(.*?)</div>', page, re.S)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (
            {"entry-0__xp": "100000000000000000000"},
            "Expérience (XP) : nombre entier entre 0 et 1000000",
        ),
        ({"entry-0__xp": "2.5"}, "Expérience (XP) : nombre entier entre 0 et 1000000"),
        ({"entry-0__xp": "-5"}, "Expérience (XP) : nombre entier entre 0 et 1000000"),
        ({"entry-0__light_wounds": "50"}, "Blessures légères : nombre entier entre 0 et 20"),
        ({"entry-0__light_wounds": "2.5"}, "Blessures légères : nombre entier entre 0 et 20"),
        ({"entry-0__light_wounds": "-5"}, "Blessures légères : nombre entier entre 0 et 20"),
    ],
)
def test_a_bad_value_keeps_the_rows_the_totals_and_what_was_typed(
    browser: TestClient, typed: dict[str, str], message: str
) -> None:
    path, page = open_example(browser)
    before_rows, before_totals = rows(page), totals(page)
    answer = browser.post(path, data=form_of(page, **typed), headers=HTMX)
    assert answer.status_code == 422
    text = answer.text
    key, value = next(iter(typed.items()))
    name = key.replace("__", "-")
    assert field(text, name) == value
    assert f'<p class="field-error" role="alert" id="{name}-error">{message}</p>' in text
    assert f'aria-describedby="{name}-error"' in text
    assert rows(text) == before_rows
    assert totals(text) == before_totals
    assert "valeur incorrecte" not in text
    # Nothing was saved.
    assert rows(browser.get(path).text) == before_rows
    assert field(browser.get(path).text, name) != value


def test_two_bad_values_in_one_row_are_both_named_and_kept(browser: TestClient) -> None:
    path, page = open_example(browser)
    before_rows, before_totals = rows(page), totals(page)
    answer = browser.post(
        path,
        data=form_of(page, **{"entry-1__xp": "2.5", "entry-1__light_wounds": "50"}),
        headers=HTMX,
    )
    assert answer.status_code == 422
    text = answer.text
    assert field(text, "entry-1-xp") == "2.5"
    assert field(text, "entry-1-light_wounds") == "50"
    assert "Expérience (XP) : nombre entier entre 0 et 1000000" in text
    assert "Blessures légères : nombre entier entre 0 et 20" in text
    assert "entries : valeur incorrecte" not in text
    assert rows(text) == before_rows
    assert totals(text) == before_totals


def test_values_in_range_are_saved(browser: TestClient) -> None:
    path, page = open_example(browser)
    saved = browser.post(
        path,
        data=form_of(page, **{"entry-0__xp": "0", "entry-0__light_wounds": "20"}),
        headers=HTMX,
    )
    assert saved.status_code == 200
    again = browser.get(path).text
    assert field(again, "entry-0-xp") == "0"
    assert field(again, "entry-0-light_wounds") == "20"
