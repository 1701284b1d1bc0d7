"""A key holding U+0000 names nothing, on PostgreSQL as on SQLite: PostgreSQL cannot even
compare such a text, and the form fuzz found `POST /bastos/createur/ajouter` with
`roster=\\x00` answering 500 there (tests/web/test_form_fuzz.py). Each of these answers as
for a key that exists nowhere."""

import pytest
from fastapi.testclient import TestClient

NUL = "\x00"


@pytest.mark.parametrize(
    "path",
    ["/r/{key}", "/s/{key}", "/a/{key}", "/c/{key}", "/api/v1/rosters/{key}"],
)
def test_a_nul_key_in_the_path_is_unknown(browser: TestClient, path: str) -> None:
    unknown = browser.get(path.format(key="inconnu0123"))
    assert unknown.status_code in (403, 404)
    answer = browser.get(path.format(key="%00"))
    assert answer.status_code == unknown.status_code


def test_a_nul_list_in_a_form_is_unknown(browser: TestClient) -> None:
    form = {"roster": "inconnu0123", "rep": "4", "weapon": "", "count": "1", "name": "Bob"}
    unknown = browser.post("/bastos/createur/ajouter", data=form)
    answer = browser.post("/bastos/createur/ajouter", data={**form, "roster": NUL})
    assert unknown.status_code == answer.status_code
    assert answer.status_code < 500
    assert answer.text == unknown.text
