"""The HTML form routes validate like the API: no input gives a 500, nothing is half-saved,
unknown ids are refused with a French message (issue "Hardening", finding 5)."""

import html
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine
from sqlmodel import Session

from app.store import rosters as store
from tests.conftest import Apps

JAFFA_REF = '{"unit": "jaffa"}'


@pytest.fixture
def unlimited(engine: Engine, session: Session, apps: Apps) -> Iterator[TestClient]:
    """A browser on an app without rate limits: the fuzzing sends hundreds of forms."""
    app = apps.get(engine, session, rate_limit_create="", rate_limit_write="", rate_limit_share="")
    with TestClient(
        app, follow_redirects=False, headers={"Sec-Fetch-Site": "same-origin"}
    ) as client:
        yield client


def editor_roster(browser: TestClient) -> str:
    """A DCSystem roster with one Jaffa, opened in this client (its cookie kept)."""
    response = browser.post(
        "/listes/ajouter", data={"system": "dcsystem", "add-unit": "jaffa", "count": "2"}
    )
    assert response.status_code == 303
    return str(response.headers["location"]).removeprefix("/r/")


def stored(browser: TestClient, roster_id: str) -> tuple[int, dict[str, Any]]:
    app: Any = browser.app
    with app.state.session_factory() as session:
        roster = store.get_roster(session=session, roster_id=roster_id)
        assert roster is not None
        session.refresh(roster)
        return roster.version, roster.document


def save(browser: TestClient, roster_id: str, **fields: str) -> int:
    form = {"version": "1", "name": "Liste", "entry-0-ref": JAFFA_REF, "entry-0-count": "2"}
    return browser.post(f"/r/{roster_id}", data={**form, **fields}).status_code


def test_the_reproduced_500s_are_clear_answers(browser: TestClient) -> None:
    roster_id = editor_roster(browser)
    before = stored(browser, roster_id)
    # Each of these was a 500 (OverflowError, RecursionError, ValueError).
    assert save(browser, roster_id, version="9223372036854775808") == 409
    assert save(browser, roster_id, **{"entry-0-ref": "[" * 50_000}) == 422
    assert save(browser, roster_id, **{"entry-0-count": "9" * 5000}) == 422
    assert save(browser, roster_id, action="remove:" + "9" * 5000) == 200  # no such row
    assert stored(browser, roster_id)[1]["entries"] == before[1]["entries"]


