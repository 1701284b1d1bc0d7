"""A count change (POST /r/{id}/nombres, issue 19) validates the list once: the rows the
page shows were remembered when they were drawn, and the answer is the same when they were
not (another process drew them, or they were forgotten)."""

import re
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from app.main import create_app
from app.settings import Settings
from app.systems.base import GameSystem
from tests.campaigns.test_ledger_work import statements
from tests.conftest import SYSTEMS
from tests.web.conftest import field
from tests.web.page_tour import form_fields
from tests.web.test_editor import open_example


def counted_validations(monkeypatch: pytest.MonkeyPatch, system: GameSystem) -> Callable[[], int]:
    calls = []
    validate = system.validate

    def counting(roster: Any) -> Any:
        calls.append(roster)
        return validate(roster)

    monkeypatch.setattr(system, "validate", counting)
    return lambda: len(calls)


def count_change(client: TestClient, location: str, page: str) -> Any:
    """What static/caserne.js sends when entry 0's count changes: the counts, the version."""
    counts = {k: v for k, v in re.findall(r'name="(entry-\d+-count)"[^>]*value="(\d+)"', page)}
    counts["entry-0-count"] = "2" if counts["entry-0-count"] == "1" else "1"
    sent = {"version": field(page, "version"), **counts}
    return client.post(f"{location}/nombres", data=sent, headers={"HX-Request": "true"})


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_count_change_validates_the_list_once_and_answers_the_same_uncached(
    browser: TestClient,
    engine: Engine,
    session: Session,
    systems: dict[str, GameSystem],
    system_id: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    system = systems[system_id]
    example = system.example_rosters()[0].id
    mine, theirs = (open_example(browser, system_id, example) for _ in range(2))
    pages = {location: browser.get(location).text for location in (mine, theirs)}
    validations = counted_validations(monkeypatch, system)

    # This process drew the page: only the changed list is validated.
    answer = count_change(browser, mine, pages[mine])
    assert answer.status_code == 200
    assert "HX-Trigger" not in answer.headers  # taken here, not sent back to the whole form
    assert validations() == 1

    # Another process (its own memory of shown rows, the same database) validates the
    # stored version too, and answers the same bytes.
    other = create_app(Settings(database_url="sqlite://"), engine=engine, systems=systems)
    other.state.session_factory = lambda: nullcontext(session)
    with TestClient(other, follow_redirects=False) as elsewhere:
        elsewhere.headers["Sec-Fetch-Site"] = "same-origin"
        elsewhere.cookies = browser.cookies
        uncached = count_change(elsewhere, theirs, pages[theirs])
    assert uncached.status_code == 200
    assert validations() == 3
    ids = mine.removeprefix("/r/"), theirs.removeprefix("/r/")
    assert uncached.text.replace(ids[1], ids[0]) == answer.text


def test_a_count_change_redraws_only_its_row(browser: TestClient) -> None:
    # An Infinity line's group says how many figures the group has (« GROUPE 1 — 9
    # figurines »); rows do not show it, so one count change redraws one row, not the group.
    location = open_example(browser, "infinity", "compagnie_de_brumeval")
    answer = count_change(browser, location, browser.get(location).text)
    assert answer.status_code == 200
    assert re.findall(r'<tr class="entry[^"]*" id="(entry-\d+)"', answer.text) == ["entry-0"]


def test_a_list_never_shared_is_saved_without_asking_for_its_shares(
    browser: TestClient, engine: Engine
) -> None:
    """The editor's first query says whether the list was ever shared (issue 29): a save of a
    list never shared asks nothing more of the shares; once shared, the answer says so (and
    that the share is out of date)."""

    location = open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    with statements(engine) as said:
        answer = count_change(browser, location, browser.get(location).text)
        assert answer.status_code == 200 and 'id="share-state"' not in answer.text
        asked = [s for s in said if "FROM share" in s]
        assert len(asked) == 2  # the page's first query and the save's, each with EXISTS
        assert all("EXISTS" in s for s in asked)
        fields = dict(form_fields(browser.get(location).text, "editor"))
        shared = browser.post(location, data={**fields, "action": "share"})
        assert shared.status_code == 303
        said.clear()
        answer = count_change(browser, location, browser.get(location).text)
        assert "La version partagée n'est plus à jour" in answer.text
        assert any("FROM share" in s and "EXISTS" not in s for s in said)
