"""« Quelles sont mes chances ? »: one query about one figure in one situation, answered exactly.

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

from collections.abc import Mapping
from dataclasses import fields
from fractions import Fraction
from typing import TypeVar

from pydantic import BaseModel, Field

from app.systems.base import Issue, error
from app.systems.bastos.catalogue import Catalogue, Weapon
from app.systems.bastos.dice import (
    Probability,
    activation,
    activation_many_players,
    decimal,
    fraction_text,
    rep_test,
)
from app.systems.bastos.melee import Fighter, melee, melee_effects
from app.systems.bastos.queries import (
    BastosActivationQuery,
    BastosJamQuery,
    BastosMeleeQuery,
    BastosMeleeSide,
    BastosReactionQuery,
    BastosRepTestQuery,
    BastosShootingQuery,
    BastosWoundQuery,
    BastosZombieMeleeQuery,
    BastosZombieWoundQuery,
    OddsQuery,
    Query,
)
from app.systems.bastos.reactions import LABELS, TABLES, Situation, reaction
from app.systems.bastos.shooting import Target, jam_chance, shot_outcome, volley, wound
from app.systems.bastos.zombies import zombie_appears, zombie_melee, zombie_wound

K = TypeVar("K")


class BastosOutcome(BaseModel):
    id: str
    label: str
    probability: Probability
    decimal: float = Field(description="The same, rounded to 4 places.")


class BastosOddsAnswer(BaseModel):
    test: str
    name: str
    source: str
    outcomes: list[BastosOutcome] = Field(description="Every outcome; they add up to 1.")
    details: list[BastosOutcome] = Field(description="Other chances worth showing.")
    issues: list[Issue]


MORE_LABELS = {
    "2": "2 réussites",
    "1": "1 réussite",
    "0": "Aucune réussite",
    "acts_first": "Active en premier",
    "acts_second": "Active en second",
    "acts": "Peut être activée",
    "tied_out": "Égalité : ne joue pas ce tour",
    "cannot_act": "Dé d'activation supérieur à la Rep",
    "miss": "Raté",
    "hit": "Touché (par dé)",
    "dead": "Raide Mort",
    "stunned": "Sonné",
    "jam": "Chargeur vide ou arme enrayée",
    "no_jam": "Pas d'enrayage",
    "no_result": "RAS",
    "win_by_2": "Deux réussites de plus",
    "win_by_1": "Une réussite de plus",
    "tie": "Même nombre de réussites",
    "lose_by_1": "Une réussite de moins",
    "lose_by_2": "Deux réussites de moins",
    "killed": "Zombie tué",
    "knocked_down": "Zombie stoppé net et renversé",
    "no_effect": "Sans effet",
    "human_wins": "L'humain a plus de réussites",
    "zombies_win": "Les zombies ont plus de réussites : l'humain est renversé",
    "appears": "Un nouveau zombie apparaît",
    "none": "Pas de nouveau zombie",
}
for _side, _who in (("opponent", "Adversaire"), ("figure", "Figurine")):
    MORE_LABELS |= {
        f"{_side}_dead": f"{_who} : Raide Mort",
        f"{_side}_out_of_action": f"{_who} : Hors de Combat",
        f"{_side}_stunned": f"{_who} : Sonné",
    }
MORE_LABELS |= {f"hits_{n}": f"{n} touché(s) sur le tir" for n in range(4)}


def outcomes(odds: Mapping[K, Fraction]) -> list[BastosOutcome]:
    result = []
    for key, value in odds.items():
        name = str(key)
        label = LABELS.get(name) or MORE_LABELS[name]
        result.append(
            BastosOutcome(
                id=name, label=label, probability=fraction_text(value), decimal=decimal(value)
            )
        )
    return result


def _answer(query: Query, name: str, source: str, main: Mapping[K, Fraction]) -> BastosOddsAnswer:
    test = str(getattr(query, "test", ""))
    return BastosOddsAnswer(
        test=test, name=name, source=source, outcomes=outcomes(main), details=[], issues=[]
    )


def _impact(catalogue: Catalogue, weapon_id: str | None) -> int:
    """Rules notes: an unarmed figure strikes with the Arme de corps à corps' Impact."""
    return catalogue.weapon(weapon_id or "corps_a_corps").impact


