"""Campaign routes speak as the others do (issue 28, item 4): each refusal has a code of its
own from docs/api-codes.md, at the field it is about, and a body that is not JSON is a 415
before anything is read."""

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.campaigns.service import CampaignFull
from app.refusals import api_error
from tests.api.test_campaigns import battle, campaign_of, join, orlocks, stored
from tests.api.test_problem_codes import documented_codes, first_error

APP = Path(__file__).resolve().parents[2] / "app"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_missing_campaign_is_told_by_its_code(client: TestClient) -> None:
    error = first_error(client.get("/api/v1/campaigns/nope"), 404)
    assert (error["code"], error["loc"]) == ("campaign_not_found", ["path", "campaign_id"])


def test_a_join_says_which_secret_was_wrong(client: TestClient) -> None:
    campaign = campaign_of(client)
    gang = stored(client, orlocks())
    code = first_error(join(client, campaign, gang, join_code="wrong"), 403)
    assert (code["code"], code["loc"]) == ("join_code_refused", ["body", "join_code"])
    token = first_error(join(client, campaign, gang, edit_token="wrong"), 403)
    assert (token["code"], token["loc"]) == ("edit_token_refused", ["body", "edit_token"])
    missing = first_error(join(client, campaign, {**gang, "id": "nope"}), 404)
    assert (missing["code"], missing["loc"]) == ("roster_not_found", ["body", "roster"])
    other = stored(client, {"system": "bastos", "name": "B", "entries": []})
    wrong = first_error(join(client, campaign, other), 422)
    assert (wrong["code"], wrong["loc"]) == ("wrong_system", ["body", "roster"])
    assert client.get(f"/api/v1/campaigns/{campaign['id']}").json()["gangs"] == []


def test_a_full_campaign_is_told_by_its_code() -> None:
    error = api_error(CampaignFull("c")).errors[0]
    assert (error.code, error.loc) == ("campaign_full", [])


def test_the_organiser_token_is_told_missing_or_refused(client: TestClient) -> None:
    campaign = campaign_of(client)
    url = f"/api/v1/campaigns/{campaign['id']}/voids"
    line = {"recorded_by": "a" * 24, "battle": 1}
    missing = client.post(url, json=line)
    error = first_error(missing, 401)
    assert (error["code"], error["loc"]) == ("campaign_token_missing", ["header", "authorization"])
    assert missing.headers["www-authenticate"] == "Bearer"
    refused = first_error(client.post(url, json=line, headers=bearer("wrong")), 403)
    assert (refused["code"], refused["loc"]) == (
        "campaign_token_refused",
        ["header", "authorization"],
    )
    unknown = client.post("/api/v1/campaigns/nope/voids", json=line, headers=bearer("x"))
    assert first_error(unknown, 404)["code"] == "campaign_not_found"
    no_line = client.post(url, json=line, headers=bearer(campaign["edit_token"]))
    assert first_error(no_line, 422)["code"] == "no_such_battle"


def test_a_ledger_read_with_an_old_share_is_told_by_its_code(client: TestClient) -> None:
    gang = stored(client, orlocks())
    url = f"/api/v1/rosters/{gang['id']}/battles"
    error = first_error(client.get(url, params={"share": "old"}), 403)
    assert (error["code"], error["loc"]) == ("share_not_latest", ["query", "share"])


def test_a_refused_battle_line_has_a_documented_code(client: TestClient) -> None:
    gang = stored(client, orlocks())
    scored = first_error(battle(client, gang, 1, {"score": {"format": 200}}), 422)
    assert (scored["code"], scored["loc"]) == ("no_score", ["body", "score"])
    nobody = first_error(battle(client, gang, 1, {"fighters": [{"entry": 42}]}), 422)
    assert (nobody["code"], nobody["loc"]) == ("no_such_fighter", ["body", "fighters", 0, "entry"])


def test_a_null_recruit_is_refused_where_it_is(client: TestClient) -> None:
    """A recruit is a roster entry (an object): null was read as free JSON, then a 500 in
    the ledger."""
    gang = stored(client, orlocks())
    response = battle(client, gang, 1, {"recruits": [None]})
    assert response.status_code == 422, response.text
    assert response.json()["errors"] == [
        {
            "loc": ["body", "recruits", 0],
            "msg": "Input should be a valid dictionary",
            "code": "dict_type",
        }
    ]


def test_every_ledger_code_is_documented() -> None:
    """Each code a campaign refusal raises in app/ (LedgerError's first argument)."""
    raised = set()
    for source in APP.rglob("*.py"):
        raised |= set(re.findall(r'LedgerError\(\s*"([a-z_]+)"', source.read_text()))
    assert len(raised) >= 15
    assert raised - documented_codes() == set()


def campaign_writes(client: TestClient) -> list[tuple[str, dict[str, Any]]]:
    campaign = campaign_of(client)
    gang = stored(client, orlocks())
    return [
        ("/api/v1/campaigns", {"system": "necrowarzone", "name": "R"}),
        (f"/api/v1/campaigns/{campaign['id']}/gangs", {"roster": gang["id"]}),
        (f"/api/v1/campaigns/{campaign['id']}/voids", {"recorded_by": "a", "battle": 1}),
        (f"/api/v1/rosters/{gang['id']}/battles", {"date": "2026-12-01", "result": "win"}),
        (f"/api/v1/rosters/{gang['id']}/battles/{gang['id']}/1/verdict", {"verdict": "confirmed"}),
    ]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_a_body_not_sent_as_json_is_a_415(client: TestClient, content_type: str) -> None:
    import json

    for url, body in campaign_writes(client):
        response = client.post(
            url, content=json.dumps(body), headers={"Content-Type": content_type}
        )
        error = first_error(response, 415)
        assert error["code"] == "unsupported_media_type", url


def test_the_document_lists_the_415_of_campaign_writes(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    for operation_id in (
        "create_campaign",
        "join_campaign",
        "void_battle",
        "record_battle",
        "give_verdict",
    ):
        [operation] = [
            op
            for path in doc["paths"].values()
            for op in path.values()
            if op.get("operationId") == operation_id
        ]
        assert "415" in operation["responses"], operation_id
