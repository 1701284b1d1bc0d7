"""Every HTML form route, fuzzed: no input gives a 5xx (issue 13). Each route gets the form
its own page sends, with some fields replaced or added by Hypothesis (crafted JSON, huge
integers, separators, lone surrogates...). Bounded for a 2-core CI: a few examples a route,
no deadline."""

import html
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine
from sqlmodel import Session

from tests.conftest import SYSTEMS, Apps
from tests.web.test_infinity_pages import form_of

EXAMPLES = {
    "dcsystem": "feuille_de_bataille_sg",
    "nolimits": "compagnie_d_assaut",
    "infinity": "compagnie_de_brumeval",
    "bastos": "imperiaux",
    "necrowarzone": "rats_de_la_ruche",
}
# The POST routes of the pages, with the page whose form posts there (None: no page of its
# own, its fields are those of every page of its system).
SYSTEM_ROUTES = {
    "dcsystem": ["createur", "createur/ajouter", "score"],
    "nolimits": ["createur", "createur/ajouter", "score", "batiment"],
    "infinity": ["createur", "createur/ajouter"],
    "bastos": ["createur", "createur/ajouter", "chances"],
    "necrowarzone": ["createur", "createur/ajouter", "tir"],
}
ROSTER_ROUTES = [
    "/r/{id}",
    "/r/{id}/nombres",
    "/r/{id}/livres",
    "/r/{id}/livres/annuler",
    "/listes/{id}/renommer",
    "/listes/{id}/dupliquer",
    "/listes/{id}/supprimer",
    "/listes/{id}/restaurer",
]
OTHER_ROUTES = ["/listes", "/listes/ajouter", "/listes/nouvelle", "/s/{code}/dupliquer"]

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
HOSTILE = st.sampled_from(
    [
        "",
        "0",
        "-1",
        "1e999",
        "NaN",
        "true",
        "1.5",
        "9" * 5000,
        "[" * 5000,
        "{" * 3000,
        '{"unit": "jaffa", "x": ' + "[" * 900 + "]" * 900 + "}",
        "[" + "[1]," * 300 + "1]",
        '{"unit": "nope"}',
        "[1, true, null]",
        "\ud800",
        # Digits to str.isdigit(), none to int() (issue 25: a count save's 500).
        "²",
        "⁵",
        "①",
        "%26" * 500,
        "remove:0",
        "remove:99999999999",
        "undo",
        "add",
        "save",
        "share",
    ]
)
# Hostile values twice as likely as plain text: a handful of examples must reach them.
VALUES = st.one_of(
    HOSTILE,
    HOSTILE,
    st.text(max_size=20),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=8),
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
)


@pytest.fixture
def fuzzed(engine: Engine, session: Session, apps: Apps) -> Iterator[TestClient]:
    app = apps.get(
        engine,
        session,
        rate_limit_create="",
        rate_limit_write="",
        rate_limit_share="",
        rate_limit_failed_auth="",
        rate_limit_failed_auth_roster="",
    )
    with TestClient(
        app, follow_redirects=False, headers={"Sec-Fetch-Site": "same-origin"}
    ) as client:
        yield client


def page_form(client: TestClient, path: str) -> dict[str, Any]:
    """The fields the page at `path` sends, plus the names of all its other controls."""
    page = client.get(path).text
    form = form_of(page)
    for name in re.findall(r'name="([^"]+)"', page):
        form.setdefault(html.unescape(name), "")
    return form


def new_roster(client: TestClient, system: str) -> str:
    """A list from the system's example named in EXAMPLES, or from its first example."""
    example = EXAMPLES.get(system)
    if example is None:
        example = client.app.state.systems[system].example_rosters()[0].id  # type: ignore[attr-defined]
    created = client.post("/listes", data={"system": system, "example": example})
    assert created.status_code == 303, created.text
    return str(created.headers["location"]).removeprefix("/r/")


def fuzz(client: TestClient, path: str, base: dict[str, Any], examples: int = 8) -> None:
    names = sorted(base) or ["name"]
    # The hidden fields a page fills with JSON (rows' refs, a system's extras) are where a
    # crafted value goes deepest: as likely as all the others together.
    json_names = [n for n in names if str(base[n]).startswith(("[", "{"))] or names

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        changes=st.dictionaries(
            st.one_of(st.sampled_from(json_names), st.sampled_from(names), st.text(max_size=12)),
            VALUES,
            max_size=5,
        ),
        drop=st.lists(st.sampled_from(names), max_size=3),
    )
    def run(changes: dict[str, str], drop: list[str]) -> None:
        form = {k: v for k, v in base.items() if k not in drop}
        form.update(changes)
        # Encoded here: a lone surrogate goes out as the bytes a crafted client would send.
        body = urlencode(form, doseq=True, encoding="utf-8", errors="surrogatepass")
        response = client.post(path, content=body, headers=FORM)
        assert response.status_code < 500, (path, form, response.text[:500])

    run()


@pytest.mark.parametrize(
    ("system", "route"),
    [(system, route) for system, routes in SYSTEM_ROUTES.items() for route in routes],
)
def test_a_system_form_route(fuzzed: TestClient, system: str, route: str) -> None:
    page = f"/{system}/{route.split('/')[0]}"
    base = page_form(fuzzed, page if fuzzed.get(page).status_code == 200 else f"/{system}/createur")
    fuzz(fuzzed, f"/{system}/{route}", base)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("route", ROSTER_ROUTES)