def _fighter(catalogue: Catalogue, side: BastosMeleeSide) -> Fighter:
    return Fighter(
        rep=side.rep,
        impact=_impact(catalogue, side.weapon),
        leader_die=side.leader,
        enemies_in_contact=side.enemies_in_contact,
        flank_first_round=side.flank_first_round,
    )


def _shooting(catalogue: Catalogue, query: BastosShootingQuery) -> BastosOddsAnswer:
    weapon: Weapon = catalogue.weapon(query.weapon)
    answer = _answer(query, "Tir", "L115-152", {})
    if weapon.rate is None:
        answer.issues.append(
            error("weapon_cannot_shoot", f"{weapon.name} : pas de Taux, pas de tir.", "weapon")
        )
        return answer
    dice = query.dice or weapon.rate
    if dice > weapon.rate:
        answer.issues.append(
            error("dice_over_rate", f"{weapon.name} : {weapon.rate} dé(s) au plus (L73).", "dice")
        )
    target = Target(query.cover, query.prone, query.fast_move, query.target_rank)
    per_die = shot_outcome(query.rep, target, weapon.impact)
    answer.outcomes = outcomes(per_die)
    answer.details = outcomes({"hit": 1 - per_die["miss"]})
    answer.details += outcomes({f"hits_{n}": p for n, p in volley(query.rep, dice, target).items()})
    answer.details += outcomes({"jam": jam_chance(dice)})
    return answer


def odds(catalogue: Catalogue, query: OddsQuery) -> BastosOddsAnswer:
    """The exact chances of one test, for one figure in one situation."""
    if isinstance(query, BastosRepTestQuery):
        return _answer(
            query, "Test de Rep", "L80", rep_test(query.rep, leader_die=query.leader_die)
        )
    if isinstance(query, BastosActivationQuery):
        if query.players == 2:
            return _answer(query, "Activation", "L73", activation(query.rep))
        chances = activation_many_players(query.rep, query.players)
        return _answer(query, "Activation (Beaucoup de joueurs)", "L282", chances)
    if isinstance(query, BastosReactionQuery):
        table = TABLES[query.test]
        situation = Situation(**{f.name: getattr(query, f.name) for f in fields(Situation)})
        chances = reaction(
            query.test,
            query.rep,
            situation,
            leader=query.leader,
            star=query.star,
            activated_by_leader=query.activated_by_leader,
        )
        return _answer(query, table.name, table.source, chances)
    if isinstance(query, BastosShootingQuery):
        return _shooting(catalogue, query)
    if isinstance(query, BastosWoundQuery):
        return _answer(query, "Blessure", "L140-150", wound(catalogue.weapon(query.weapon).impact))
    if isinstance(query, BastosJamQuery):
        jam = jam_chance(query.dice)
        return _answer(query, "Munitions", "L152", {"jam": jam, "no_jam": 1 - jam})
    if isinstance(query, BastosMeleeQuery):
        figure, opponent = _fighter(catalogue, query.figure), _fighter(catalogue, query.opponent)
        answer = _answer(query, "Corps à corps", "L209-222", melee_effects(figure, opponent))
        answer.details = outcomes(melee(figure, opponent))
        return answer
    if isinstance(query, BastosZombieWoundQuery):
        impact = catalogue.weapon(query.weapon).impact
        chances = zombie_wound(query.rep, impact, query.case)
        return _answer(query, "Tirer sur un zombie", "L289", chances)
    if isinstance(query, BastosZombieMeleeQuery):
        impact = _impact(catalogue, query.weapon)
        chances = zombie_melee(query.rep, query.zombies, impact)
        return _answer(query, "Corps à corps contre des zombies", "L289", chances)
    appears = zombie_appears(query.infestation)
    return _answer(
        query, "Génération de zombies", "L289", {"appears": appears, "none": 1 - appears}
    )
