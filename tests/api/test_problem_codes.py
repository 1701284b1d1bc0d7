"""Every problem carries a machine-readable `code` from one documented list
(docs/api-codes.md), so that a program tells a missing token from a wrong one, a stale
version from a missing roster, without reading English prose (issue 28, item 4)."""

import json
import re
from functools import cache
from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient
from pydantic_core.core_schema import ErrorType

from tests.api.test_books import BOOK, create_book, token
from tests.api.test_carnets import key, make_carnet
from tests.api.test_rosters import DOCUMENT, auth, create

PROBLEM = "application/problem+json"
CODES_DOC = Path(__file__).resolve().parents[2] / "docs" / "api-codes.md"
APP = Path(__file__).resolve().parents[2] / "app"
# docs/api-codes.md « Pydantic's own codes »: a 422 of a body pydantic refused names the
# error by pydantic's type (`missing`, `dict_type`, …), as pydantic's docs list them.
PYDANTIC_CODES = frozenset(get_args(ErrorType))
BASTOS: dict[str, Any] = {
    "system": "bastos",
    "name": "Les Dalton",
    "points_limit": None,
    "entries": [
        {
            "custom": {"rep": 4, "leader": True, "star": False, "weapon": "revolver"},
            "name": "Joe",
            "count": 1,
        }
    ],
}


@cache
def documented_codes() -> frozenset[str]:
    """The codes docs/api-codes.md lists: the first cell of each table row, in backquotes
    (read once: the fuzz asks for every problem it meets)."""
    return frozenset(re.findall(r"^\| `([a-z_]+)` \|", CODES_DOC.read_text(), flags=re.M))


def is_documented(code: str) -> bool:
    """In a table of docs/api-codes.md, or one of pydantic's own."""
    return code in documented_codes() or code in PYDANTIC_CODES


def first_error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    body = response.json()
    assert body["status"] == status
    assert body["errors"], body
    error: dict[str, Any] = body["errors"][0]
    assert error["code"] in documented_codes(), error
    return error


def test_roster_refusals_are_told_apart_by_code(client: TestClient) -> None:
    created = create(client)
    url = f"/api/v1/rosters/{created['id']}"
    missing = first_error(client.get(url), 401)
    assert missing == {
        "loc": ["header", "authorization"],
        "msg": "This roster is a private draft: send 'Authorization: Bearer <edit_token>'.",
        "code": "edit_token_missing",
    }
    wrong = first_error(client.get(url, headers={"Authorization": "Bearer wrong"}), 403)
    assert (wrong["code"], wrong["loc"]) == ("edit_token_refused", ["header", "authorization"])
    gone = first_error(client.get("/api/v1/rosters/nope", headers=auth(created)), 404)
    assert (gone["code"], gone["loc"]) == ("roster_not_found", ["path", "roster_id"])
    no_match = first_error(client.put(url, json=DOCUMENT, headers=auth(created)), 428)
    assert (no_match["code"], no_match["loc"]) == ("if_match_missing", ["header", "if-match"])
    stale = client.put(url, json=DOCUMENT, headers={**auth(created), "If-Match": '"7"'})
    assert first_error(stale, 409)["code"] == "version_stale"
    assert stale.headers["ETag"] == '"1"'


def test_a_roster_of_another_system_names_the_path(client: TestClient) -> None:
    created = create(client)
    url = f"/api/v1/rosters/{created['id']}"
    response = client.put(url, json=BASTOS, headers={**auth(created), "If-Match": '"1"'})
    error = first_error(response, 422)
    assert error["loc"] == ["body", "system"]
    assert error["code"] == "system_mismatch"
    assert response.json()["detail"] == (
        "This roster is a 'dcsystem' roster: its system cannot change."
    )
    assert client.get(url, headers=auth(created)).json()["version"] == 1


def test_carnet_refusals_are_told_apart_by_code(client: TestClient) -> None:
    carnet = make_carnet(client)
    url = f"/api/v1/carnets/{carnet['id']}"
    assert first_error(client.get(url), 401)["code"] == "carnet_key_missing"
    wrong = client.get(url, headers={"Authorization": "Bearer wrong"})
    assert first_error(wrong, 403)["code"] == "carnet_key_refused"
    unknown = client.get("/api/v1/carnets/nope", headers=key(carnet))
    assert first_error(unknown, 404)["code"] == "carnet_not_found"
    out = client.delete(f"{url}/rosters/nope", headers=key(carnet))
    assert first_error(out, 404)["code"] == "not_in_carnet"


def test_book_refusals_speak_of_books(client: TestClient) -> None:
    created = create_book(client)
    url = f"/api/v1/books/{created['id']}"
    missing = client.get(url)
    assert first_error(missing, 401)["code"] == "edit_token_missing"
    assert missing.json()["detail"] == (
        "This book is private: send 'Authorization: Bearer <edit_token or carnet key>'."
    )
    wrong = client.get(url, headers={"Authorization": "Bearer wrong"})
    assert first_error(wrong, 403)["code"] == "edit_token_refused"
    assert "roster" not in wrong.json()["detail"]
    stale = client.put(url, json=BOOK, headers={**token(created), "If-Match": '"5"'})
    assert first_error(stale, 409)["code"] == "version_stale"
    assert stale.json()["detail"] == "The book is at version 1: read it again."
    other = client.put(url, json={**BOOK, "system": "bastos", "units": []}, headers=token(created))
    assert first_error(other, 422) == {
        "loc": ["body", "system"],
        "msg": "This book is a 'dcsystem' book: its system cannot change.",
        "code": "system_mismatch",
    }
    assert first_error(client.get("/api/v1/books/nope", headers=token(created)), 404) == {
        "loc": ["path", "book_id"],
        "msg": "No such book.",
        "code": "book_not_found",
    }
    unknown = client.get("/api/v1/book-shares/nope")
    assert first_error(unknown, 404)["code"] == "book_share_not_found"


