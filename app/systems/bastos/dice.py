"""The Rep test, the activation die and exact fractions (no floats, no sampling).

Every probability is counted over every face of the dice rolled. Lnnn = line of
shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Annotated, TypeVar

from pydantic import Field

# L11: "Environ six dés normaux à 6 faces".
D6 = range(1, 7)

# A probability as the API writes it: "n/d" in lowest terms, "0" and "1" at the ends.
Probability = Annotated[str, Field(pattern=r"^(0|1|[1-9][0-9]*/[1-9][0-9]*)$")]

K = TypeVar("K")


def fraction_text(value: Fraction) -> str:
    """'25/36', or '0' and '1' at the ends (Fraction is always in lowest terms)."""
    if not 0 <= value <= 1:
        raise ValueError(f"{value} is not a probability")
    return str(value)


def decimal(value: Fraction, places: int = 4) -> float:
    """The same probability rounded, to show beside the exact fraction."""
    return round(float(value), places)


def as_text(odds: Mapping[K, Fraction]) -> dict[str, str]:
    """Outcome -> "n/d", keys written as strings, in the mapping's own order."""
    return {str(key): fraction_text(value) for key, value in odds.items()}


def counted(outcomes: Iterable[K], total: int, order: Sequence[K]) -> dict[K, Fraction]:
    """Each outcome's share of `total` equally likely rolls, keyed in `order`."""
    counts = Counter(outcomes)
    unknown = set(counts) - set(order)
    if unknown:
        raise ValueError(f"outcomes {sorted(map(str, unknown))} missing from {order}")
    if sum(counts.values()) != total:
        raise ValueError(f"{sum(counts.values())} outcomes for {total} rolls")
    return {key: Fraction(counts[key], total) for key in order}


def passes(rep: int, die: int) -> bool:
    """L80: « Si le résultat du dé est inférieur ou égal à la Rep, le test est une réussite »."""
    return die <= rep


def successes(rep: int, dice: Sequence[int]) -> int:
    """L80: the dice passed, « on ne peut obtenir que 2 réussites au maximum »."""
    return min(2, sum(passes(rep, die) for die in dice))


def rep_test(rep: int, *, leader_die: bool = False) -> dict[int, Fraction]:
    """L80: 2 dice, or 3 with the Dé de Leader, counted as 2, 1 or 0 successes."""
    return dict(_rep_test(rep, leader_die))


@lru_cache(maxsize=256)
def _rep_test(rep: int, leader_die: bool) -> tuple[tuple[int, Fraction], ...]:
    count = 3 if leader_die else 2
    rolls = product(D6, repeat=count)
    return tuple(counted((successes(rep, roll) for roll in rolls), 6**count, (2, 1, 0)).items())


def one_die_test(rep: int) -> Fraction:
    """L80 « il suffit de lancer un dé » (used by the tir désespéré, L138)."""
    return Fraction(sum(passes(rep, die) for die in D6), 6)


def can_activate(rep: int, activation_die: int) -> bool:
    """L73: « peut activer les figurines qui ont une Rep supérieure ou égale à son dé »."""
    return rep >= activation_die


def activation(rep: int) -> dict[str, Fraction]:
    """L73, two sides: ties are re-rolled, the higher die acts first.

    « En cas d'égalité, relancez les dés immédiatement » makes every unequal pair of dice
    equally likely; a figure acts when its side's die is at most its Rep.
    """
    return dict(_activation(rep))


@lru_cache(maxsize=256)
def _activation(rep: int) -> tuple[tuple[str, Fraction], ...]:
    outcomes = []
    for own, other in product(D6, D6):
        if own == other:
            continue
        if not can_activate(rep, own):
            outcomes.append("cannot_act")
        else:
            outcomes.append("acts_first" if own > other else "acts_second")
    return tuple(counted(outcomes, 30, ("acts_first", "acts_second", "cannot_act")).items())


def activation_chance(rep: int) -> Fraction:
    """L73: the chance that the figure's side may activate it this turn."""
    odds = activation(rep)
    return odds["acts_first"] + odds["acts_second"]


def activation_many_players(rep: int, players: int) -> dict[str, Fraction]:
    """L282 « Beaucoup de joueurs »: « Si plusieurs joueurs font une égalité, ils ne jouent pas
    ce tour. » Every player's die is rolled once; the figure's player rolls the first."""
    if not 2 <= players <= 6:
        raise ValueError("from 2 to 6 players")
    outcomes = []
    for own, *others in product(D6, repeat=players):
        if own in others:
            outcomes.append("tied_out")
        elif can_activate(rep, own):
            outcomes.append("acts")
        else:
            outcomes.append("cannot_act")
    return counted(outcomes, 6**players, ("acts", "tied_out", "cannot_act"))
