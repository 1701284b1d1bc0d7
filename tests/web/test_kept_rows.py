"""A whole form's save keeps the page's rows (issue 29, app/web/editor_parts.py): when the page
says it shows what the server drew (`shown`, added by static/caserne.js), the answer is the
rows whose figures moved, the totals and the list's head, out of band, and the page it leaves
is the one a fresh view draws. What may not keep them gets the whole form, as before."""

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.systems.base import GameSystem
from app.web.editor_parts import controls_read_the_list
from app.web.system_pages import pages_of
from tests.campaigns.test_ledger_work import statements
from tests.conftest import SYSTEMS
from tests.web.page_tour import form_fields

ENTRIES = 12
HTMX = {"HX-Request": "true", "HX-Target": "editor"}
ROW = re.compile(r'<tr class="entry[^"]*" id="(entry-\d+)"(?: hx-swap-oob="morph")?>.*?</tr>', re.S)


def long_list(browser: TestClient, system: GameSystem) -> str:
    """The system's first example, its entries repeated up to ENTRIES, opened as its owner;
    the editor's path."""
    document = dict(system.example_rosters()[0].document)
    entries = list(document["entries"])
    document["entries"] = [dict(entries[i % len(entries)]) for i in range(ENTRIES)]
    created = browser.post("/api/v1/rosters", json=document)
    assert created.status_code == 201, created.text
    browser.get(created.json()["edit_url"].removeprefix("http://testserver"))
    return f"/r/{created.json()['id']}"


def rows(page: str) -> dict[str, str]:
    """Each entry row by its id, as the page holds it (an answer's out-of-band mark left out)."""
    return {m.group(1): m.group(0).replace(' hx-swap-oob="morph"', "") for m in ROW.finditer(page)}


def part(page: str, element_id: str) -> str:
    """The element `element_id` of a page (an h1 or a div holding no other div)."""
    found = re.search(rf'<(h1|div)[^>]* id="{element_id}"[^>]*>.*?</\1>', page, re.S)
    assert found, element_id
    return found.group(0).replace(' hx-swap-oob="morph"', "")


def save(
    browser: TestClient, location: str, *, shown: bool = True, **values: str
) -> tuple[str, Any]:
    """The page, then its whole form saved with `values` changed (`entry_1_name`: the field
    entry-1-name), as the page's script sends it."""
    page = browser.get(location).text
    data: dict[str, list[str]] = {}
    for name, value in form_fields(page, "editor"):
        if name != "action":
            data.setdefault(name, []).append(value)
    for name, value in values.items():
        data[name.replace("_", "-") if name.startswith("entry_") else name] = [value]
    if shown:
        data["shown"] = ["1"]
    return page, browser.post(location, data=data, headers=HTMX)


def assert_same_as_a_fresh_page(
    browser: TestClient, location: str, before: str, answer: Any
) -> None:
    """The page after the answer (its rows morphed in, the others left) is a fresh view's."""
    assert answer.status_code == 200, answer.text[:500]
    assert answer.headers.get("HX-Reswap") == "none"
    fresh = browser.get(location).text
    assert rows(before) | rows(answer.text) == rows(fresh)
    for element_id in ("editor-title", "roster-head", "total", "roster-issues", "editor-buttons"):
        assert part(answer.text, element_id) == part(fresh, element_id), element_id


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_rename_sends_its_row_and_the_head_only(
    browser: TestClient, systems: dict[str, GameSystem], system_id: str
) -> None:
    location = long_list(browser, systems[system_id])
    before, answer = save(browser, location, entry_1_name="Le renommé", name="Nouveau nom")
    assert list(rows(answer.text)) == ["entry-1"]
    assert 'value="Le renommé"' in rows(answer.text)["entry-1"]
    assert ">Nouveau nom</h1>" in answer.text and 'id="add-panel"' not in answer.text
    assert_same_as_a_fresh_page(browser, location, before, answer)


def test_a_row_control_of_a_system_whose_rows_read_only_themselves(browser: TestClient) -> None:
    location = long_list(browser, browser.app.state.systems["dcsystem"])  # type: ignore[attr-defined]
    before, answer = save(browser, location, entry_3_renfort="1")
    assert "entry-3" in rows(answer.text)
    assert_same_as_a_fresh_page(browser, location, before, answer)


def test_a_field_not_written_as_the_page_writes_it_is_drawn_again(browser: TestClient) -> None:
    """« 02 » and a name with spaces around it are stored as 2 and the name: the whole form
    would have written them so; their rows are sent even though their entries did not move."""
    location = long_list(browser, browser.app.state.systems["dcsystem"])  # type: ignore[attr-defined]
    page = browser.get(location).text
    count = dict(form_fields(page, "editor"))["entry-4-count"]
    before, answer = save(browser, location, entry_4_count=f"0{count}", entry_6_name=" ")
    assert sorted(rows(answer.text)) == ["entry-4", "entry-6"]
    assert f'value="{count}"' in rows(answer.text)["entry-4"]
    assert_same_as_a_fresh_page(browser, location, before, answer)