def test_a_roster_form_route(fuzzed: TestClient, system: str, route: str) -> None:
    roster_id = new_roster(fuzzed, system)
    # « Annuler » after « Mettre à jour » sends the units as they were (issue 25: crafted).
    base = {**page_form(fuzzed, f"/r/{roster_id}"), "undo-books": '{"entries[0]": {}}'}
    # The editor reads the most fields (rows, their refs, a system's own JSON): more cases.
    fuzz(fuzzed, route.format(id=roster_id), base, 30 if route == "/r/{id}" else 8)


@pytest.mark.parametrize("route", OTHER_ROUTES)
def test_a_library_form_route(fuzzed: TestClient, route: str) -> None:
    roster_id = new_roster(fuzzed, "dcsystem")
    base = {**page_form(fuzzed, "/listes/nouvelle"), **page_form(fuzzed, "/dcsystem/catalogue")}
    if "{code}" in route:
        shared = fuzzed.post(
            f"/r/{roster_id}", data={**page_form(fuzzed, f"/r/{roster_id}"), "action": "share"}
        )
        assert shared.status_code == 303, shared.text
        route = route.format(code=str(shared.headers["location"]).split("/")[2])
    fuzz(fuzzed, route, {**base, "roster": roster_id, "system": "dcsystem"})


# An army book's forms (issue 26: rename, delete, restore, a unit taken out and put back).
BOOK_ROUTES = [
    "/livres/{id}/renommer",
    "/livres/{id}/supprimer",
    "/livres/{id}/restaurer",
    "/livres/{id}/unites/{unit}/retirer",
    "/livres/{id}/unites/{item}/remettre",
]


@pytest.mark.parametrize("route", BOOK_ROUTES)
def test_a_book_form_route(fuzzed: TestClient, route: str) -> None:
    copied = fuzzed.post("/livres/exemples/dcsystem/dupliquer")
    assert copied.status_code == 303, copied.text
    book = copied.headers["location"]
    unit = re.findall(r'id="unit-([a-z0-9_]+)"', fuzzed.get(book).text)[-1]
    item = "0" * 32
    if "{item}" in route:
        assert fuzzed.post(f"{book}/unites/{unit}/retirer").status_code == 303
        item = re.findall(r"/unites/([0-9a-f]{32})/remettre", fuzzed.get(book).text)[0]
    base = {**page_form(fuzzed, book), "confirm": "oui", "name": "Livre", "army": "Armée"}
    path = route.format(id=book.removeprefix("/livres/"), unit=unit, item=item)
    fuzz(fuzzed, path, base)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_after_the_battle_form(fuzzed: TestClient, system: str) -> None:
    """« Après la bataille » (issue 17): every fighter's row, the score fields of a system
    that scores, the campaign's selects."""
    roster_id = new_roster(fuzzed, system)
    base = page_form(fuzzed, f"/r/{roster_id}/campagne")
    assert "f0_state" in base
    fuzz(fuzzed, f"/r/{roster_id}/campagne", {**base, "scored": "1", "result": "win"}, 12)


@pytest.mark.parametrize("route", ["/campagnes/nouvelle", "/c/{id}/rejoindre"])
def test_a_campaign_form_route(fuzzed: TestClient, route: str) -> None:
    roster_id = new_roster(fuzzed, "necrowarzone")
    made = fuzzed.post("/api/v1/campaigns", json={"system": "necrowarzone", "name": "Ruche"})
    campaign = made.json()
    if "{id}" in route:
        page = f"/c/{campaign['id']}/rejoindre?code={campaign['join_code']}"
        base = {**page_form(fuzzed, page), "roster": roster_id}
    else:
        base = {**page_form(fuzzed, route), "system": "necrowarzone", "name": "Ruche"}
    fuzz(fuzzed, route.format(id=campaign["id"]), base)


# Issue 25, item 6: the page requests that were 500s, each sent as it was found (the fuzz
# above meets them only by chance).
CRAFTED_PAGE_INPUTS = [
    ("/r/{id}/nombres", {"entry-0-count": "²"}),
    ("/r/{id}/nombres", {"entry-0-count": "⁵"}),
    ("/r/{id}/nombres", {"entry-0-count": "①"}),
    ("/r/{id}/livres/annuler", {"undo-books": "[" * 100_000}),
]


@pytest.mark.parametrize(("route", "fields"), CRAFTED_PAGE_INPUTS, ids=["²", "⁵", "①", "undo"])
def test_the_crafted_inputs_of_issue_25(
    fuzzed: TestClient, route: str, fields: dict[str, str]
) -> None:
    roster_id = new_roster(fuzzed, "dcsystem")
    base = page_form(fuzzed, f"/r/{roster_id}")
    response = fuzzed.post(route.format(id=roster_id), data={**base, **fields})
    assert response.status_code < 500, response.text[:500]
    if route.endswith("nombres"):  # the whole form's save says why
        assert response.headers["HX-Trigger"] == "caserne:save-whole"
    else:
        assert response.status_code == 422
        assert "Rien à annuler." in response.text
