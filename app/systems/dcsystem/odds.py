"""DCSystem odds: k successes among n dice, and the wounds they inflict (C.3).

Every die of an attack succeeds alike, whatever its colour (L228: « Tous les dés ayant
obtenus un résultat de 5 ou 6 sont réussis »): a pool is a number of dice. A die succeeds
on 5 or 6 (L228), on 6 alone at long range or behind cover (L238, L245), on a 6 then 4+ at
long range on a target in cover (L238). Successes inflict wounds (L229-233): 2 → 1 PV,
3 → 2, ... (k successes → k - 1 PV; 0 or 1 → none). Lnn = line of
shared/rules/dcsystem-stargates-war.fr.txt.
"""

from fractions import Fraction
from math import comb
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from app.systems.inputs import INPUT, Between

SuccessOn = Literal["5+", "6", "6_then_4+"]
MAX_DICE = 30  # a level-3 fighter has at most a dozen dice; bounded where it enters

# The chance of one die's success (L228, L238, L245).
DIE_SUCCESS: dict[str, Fraction] = {
    "5+": Fraction(2, 6),
    "6": Fraction(1, 6),
    "6_then_4+": Fraction(1, 6) * Fraction(3, 6),
}
SUCCESS_LABELS = {"5+": "5+", "6": "6", "6_then_4+": "6 puis 4+"}


def successes(dice: int, success_on: SuccessOn) -> dict[int, Fraction]:
    """P(k successes) for k = 0..dice: a binomial law, exact."""
    p = DIE_SUCCESS[success_on]
    return {k: comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)}


def wounds_of(successes_count: int) -> int:
    """C.3 (L229-233): 2 successes → 1 PV, 3 → 2, ...; fewer than 2 → none."""
    return max(successes_count - 1, 0)


def wounds(dice: int, success_on: SuccessOn) -> dict[int, Fraction]:
    """P(w PV lost) for w = 0..dice-1 (w = 0 gathers 0 and 1 success)."""
    found: dict[int, Fraction] = {}
    for k, chance in successes(dice, success_on).items():
        w = wounds_of(k)
        found[w] = found.get(w, Fraction(0)) + chance
    return found


def at_least_one_wound(dice: int, success_on: SuccessOn) -> Fraction:
    return 1 - wounds(dice, success_on).get(0, Fraction(0))


class DcsystemOddsRequest(BaseModel):
    """api-v1 « Odds »: a pool of D6 and what a die needs."""

    model_config = INPUT

    dice: Annotated[int, Between(1, MAX_DICE)] = Field(
        description="Dice rolled, whatever their colour (red, blue, white or yellow)."
    )
    success_on: SuccessOn = Field(
        "5+",
        description="5+ (L228); 6 at long range or in cover (L238, L245); 6 then 4+ at long "
        "range in cover (L238).",
    )


class DcsystemOddsResponse(BaseModel):
    successes: dict[str, str] = Field(description="k → exact chance of k successes.")
    wounds: dict[str, str] = Field(description="PV lost → exact chance (C.3, L229-233).")


def dcsystem_odds(request: DcsystemOddsRequest) -> DcsystemOddsResponse:
    """DCSystem: exact odds of a pool of dice

    The chance of k successes among `dice` D6, each a success on 5+ (L228), on 6 alone at
    long range or in cover (L238, L245) or on a 6 then 4+ (L238), and of the PV they take
    off by C.3 (L229-233: 2 successes → 1 PV, 3 → 2, ...). Exact fractions in lowest terms."""
    return DcsystemOddsResponse(
        successes={str(k): str(v) for k, v in successes(request.dice, request.success_on).items()},
        wounds={str(w): str(v) for w, v in wounds(request.dice, request.success_on).items()},
    )
