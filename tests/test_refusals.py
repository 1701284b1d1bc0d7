"""The refusal table (app/refusals.py) is complete: every refusal the services raise —
roster, book, carnet and campaign — is answered once, as a problem for programs and as a
French sentence for people (issue 27: « decided once, everywhere »)."""

import re
from pathlib import Path

import app.main  # noqa: F401  (every module that defines a refusal is imported)
from app.campaigns.ledger import LedgerError
from app.campaigns.service import CampaignFull, JoinRefused, NoSuchCampaign, NotOrganiser
from app.refusals import TABLE, api_error, page_text
from app.roster_service import Refusal

CODES = Path(__file__).resolve().parents[1] / "docs" / "api-codes.md"


def refusals(kind: type[Refusal] = Refusal) -> set[type[Refusal]]:
    found: set[type[Refusal]] = set()
    for sub in kind.__subclasses__():
        found |= {sub, *refusals(sub)}
    return found


def test_every_refusal_has_a_problem_and_a_french_page() -> None:
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", CODES.read_text(), flags=re.M))
    assert {NoSuchCampaign, JoinRefused, CampaignFull, NotOrganiser, LedgerError} <= refusals()
    for refusal in refusals():
        answers = [answer for kind, answer in TABLE if issubclass(refusal, kind)]
        assert answers, f"{refusal.__name__} is in no row of app/refusals.py TABLE"
        answer = answers[0]
        assert 400 <= answer.status < 500, refusal
        assert answer.code in documented, (refusal, answer.code)
        assert answer.page, refusal


def test_campaign_refusals_are_answered_as_the_edges_did() -> None:
    status, text = page_text(NoSuchCampaign("c"))
    assert (status, text) == (404, "Cette campagne n'existe pas.")
    assert page_text(CampaignFull("c")) == (409, "Cette campagne est complète.")
    refused = LedgerError("no_xp", "Ce système ne compte pas l’expérience.", ["fighters", 0, "xp"])
    assert page_text(refused) == (422, "Ce système ne compte pas l’expérience.")
    problem = api_error(refused)
    assert (problem.status, problem.detail) == (422, "Ce système ne compte pas l’expérience.")
    assert [e.model_dump() for e in problem.errors] == [
        {
            "loc": ["body", "fighters", 0, "xp"],
            "msg": "Ce système ne compte pas l’expérience.",
            "code": "no_xp",
        }
    ]
    joined = api_error(JoinRefused("c"))
    assert (joined.status, joined.detail) == (403, "Wrong join code or edit token: nothing joined.")
    assert (joined.errors[0].code, joined.errors[0].loc) == (
        "join_code_refused",
        ["body", "join_code"],
    )
    token = api_error(JoinRefused("c", "edit_token")).errors[0]
    assert (token.code, token.loc) == ("edit_token_refused", ["body", "edit_token"])