def test_the_newest_routes_refuse_by_documented_codes(client: TestClient) -> None:
    """api-v1.md « Import, history and the carnet file », and the free-JSON bounds every
    typed-but-free body shares (a book unit's definition, a carnet file)."""
    carnet = make_carnet(client)
    url = f"/api/v1/carnets/{carnet['id']}"
    assert first_error(client.get(f"{url}/export"), 401)["code"] == "carnet_key_missing"
    unknown = client.get("/api/v1/carnets/nope/export", headers=key(carnet))
    assert first_error(unknown, 404)["code"] == "carnet_not_found"
    wrong = client.post(f"{url}/import", json={}, headers={"Authorization": "Bearer faux"})
    assert first_error(wrong, 403)["code"] == "carnet_key_refused"
    newer = {"format": "caserne-carnet", "format_version": 2}
    newer_file = client.post(f"{url}/import", json=newer, headers=key(carnet))
    assert first_error(newer_file, 422)["code"] == "format_version"
    deep: Any = []
    for _ in range(30):
        deep = [deep]
    file = {**newer, "format_version": 1, "exported_at": "2026-12-01T00:00:00Z", "x": deep}
    too_deep = client.post(f"{url}/import", json=file, headers=key(carnet))
    assert first_error(too_deep, 422)["code"] == "json_too_deep"
    empty = client.post("/api/v1/imports", json={"system": "dcsystem", "text": ""})
    assert first_error(empty, 422)["code"] == "empty_import"
    roster = create(client)
    versions = f"/api/v1/rosters/{roster['id']}/versions"
    gone = client.get(f"{versions}/9", headers=auth(roster))
    assert first_error(gone, 404)["code"] == "version_not_found"
    unmatched = client.post(f"{versions}/1/restore", headers=auth(roster))
    assert first_error(unmatched, 428)["code"] == "if_match_missing"
    stale = client.post(f"{versions}/1/restore", headers={**auth(roster), "If-Match": '"4"'})
    assert first_error(stale, 409)["code"] == "version_stale"
    unit = {**BOOK["units"][0], "definition": {"level": float("inf")}}
    infinite = client.post(
        "/api/v1/books",
        content=json.dumps({**BOOK, "units": [unit]}),  # Infinity: what json.dumps writes
        headers={"Content-Type": "application/json"},
    )
    assert first_error(infinite, 422)["code"] == "finite_number"


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/v1/shares/nope", 404, "share_not_found"),
        ("GET", "/api/v1/nowhere", 404, "not_found"),
        ("DELETE", "/api/v1/systems", 405, "method_not_allowed"),
        ("GET", "/api/v1/systems/chess/catalogue", 404, "system_not_found"),
        ("PUT", "/api/v1/systems/dcsystem/cost", 405, "method_not_allowed"),
    ],
)
def test_other_problems_carry_a_code(
    client: TestClient, method: str, path: str, status: int, code: str
) -> None:
    assert first_error(client.request(method, path), status)["code"] == code


def test_every_code_of_the_refusal_table_is_documented() -> None:
    from app.problems import DEFAULT_CODES
    from app.refusals import TABLE

    codes = {found.code for _kind, found in TABLE} | set(DEFAULT_CODES.values())
    # A document too heavy to store is `{what}_too_large` (app/refusals.py), by what it is.
    codes |= {f"{what}_too_large" for what in ("roster", "book", "share")}
    assert codes - documented_codes() == set()


# Where app/ names a problem's code: a `code=` argument or attribute (with the other branch
# of a conditional), a problem's JSON written by hand, a pydantic error of its own, and the
# free-JSON refusals (app/systems/inputs.py free_json_refusal). The refusal table, the
# ledger's and the import's codes have their own tests (above, test_campaign_problems.py,
# test_imports.py).
RAISED = (
    r'\bcode\s*=\s*"([a-z_]+)"(?:[^\n]*?\selse\s+"([a-z_]+)")?',
    r'"code":\s*"([a-z_]+)"',
    r'PydanticCustomError\(\s*"([a-z_]+)"',
)


def raised_codes() -> dict[str, set[str]]:
    """Each code app/ writes in a problem, with the files that write it."""
    found: dict[str, set[str]] = {}
    for source in APP.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        if source.name == "inputs.py":
            for code in re.findall(r'return "([a-z_]+)", f"', text):
                found.setdefault(code, set()).add(source.name)
        for pattern in RAISED:
            for match in re.finditer(pattern, text):
                for code in filter(None, match.groups()):
                    found.setdefault(code, set()).add(source.name)
    return found


def test_every_code_app_writes_is_documented() -> None:
    raised = raised_codes()
    # The scan sees the newest routes' codes (the carnet file, the free-JSON bounds).
    assert {"format_version", "too_many_battles", "json_too_deep", "if_match_weak"} <= set(raised)
    assert {code: files for code, files in raised.items() if not is_documented(code)} == {}


@pytest.mark.parametrize(
    ("code", "documented"),
    [("missing", True), ("carnet_full", True), ("nonsense", False), ("int_too_large", True)],
)
def test_documented_means_listed_or_pydantics(code: str, documented: bool) -> None:
    assert is_documented(code) is documented
