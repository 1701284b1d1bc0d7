"""Corps à corps (L209-222): two figures' Rep tests compared, and what the winner inflicts.

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Literal

from app.systems.bastos.dice import D6, rep_test
from app.systems.bastos.shooting import wound_result

Margin = Literal["tie", "win_by_1", "win_by_2", "lose_by_1", "lose_by_2"]
MARGINS: tuple[Margin, ...] = ("win_by_2", "win_by_1", "tie", "lose_by_1", "lose_by_2")
EFFECTS = (
    "opponent_dead",
    "opponent_out_of_action",
    "opponent_stunned",
    "no_result",
    "figure_stunned",
    "figure_out_of_action",
    "figure_dead",
)


@dataclass(frozen=True)
class Fighter:
    """One side of a melee, as L209 and L199 change its Rep."""

    rep: int
    impact: int = 2  # the Impact of its weapon (L222), 2 for the Arme de corps à corps (L65)
    leader_die: bool = False  # a leader's personal test (L80)
    enemies_in_contact: int = 1  # L209 « deux ennemis ... Rep -1 ; trois ennemis ou plus ... -2 »
    flank_first_round: bool = False  # L199 « combat à Rep-1 au premier tour de corps à corps »

    @property
    def fighting_rep(self) -> int:
        penalty = {1: 0, 2: 1}.get(self.enemies_in_contact, 2)
        return self.rep - penalty - (1 if self.flank_first_round else 0)


def margin(own: int, other: int) -> Margin:
    """L216-222: the Tableau de Résolution reads the difference of successes."""
    if own == other:
        return "tie"  # « Même nombre de réussites RAS. »
    if own > other:
        return "win_by_1" if own - other == 1 else "win_by_2"
    return "lose_by_1" if other - own == 1 else "lose_by_2"


def melee(figure: Fighter, opponent: Fighter) -> dict[Margin, Fraction]:
    """L209: « Chaque figurine lance deux dés et teste sa Rep », successes compared."""
    own = rep_test(figure.fighting_rep, leader_die=figure.leader_die)
    other = rep_test(opponent.fighting_rep, leader_die=opponent.leader_die)
    odds = dict.fromkeys(MARGINS, Fraction(0))
    for (mine, p_mine), (theirs, p_theirs) in product(own.items(), other.items()):
        odds[margin(mine, theirs)] += p_mine * p_theirs
    return odds


def decisive_blow(die: int, impact: int) -> Literal["dead", "out_of_action"]:
    """L222: « Si le résultat est inférieur ou égal à l'impact de l'arme du vainqueur, le
    perdant est Raide Mort. Sinon le perdant est Hors de Combat ! »"""
    return "dead" if die <= impact else "out_of_action"


def blow(result: Margin, die: int, figure: Fighter, opponent: Fighter) -> str:
    """What one round does, given its margin and the die the winner's blow rolls."""
    if result == "tie":
        return "no_result"
    if result == "win_by_1":  # L220: the loser rolls on the Tableau de Blessure
        return f"opponent_{wound_result(die, figure.impact)}"
    if result == "win_by_2":
        return f"opponent_{decisive_blow(die, figure.impact)}"
    if result == "lose_by_1":
        return f"figure_{wound_result(die, opponent.impact)}"
    return f"figure_{decisive_blow(die, opponent.impact)}"


def melee_effects(figure: Fighter, opponent: Fighter) -> dict[str, Fraction]:
    """One round of melee to its end: nothing, or the loser stunned, out of action or dead."""
    odds = dict.fromkeys(EFFECTS, Fraction(0))
    for result, chance in melee(figure, opponent).items():
        for die in D6:
            odds[blow(result, die, figure, opponent)] += chance / 6
    return odds
