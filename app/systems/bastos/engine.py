"""A Bastos figure and its sheet: no points, the odds of every test it will roll instead.

Pure functions over the catalogue. Lnnn = line of
shared/rules/pour-quelques-bastos-de-plus.fr.txt; decisions in docs/rules-notes.md.
"""

from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.systems.base import INPUT, Between, CatalogueId, Costed, Issue, error, warning
from app.systems.bastos.catalogue import WEAPON_IDS, Catalogue, Weapon
from app.systems.bastos.dice import (
    Probability,
    activation,
    activation_chance,
    as_text,
    fraction_text,
    rep_test,
)
from app.systems.bastos.melee import Fighter, Margin, melee
from app.systems.bastos.reactions import reaction, stunned_recovery
from app.systems.bastos.shooting import Target, WoundResult, hit_chance, jam_chance, wound

# Weapon ids are fixed by api-v1.md; an unknown id is refused with code "unknown_id".
WeaponRef = Annotated[str, CatalogueId(WEAPON_IDS, "weapon")]

RepOutcome = Literal["2", "1", "0"]
TargetCase = Literal[
    "open", "open_second_target", "open_third_target", "prone", "fast_move", "cover"
]
TARGET_CASES: dict[TargetCase, Target] = {
    "open": Target(),
    "open_second_target": Target(rank=2),
    "open_third_target": Target(rank=3),
    "prone": Target(prone=True),
    "fast_move": Target(fast_move=True),
    "cover": Target(cover=True),
}
MELEE_OPPONENTS = (3, 4, 5)  # the Reps L11 describes


class BastosFigure(BaseModel):
    """A figure (api-v1.md, "### bastos"): one number, two flags, the weapon it carries."""

    model_config = INPUT

    rep: Annotated[int, Between(-100, 100)] = Field(
        description="Réputation (L11); outside 1-6 the figure is kept and flagged invalid_rep."
    )
    leader: bool = Field(False, description="Can activate a group (L11, L73); rolls the DL (L80).")
    star: bool = Field(False, description="Stands for the player; chooses some reactions (L11).")
    weapon: WeaponRef | None = Field(
        description="The weapon the miniature carries (L3); null when unarmed (L166)."
    )


class BastosWeaponOut(BaseModel):
    """A catalogue weapon as the API shows it: null where the table prints « - »."""

    model_config = ConfigDict(validate_by_name=True, serialize_by_alias=True)

    id: str
    name: str
    range_cm: int | None
    rate: int | None
    spread_cm: float | None
    impact: int
    class_: int | None = Field(alias="class")


class BastosFigureDerived(BaseModel):
    """What the figure's sheet shows instead of a cost; probabilities are exact fractions."""

    rep: int
    leader: bool
    star: bool
    rep_label: str | None = Field(description="« Vétéran », « Fiable », « Bleu » (L11).")
    rep_test: dict[RepOutcome, Probability] = Field(
        description="Successes of its own Rep test: 2 dice, or the leader die for a leader (L80)."
    )
    rep_test_two_dice: dict[RepOutcome, Probability]
    rep_test_leader_die: dict[RepOutcome, Probability] = Field(
        description="3 dice, 2 successes at most (L80)."
    )
    activation: Probability = Field(description="Its side's activation die is at most its Rep.")
    activation_order: dict[Literal["acts_first", "acts_second", "cannot_act"], Probability]
    weapon: BastosWeaponOut | None
    shooting: dict[TargetCase, Probability] | None = Field(
        description="Chance to hit per die, by target (L115-138)."
    )
    shooting_rep_minus_1: dict[TargetCase, Probability] | None = Field(
        description="The same when it fires at Rep -1 (L103, L156, L160)."
    )
    wound: dict[WoundResult, Probability] | None = Field(
        description="What one hit of its weapon does (L140-150)."
    )
    jam_at_full_rate: Probability | None = Field(description="Two natural 1s or more (L152).")
    melee: dict[str, dict[Margin, Probability]] = Field(
        description="One round against a Rep 3, 4 or 5 figure without leader die (L209-222)."
    )
    stunned_recovery: dict[Literal["back_in_the_fight", "out_of_action"], Probability]
    end_of_game_recovery: dict[str, Probability] = Field(
        description="Out of action at the end of the game (L238-248)."
    )


class BastosFigureCost(Costed[BastosFigureDerived]):
    """The calculator's answer for one figure: no points, its sheet in `derived`."""


def weapon_out(weapon: Weapon) -> BastosWeaponOut:
    return BastosWeaponOut.model_validate(weapon.model_dump(exclude={"source", "reference_source"}))