def test_infinity_group_changes_draw_the_whole_form(browser: TestClient) -> None:
    """A row's group select offers one past the highest group of any row: a group change may
    change every row, so the whole form is drawn; a rename keeps the rows."""
    location = long_list(browser, browser.app.state.systems["infinity"])  # type: ignore[attr-defined]
    _, answer = save(browser, location, entry_2_group="2")
    assert answer.status_code == 200 and "HX-Reswap" not in answer.headers
    assert len(rows(answer.text)) == ENTRIES
    before, answer = save(browser, location, entry_2_name="Autre")
    assert list(rows(answer.text)) == ["entry-2"]
    assert_same_as_a_fresh_page(browser, location, before, answer)


@pytest.mark.parametrize(
    ("shown", "values"),
    [
        (False, {"entry_1_name": "Sans le script"}),  # no script, or a save refused since
        (True, {"action": "add"}),  # an add, a removal, an undo: rows come and go
        (True, {"action": "remove:1"}),
        (True, {"entry_1_count": "0"}),  # refused: the page says why beside the field
    ],
)
def test_what_may_not_keep_the_rows_draws_the_whole_form(
    browser: TestClient, shown: bool, values: dict[str, str]
) -> None:
    location = long_list(browser, browser.app.state.systems["dcsystem"])  # type: ignore[attr-defined]
    _, answer = save(browser, location, shown=shown, **values)
    assert "HX-Reswap" not in answer.headers
    assert 'id="add-panel"' in answer.text
    assert len(rows(answer.text)) >= ENTRIES - 1


def test_which_systems_rows_read_the_list(browser: TestClient) -> None:
    """Read from each system's row controls: Infinity's read every entry's group (and its
    own troopers in the extras); the others read their row and their catalogue."""
    request: Any = type("Request", (), {"app": browser.app})()
    found = {
        system_id: controls_read_the_list(system_id, pages_of(request)[system_id])
        for system_id in SYSTEMS
    }
    assert found == {system_id: system_id == "infinity" for system_id in SYSTEMS}


def test_a_list_that_recorded_no_battle_is_saved_and_drawn_without_its_ledger(
    browser: TestClient, engine: Any
) -> None:
    """A list without a fighter id never recorded a battle: none of its fighters can be dead
    or retired, and its saves and pages read no ledger (issue 29: a query a save)."""

    location = long_list(browser, browser.app.state.systems["dcsystem"])  # type: ignore[attr-defined]
    with statements(engine) as said:
        _, kept = save(browser, location, entry_1_name="Sans registre")
        _, whole = save(browser, location, shown=False, entry_1_name="Sans registre 2")
        page = browser.get(location)
    assert kept.headers.get("HX-Reswap") == "none" and "HX-Reswap" not in whole.headers
    assert page.status_code == 200 and "Sans registre 2" in page.text
    assert len(said) >= 10
    assert [s for s in said if "FROM battle" in s] == []


def test_a_save_makes_one_trip_to_the_thread_pool(
    browser: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The editor's two saves are plain routes (issue 29): the list's lookup, the save and
    the answer in one trip to the thread pool, the session closed on the event loop."""
    import anyio.to_thread

    location = long_list(browser, browser.app.state.systems["dcsystem"])  # type: ignore[attr-defined]
    pooled = anyio.to_thread.run_sync
    trips: list[str] = []

    async def counted(func: Any, *args: Any, **options: Any) -> Any:
        trips.append(getattr(getattr(func, "func", func), "__name__", repr(func)))
        return await pooled(func, *args, **options)

    def posted(path: str, shown: bool = True, **values: str) -> Any:
        fields = dict(form_fields(browser.get(location).text, "editor"))
        fields.pop("action", None)
        if path.endswith("/nombres"):
            fields = {k: v for k, v in fields.items() if k.endswith("-count") or k == "version"}
        elif shown:
            fields["shown"] = "1"
        trips.clear()
        answer = browser.post(path, data={**fields, **values}, headers=HTMX)
        assert answer.status_code == 200, answer.text[:300]
        return answer

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    kept = posted(location, **{"entry-1-name": "Un voyage"})
    assert kept.headers.get("HX-Reswap") == "none" and trips == ["save_form"]
    whole = posted(location, shown=False, **{"entry-1-name": "Un autre"})
    assert "HX-Reswap" not in whole.headers and trips == ["save_form"]
    counts = posted(f"{location}/nombres", **{"entry-0-count": "7"})
    assert counts.headers.get("HX-Reswap") == "none" and trips == ["count_save"]
