"""DCSystem odds (api-v1 « Odds »): exact fractions checked against an enumeration of
every face of every die. Lnn = shared/rules/dcsystem-stargates-war.fr.txt."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from fastapi.testclient import TestClient

from app.systems.dcsystem.odds import successes, wounds

# One face of the second roll for "6 then 4+" (L238: « 1er lancé 6, second 4, 5 ou6 »).
FACES = range(1, 7)


def die_outcomes(success_on: str) -> list[tuple[Fraction, bool]]:
    """Each elementary outcome of one die: its chance and whether it succeeds."""
    if success_on == "5+":  # L228: « un résultat de 5 ou 6 »
        return [(Fraction(1, 6), face >= 5) for face in FACES]
    if success_on == "6":  # L238, L245: « seul les dès obtenant un six »
        return [(Fraction(1, 6), face == 6) for face in FACES]
    # L238: a 6, then 4 or more on the second roll
    return [(Fraction(1, 36), first == 6 and second >= 4) for first in FACES for second in FACES]


def enumerated(dice: int, success_on: str) -> tuple[Counter[int], Counter[int]]:
    by_successes: Counter[int] = Counter()
    by_wounds: Counter[int] = Counter()
    for outcome in product(die_outcomes(success_on), repeat=dice):
        chance = Fraction(1)
        for p, _ in outcome:
            chance *= p
        k = sum(ok for _, ok in outcome)
        by_successes[k] += chance  # type: ignore[assignment]
        # L229-232: 2 dés réussis => 1 PV, 3 => 2, 4 => 3, « ainsi de suite »
        by_wounds[max(k - 1, 0)] += chance  # type: ignore[assignment]
    return by_successes, by_wounds


# "6 then 4+" enumerates 36 outcomes per die: up to 3 dice (46,656 rolls).
@pytest.mark.parametrize(
    ("dice", "success_on"),
    [(n, on) for on in ("5+", "6") for n in (1, 2, 3, 5)] + [(n, "6_then_4+") for n in (1, 2, 3)],
)
def test_odds_match_an_enumeration_of_the_dice(dice: int, success_on: str) -> None:
    by_successes, by_wounds = enumerated(dice, success_on)
    assert successes(dice, success_on) == dict(by_successes)  # type: ignore[arg-type]
    assert {w: p for w, p in wounds(dice, success_on).items() if p} == dict(by_wounds)  # type: ignore[arg-type]
    assert sum(successes(dice, success_on).values()) == 1  # type: ignore[arg-type]


def test_three_red_and_two_white_at_5_wound_with_131_in_243() -> None:
    # 5 dice at 5+: no wound with 0 success (32/243) or 1 (80/243); 1 - 112/243 = 131/243.
    assert 1 - wounds(5, "5+")[0] == Fraction(131, 243)


def test_the_api_answers_exact_fractions(client: TestClient) -> None:
    answer = client.post("/api/v1/systems/dcsystem/odds", json={"dice": 5, "success_on": "5+"})
    assert answer.status_code == 200
    assert answer.json() == {
        "successes": {
            "0": "32/243",
            "1": "80/243",
            "2": "80/243",
            "3": "40/243",
            "4": "10/243",
            "5": "1/243",
        },
        "wounds": {"0": "112/243", "1": "80/243", "2": "40/243", "3": "10/243", "4": "1/243"},
    }
    by_successes, _ = enumerated(3, "6_then_4+")
    answer = client.post(
        "/api/v1/systems/dcsystem/odds", json={"dice": 3, "success_on": "6_then_4+"}
    )
    assert answer.json()["successes"] == {str(k): str(v) for k, v in sorted(by_successes.items())}


@pytest.mark.parametrize(
    "body",
    [{"dice": 0}, {"dice": 31}, {"dice": True}, {"dice": "5"}, {"dice": 5, "success_on": "4+"}, {}],
)
def test_bad_pools_are_422_problems(client: TestClient, body: dict[str, object]) -> None:
    answer = client.post("/api/v1/systems/dcsystem/odds", json=body)
    assert answer.status_code == 422
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_the_odds_page_shows_131_in_243_for_three_red_and_two_white(client: TestClient) -> None:
    page = client.get("/dcsystem/chances?rouges=3&bleus=0&blancs=2&reussite=5%2B")
    assert page.status_code == 200
    assert "Chance d'infliger au moins 1 PV : <strong>131/243</strong> (54 %)" in page.text
    assert "<td>112/243</td>" in page.text  # no PV: 0 or 1 success
    assert 'href="/dcsystem/chances"' in client.get("/dcsystem/catalogue").text


@pytest.mark.parametrize(
    "query", ["rouges=abc", "blancs=99", "rouges=0&blancs=0", "reussite=3%2B", "bleus=-1"]
)
def test_the_odds_page_refuses_bad_pools_in_french(client: TestClient, query: str) -> None:
    page = client.get(f"/dcsystem/chances?{query}")
    assert page.status_code == 422
    assert 'class="field-error"' in page.text
    assert "odds-result" not in page.text
