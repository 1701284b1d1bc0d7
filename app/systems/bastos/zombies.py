"""« Quelques règles pour jouer zombies » (L289): the dice of the optional zombie page.

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

from fractions import Fraction
from itertools import product
from typing import Literal

from app.systems.bastos.dice import D6, counted, passes, successes

# L289 « Les zombies ont tous Rep 4. »
ZOMBIE_REP = 4

ShotCase = Literal["facing_within_20cm", "behind_or_beyond_20cm", "down_in_contact"]


def zombie_wound(rep: int, impact: int, case: ShotCase) -> dict[str, Fraction]:
    """What a hit on a zombie does (L289).

    « Le tuer quand il fait face au tireur à moins de 20cm [...] Il faut obtenir « 1 » »;
    « De dos ou à plus de 20cm, il faut faire sa Rep ou moins »; « au contact à terre [...]
    juste un test sous la Rep ». Not killed by an Impact of 2 or more: « stoppé net et
    renversé »; otherwise nothing happens.
    """
    outcomes = []
    for die in D6:
        killed = die == 1 if case == "facing_within_20cm" else passes(rep, die)
        if killed:
            outcomes.append("killed")
        elif impact >= 2 and case != "down_in_contact":  # a zombie already down stays down
            outcomes.append("knocked_down")
        else:
            outcomes.append("no_effect")
    return counted(outcomes, 6, ("killed", "knocked_down", "no_effect"))


def zombie_melee(rep: int, zombies: int, impact: int) -> dict[str, Fraction]:
    """L289: « On lance un dé par zombie impliqué dans la mêlée, sous leur Rep moins l'impact de
    l'arme de leur adversaire. Dans tous les cas, leur adversaire lance deux dés. »

    Successes are compared as in any melee (L209-218); a human who loses « est renversé ».
    """
    if not 1 <= zombies <= 6:
        raise ValueError("from 1 to 6 zombies")
    zombie_rep = ZOMBIE_REP - impact
    own = counted((successes(rep, roll) for roll in product(D6, repeat=2)), 36, (2, 1, 0))
    horde = counted(
        (sum(passes(zombie_rep, die) for die in roll) for roll in product(D6, repeat=zombies)),
        6**zombies,
        tuple(range(zombies, -1, -1)),
    )
    odds = dict.fromkeys(("human_wins", "tie", "zombies_win"), Fraction(0))
    for (mine, p_mine), (theirs, p_theirs) in product(own.items(), horde.items()):
        outcome = "human_wins" if mine > theirs else "tie" if mine == theirs else "zombies_win"
        odds[outcome] += p_mine * p_theirs
    return odds


def zombie_appears(infestation: Literal[1, 2, 3]) -> Fraction:
    """L289: per noise marker at the end of a turn, « Sur un 1 ou un 2, un nouveau zombie
    apparait » at level 2; level 3 on 1-3, level 1 on 1."""
    return Fraction(sum(die <= infestation for die in D6), 6)