def figure_issues(figure: BastosFigure) -> list[Issue]:
    """Rep 1-6 (L80 tests a d6 against it); the text describes 3 to 5 and mentions 6 (L11)."""
    if not 1 <= figure.rep <= 6:
        return [
            error(
                "invalid_rep",
                f"Rep {figure.rep} : la Rep va de 1 à 6 (un test réussit quand le dé est "
                "inférieur ou égal à la Rep, L80).",
                "rep",
            )
        ]
    if figure.rep == 6:
        return [
            warning(
                "unusual_rep",
                "Rep 6 : le texte décrit les Rep 3 à 5 (L11) ; une figurine de Rep 6 réussit "
                "tous ses tests.",
                "rep",
            )
        ]
    return []


def _rep_text(odds: dict[int, Fraction]) -> dict[RepOutcome, str]:
    return {"2": fraction_text(odds[2]), "1": fraction_text(odds[1]), "0": fraction_text(odds[0])}


@lru_cache(maxsize=1024)
def _shooting(rep: int) -> dict[TargetCase, str]:
    return {case: fraction_text(hit_chance(rep, target)) for case, target in TARGET_CASES.items()}


@lru_cache(maxsize=1024)
def _melee(rep: int, leader: bool) -> dict[str, dict[Margin, str]]:
    figure = Fighter(rep=rep, leader_die=leader)
    return {
        str(other): {m: fraction_text(p) for m, p in melee(figure, Fighter(rep=other)).items()}
        for other in MELEE_OPPONENTS
    }


# Sheets already made, per catalogue (its id, checked against the catalogue kept beside):
# a figure's sheet is a function of its four fields, and a band repeats them; a save of a
# 50-figure band made 50 sheets of exact fractions (~0.1 ms each, issue 19). Sheets are
# never changed once made. Bounded: emptied when full.
_SHEETS: dict[tuple[int, int, bool, bool, str | None], tuple[Catalogue, BastosFigureDerived]] = {}
SHEETS_MAX = 4096


def figure_derived(catalogue: Catalogue, figure: BastosFigure) -> BastosFigureDerived:
    """The figure's sheet (rules notes: leader die, stars, tir désespéré)."""
    key = (id(catalogue), figure.rep, figure.leader, figure.star, figure.weapon)
    made = _SHEETS.get(key)
    if made is not None and made[0] is catalogue:
        return made[1]
    sheet = _figure_sheet(catalogue, figure)
    if len(_SHEETS) >= SHEETS_MAX:
        _SHEETS.clear()
    _SHEETS[key] = (catalogue, sheet)
    return sheet


def _figure_sheet(catalogue: Catalogue, figure: BastosFigure) -> BastosFigureDerived:
    rep, leader = figure.rep, figure.leader
    weapon = catalogue.weapon(figure.weapon) if figure.weapon is not None else None
    shoots = weapon is not None and weapon.rate is not None
    level = catalogue.rep_level(rep)
    two_dice, leader_die = rep_test(rep), rep_test(rep, leader_die=True)
    return BastosFigureDerived(
        rep=rep,
        leader=leader,
        star=figure.star,
        rep_label=level.name if level else None,
        rep_test=_rep_text(leader_die if leader else two_dice),
        rep_test_two_dice=_rep_text(two_dice),
        rep_test_leader_die=_rep_text(leader_die),
        activation=fraction_text(activation_chance(rep)),
        activation_order=as_text(activation(rep)),
        weapon=weapon_out(weapon) if weapon else None,
        shooting=_shooting(rep) if shoots else None,
        shooting_rep_minus_1=_shooting(rep - 1) if shoots else None,
        wound=as_text(wound(weapon.impact)) if weapon else None,
        jam_at_full_rate=(
            fraction_text(jam_chance(weapon.rate)) if weapon and weapon.rate else None
        ),
        melee=_melee(rep, leader),
        stunned_recovery=as_text(stunned_recovery(rep, leader_die=leader)),
        end_of_game_recovery=as_text(
            reaction("end_of_game_recovery", rep, leader=leader, star=figure.star)
        ),
    )


def cost_figure(catalogue: Catalogue, figure: BastosFigure) -> BastosFigureCost:
    """The calculator's answer: points 0, no breakdown (no points in Bastos), the sheet."""
    return BastosFigureCost(
        points=0,
        breakdown=[],
        derived=figure_derived(catalogue, figure),
        issues=figure_issues(figure),
    )
