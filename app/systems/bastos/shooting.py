"""Tirs (L115-138), Blesser (L140-150) and Munitions (L152), exactly.

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Literal

from app.systems.bastos.dice import D6, counted, passes

WoundResult = Literal["dead", "out_of_action", "stunned"]
WOUND_RESULTS: tuple[WoundResult, ...] = ("dead", "out_of_action", "stunned")


@dataclass(frozen=True)
class Target:
    """What the Tableau de tir (L115-129) asks about the target of one die."""

    cover: bool = False  # « Si cible à couvert »
    prone: bool = False  # « Si cible à plat-ventre »
    fast_move: bool = False  # « Si cible ou tireur en mouvement rapide »
    rank: Literal[1, 2, 3] = 1  # 1st target, 2nd, « Troisième cible ou plus » (L136)


def table_hits(total: int, target: Target) -> bool:
    """L115-129: d6 + Rep read on the Tableau de tir (1 dé).

    « 3 à 7 Raté ! »; a total under 3 (Rep 1 or less) misses too (rules notes).
    """
    if total >= 10:  # L127-129 « 10+ Touché ! »
        return True
    if total == 9:  # L123-125
        return not target.cover and target.rank < 3
    if total == 8:  # L119-121
        return not (target.cover or target.prone or target.fast_move) and target.rank == 1
    return False  # L115-117 « 3 à 7 Raté ! »


def desperate(rep: int, die: int, target: Target) -> bool:
    """L138: « obtient un 6 à son dé, mais ne touche pas parce que la cible est à couvert »:
    the 6 misses, and would have hit the same target out of cover."""
    total = die + rep
    return (
        die == 6
        and target.cover
        and not table_hits(total, target)
        and table_hits(total, replace(target, cover=False))
    )


def shot_hits(rep: int, die: int, target: Target, desperate_die: int | None = None) -> bool:
    """One die of a shot (L115): the table, then the tir désespéré's 1-die Rep test (L138)."""
    if table_hits(die + rep, target):
        return True
    if desperate(rep, die, target):
        if desperate_die is None:
            raise ValueError("a tir désespéré needs its die")
        return passes(rep, desperate_die)  # « Si elle réussit, elle touche sa cible. »
    return False


def _die_hits(rep: int, target: Target) -> list[bool]:
    """Each (shooting die, tir désespéré die) pair, the second read only when needed."""
    return [shot_hits(rep, die, target, spare) for die, spare in product(D6, D6)]


@lru_cache(maxsize=1024)
def hit_chance(rep: int, target: Target) -> Fraction:
    """L115-138: one die's chance to hit, tir désespéré included."""
    hits = _die_hits(rep, target)
    return Fraction(sum(hits), len(hits))


def wound_result(die: int, impact: int) -> WoundResult:
    """L140-150 Tableau de Blessure (1 dé)."""
    if die == 1:  # « Résultat de “1” Raide Mort ! »
        return "dead"
    if die <= impact:  # « inférieur ou égal à l'Impact de l'arme Hors de Combat ! »
        return "out_of_action"
    return "stunned"  # « supérieur à l'Impact de l'arme Sonné ! »


def wound(impact: int) -> dict[WoundResult, Fraction]:
    """L140-150: what a hit does, by the weapon's Impact."""
    return counted((wound_result(die, impact) for die in D6), 6, WOUND_RESULTS)


def shot_outcome(rep: int, target: Target, impact: int) -> dict[str, Fraction]:
    """One die's whole story: miss, or a hit and the target's wound (L115-150)."""
    outcomes: list[str] = []
    for (die, spare), wound_die in product(product(D6, D6), D6):
        if shot_hits(rep, die, target, spare):
            outcomes.append(wound_result(wound_die, impact))
        else:
            outcomes.append("miss")
    return counted(outcomes, 216, ("miss", *WOUND_RESULTS))


def jams(dice: tuple[int, ...]) -> bool:
    """L152: « deux 1 naturels (ou plus) aux dés » of one shot."""
    return dice.count(1) >= 2


@lru_cache(maxsize=16)
def jam_chance(dice: int) -> Fraction:
    """L152: the chance that a shot of `dice` dice empties or jams the weapon."""
    rolls = list(product(D6, repeat=dice))
    return Fraction(sum(jams(roll) for roll in rolls), len(rolls))


def volley(rep: int, dice: int, target: Target) -> dict[int, Fraction]:
    """Every die of one shot on the same target (L115 « autant de fois que le nombre de dés
    tiré »): the chance of 0, 1 ... `dice` hits."""
    if not 1 <= dice <= 3:
        raise ValueError("from 1 to 3 dice")
    per_die = _die_hits(rep, target)
    outcomes = (sum(pair) for pair in product(per_die, repeat=dice))
    return counted(outcomes, 36**dice, tuple(range(dice, -1, -1)))
