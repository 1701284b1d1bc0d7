"""Infinity N2: what one trooper option costs and brings to the table.

Pure functions over the catalogue. Line numbers (Lnn) refer to
shared/rules/infinity-n2.fr.txt; decisions are in docs/rules-notes.md ("Infinity").
"""

from fractions import Fraction

from pydantic import BaseModel, Field

from app.systems.base import Costed, CostLine, Issue, error
from app.systems.infinity.catalogue import Catalogue, Rules
from app.systems.infinity.models import (
    AD_COMBAT_JUMP,
    HACKER,
    MEDIC_SKILLS,
    MINES,
    REPETEUR_DEPLOYABLE,
    InfinityCostRequest,
    InfinityTrooper,
    InfinityTrooperOption,
    Orders,
    SwcTotal,
    swc_fraction,
)


class InfinityTrooperDerived(BaseModel):
    """What one trooper of an option brings: SWC, command, orders, deployables."""

    unit: str
    option: str
    orders: Orders | None = Field(description="null only when the unit is unknown.")
    impetuous: bool
    ava: int | None = Field(description="Availability; null for Total (L79) or unknown.")
    swc: SwcTotal = Field(description="SWC of one trooper of this option (L81).")
    lieutenant: bool = Field(description="The option is a Lieutenant option (L83).")
    airborne: bool = Field(description="AD: Combat Jump (L19-20).")
    medic: bool = Field(description="Docteur (L131) or Paramédical (L135).")
    hacker: bool
    mines: int = Field(description="Mines carried by one trooper (L117: 3 each).")
    repeaters: int = Field(description="Deployable repeaters of one trooper (L141: 3 each).")


class InfinityTrooperCost(Costed[InfinityTrooperDerived]):
    """The `cost` answer: one option's printed points (one line) and what it brings."""


def swc_available(rules: Rules, army_points: int) -> int:
    """L81 « Chaque tranche de 50 points d'armée donne 1 point de SWC »: whole tranches only
    (299 -> 5, 300 -> 6, 301 -> 6)."""
    return army_points // rules.points_per_swc


def swc_text(value: Fraction | float) -> str:
    """A SWC figure as a French reader writes it: 6, 6,5."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}".replace(".", ",")


def trooper_derived(
    rules: Rules, trooper: InfinityTrooper, option: InfinityTrooperOption | None, option_id: str
) -> InfinityTrooperDerived:
    """What one trooper brings; an unknown option (None) brings no SWC and no equipment."""
    skills = set(trooper.skills)
    equipment = set(option.equipment) if option is not None else set()
    return InfinityTrooperDerived(
        unit=trooper.id,
        option=option_id,
        orders=trooper.orders,
        impetuous=trooper.impetuous,
        ava=trooper.ava,
        swc=float(swc_fraction(option.swc)) if option is not None else 0.0,
        lieutenant=option is not None and option.lieutenant,
        airborne=AD_COMBAT_JUMP in skills,
        medic=bool(skills & MEDIC_SKILLS),
        hacker=HACKER in skills,
        mines=rules.mines_per_trooper if MINES in equipment else 0,
        repeaters=rules.repeaters_per_trooper if REPETEUR_DEPLOYABLE in equipment else 0,
    )


def unknown_option(trooper: InfinityTrooper, option_id: str, path: str) -> Issue:
    known = ", ".join(option.id for option in trooper.options)
    return error(
        "unknown_option",
        f"{trooper.name} n'a pas d'option « {option_id} » (options : {known}).",
        path,
    )


def duplicate_option_issues(trooper: InfinityTrooper, where: str) -> list[Issue]:
    """Two options of one trooper with one id: the first counts (decision 15)."""
    issues = []
    seen: set[str] = set()
    for index, option in enumerate(trooper.options):
        if option.id in seen:
            issues.append(
                error(
                    "duplicate_option",
                    f"{trooper.name} : deux options ont l'identifiant « {option.id} » : seule "
                    "la première compte.",
                    f"{where}.options[{index}].id",
                )
            )
        seen.add(option.id)
    return issues


def cost_line(trooper: InfinityTrooper, option: InfinityTrooperOption) -> CostLine:
    label = f"{trooper.name} : {option.name}"
    if option.swc:
        label += f" (SWC {swc_text(option.swc)})"
    return CostLine(id=option.id, label=label, points=option.points)


def cost_trooper(catalogue: Catalogue, request: InfinityCostRequest) -> InfinityTrooperCost:
    """One trooper of one option: its printed points (one line) and what it brings."""
    trooper = request.unit
    option = trooper.option(request.option)
    derived = trooper_derived(catalogue.rules, trooper, option, request.option)
    duplicates = duplicate_option_issues(trooper, "unit")
    if option is None:
        issues = [*duplicates, unknown_option(trooper, request.option, "option")]
        return InfinityTrooperCost(points=0, breakdown=[], derived=derived, issues=issues)
    return InfinityTrooperCost(
        points=option.points,
        breakdown=[cost_line(trooper, option)],
        derived=derived,
        issues=duplicates,
    )


class InfinityEntryDerived(InfinityTrooperDerived):
    """A roster entry: one trooper's figures, where the entry stands, and its SWC in all."""

    group: int = Field(description="Combat group (L85).")
    reserve: bool = Field(description="Held off the table at deployment (L20).")
    swc_total: SwcTotal = Field(description="SWC of the whole entry (count × swc).")


class InfinitySwcTotals(BaseModel):
    used: SwcTotal = Field(description="Sum of the entries' SWC, exact (L81, L83).")
    available: int = Field(
        description="floor(points_limit / 50) (L81); without a points limit, floor(points / 50)."
    )


class InfinityGroupOrders(BaseModel):
    """The orders of one combat group, which has its own Réserve d'Ordres (L85)."""

    group: int
    troopers: int
    pool: int = Field(description="One order per regular trooper (L14).")
    pool_at_deployment: int = Field(
        description="The pool without regular troopers held in reserve (L20)."
    )
    irregular_orders: int = Field(description="One per irregular, outside the pool (L14).")
    impetuous_orders: int = Field(description="One extra per impetuous, outside the pool (L45).")


class InfinityAvaLine(BaseModel):
    """How many troopers of one type the list fields, against its AVA (L76, L79)."""

    unit: str
    name: str
    troopers: int
    ava: int | None


class InfinityRosterDerived(BaseModel):
    swc: InfinitySwcTotals
    troopers: int
    groups: list[InfinityGroupOrders] = Field(description="In increasing group order.")
    lieutenant: str | None = Field(description="The Lieutenant's name when there is exactly one.")
    ava_enforced: bool = Field(description="False for an introductory game (extras.ava).")
    availability: list[InfinityAvaLine]
    mines: int = Field(description="Mines of the whole list (3 per carrier, L117).")
    repeaters: int = Field(description="Deployable repeaters of the list (3 per carrier, L141).")
    hackers: int
    medics: int = Field(description="Docteurs and Paramédicaux (L130).")