def test_a_lone_surrogate_is_refused_and_nothing_is_saved(browser: TestClient) -> None:
    roster_id = editor_roster(browser)
    before = stored(browser, roster_id)
    raw = browser.post(
        f"/r/{roster_id}",
        content=b"version=1&name=%ED%A0%80&entry-0-ref=%7B%7D&entry-0-count=1",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert raw.status_code in (200, 422)
    status = save(browser, roster_id, **{"entry-0-ref": '{"unit": "jaffa", "x": "\\ud800"}'})
    assert status == 422
    assert stored(browser, roster_id)[1]["entries"] == before[1]["entries"]


def test_an_unknown_unit_is_refused_in_french(browser: TestClient) -> None:
    roster_id = editor_roster(browser)
    before = stored(browser, roster_id)
    added = browser.post(
        "/listes/ajouter",
        data={"system": "dcsystem", "add-unit": "licorne", "roster": roster_id},
    )
    assert added.status_code == 422
    assert "n'existe pas dans le catalogue" in html.unescape(added.text)
    assert stored(browser, roster_id) == before
    api = browser.get(f"/api/v1/rosters/{roster_id}")
    assert api.status_code == 401  # never 409 on a roster the pages stored


def test_a_roster_too_heavy_to_keep_is_refused_with_413(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 1 (storage amplification): a roster or a share over its weight is refused with
    413 and nothing is stored; a real 200-entry list stays under the limits."""
    import app.roster_service as service

    heavy = {
        "system": "dcsystem",
        "name": "Lourde",
        "entries": [
            {"custom": {"level": 1, "items": ["arme_tir_1"]}, "name": "x" * 80} for _ in range(200)
        ],
    }
    created = client.post("/api/v1/rosters", json=heavy)
    assert created.status_code == 201  # a real big list is kept
    weight = len(json.dumps(created.json()["roster"], ensure_ascii=False).encode())
    assert weight < service.ROSTER_MAX_BYTES
    auth = {"Authorization": f"Bearer {created.json()['edit_token']}"}

    monkeypatch.setattr(service, "SNAPSHOT_MAX_BYTES", weight)  # its snapshot weighs more
    refused_share = client.post(f"/api/v1/rosters/{created.json()['id']}/shares", headers=auth)
    assert refused_share.status_code == 413
    assert refused_share.json()["errors"][0]["code"] == "share_too_large"

    monkeypatch.setattr(service, "ROSTER_MAX_BYTES", weight - 1)
    refused = client.post("/api/v1/rosters", json=heavy)
    assert refused.status_code == 413
    assert refused.json()["errors"][0]["code"] == "roster_too_large"
    put = client.put(
        f"/api/v1/rosters/{created.json()['id']}",
        json=heavy,
        headers={**auth, "If-Match": '"1"'},
    )
    assert put.status_code == 413
    assert (
        client.get(f"/api/v1/rosters/{created.json()['id']}", headers=auth).json()["version"] == 1
    )  # nothing stored


FIELD_VALUES = st.one_of(
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=10),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(["[" * 2000, '{"unit": "jaffa"}', '{"unit": "nope"}', "remove:0", "add"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    fields=st.dictionaries(
        st.sampled_from(
            [
                "version",
                "name",
                "points_limit",
                "entry-0-ref",
                "entry-0-count",
                "entry-0-name",
                "entry-0-renfort",
                "action",
                "add-unit",
                "add-count",
                "hidden_moves",
                "costing",
            ]
        ),
        FIELD_VALUES,
        max_size=8,
    )
)
def test_no_form_input_gives_a_500(unlimited: TestClient, fields: dict[str, str]) -> None:
    browser = unlimited
    roster_id = editor_roster(browser)
    before = stored(browser, roster_id)
    status = browser.post(f"/r/{roster_id}", data=fields).status_code
    assert status in (200, 303, 409, 413, 422), status
    if status != 200 and status != 303:
        assert stored(browser, roster_id) == before  # nothing half-saved


def test_adding_to_a_list_that_keeps_moving_is_a_conflict_not_a_500(
    browser: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer wins every retry: the player is told to try again (409)."""
    roster_id = editor_roster(browser)

    def always_stale(**_: Any) -> Any:
        raise store.StaleVersion(7)

    monkeypatch.setattr(store, "update_roster", always_stale)
    added = browser.post(
        "/listes/ajouter", data={"system": "dcsystem", "add-unit": "jaffa", "roster": roster_id}
    )
    assert added.status_code == 409
    assert "modifiée ailleurs" in html.unescape(added.text)


def infinity_roster(browser: TestClient) -> tuple[str, dict[str, Any]]:
    """An Infinity example list opened in this client, and the form its editor sends."""
    from tests.web.test_infinity_pages import form_of

    created = browser.post(
        "/listes", data={"system": "infinity", "example": "compagnie_de_brumeval"}
    )
    location = str(created.headers["location"])
    return location.removeprefix("/r/"), form_of(browser.get(location).text)


DEEP_ROW = '{"unit": "jaffa", "x": ' + "[" * 900 + "]" * 900 + "}"


UNITS_REFUSED = "Soldats de la liste : liste attendue"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, UNITS_REFUSED),
        ("9" * 5000, UNITS_REFUSED),
        ("[" + "9" * 4000 + "]", UNITS_REFUSED),
        ("1", UNITS_REFUSED),
        ("1.5", UNITS_REFUSED),
        ("true", UNITS_REFUSED),
        ('{"id": "x"}', UNITS_REFUSED),
        ("[1, true, null]", UNITS_REFUSED),
        ("NaN", UNITS_REFUSED),
    ],
    ids=["deep", "5000 digits", "4000 digits", "1", "1.5", "true", "object", "scalars", "NaN"],
)
def test_crafted_json_in_infinity_units_is_a_french_error(
    browser: TestClient, value: str, message: str
) -> None:
    """Issue 13, finding 3: each of these was a 500 on POST /r/{id} (RecursionError, or a
    template failing on a number where a list of troopers was expected)."""
    roster_id, form = infinity_roster(browser)
    before = stored(browser, roster_id)
    refused = browser.post(f"/r/{roster_id}", data={**form, "extras-units": value})
    assert refused.status_code == 422
    assert message in html.unescape(refused.text)
    assert stored(browser, roster_id) == before


@pytest.mark.parametrize(
    "ref",
    [
        DEEP_ROW,
        '{"unit": "jaffa", "x": ' + "{" * 50_000,
        '{"unit": "jaffa", "x": ' + "9" * 4000 + "}",
        '{"unit": "jaffa", "x": NaN}',
        "true",
        "1.5",
    ],
    ids=["900 deep", "50,000 deep", "4000 digits", "NaN", "true", "1.5"],
)
def test_crafted_json_in_a_row_is_refused_not_a_500(browser: TestClient, ref: str) -> None:
    """Deep JSON in a row's ref reached `repaired()`'s deepcopy (RecursionError, a 500)."""
    roster_id = editor_roster(browser)
    before = stored(browser, roster_id)
    assert save(browser, roster_id, **{"entry-0-ref": ref, "entry-0-count": "101"}) == 422
    assert save(browser, roster_id, **{"entry-0-ref": ref}) == 422
    assert stored(browser, roster_id) == before
