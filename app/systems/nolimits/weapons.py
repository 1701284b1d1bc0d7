"""No Limits weapons: what a weapon is (L144-193, L239-249), its price, its guideline warnings.

Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from dataclasses import dataclass

from pydantic import BaseModel, Field

from app.systems.base import CostLine
from app.systems.nolimits.catalogue import Catalogue, Weapon
from app.systems.nolimits.definition import NolimitsHouseRule, NolimitsWeaponBase
from app.systems.nolimits.pricing_data import WeaponPricing
from app.systems.nolimits.rules import armour_modifier

Band = tuple[int, int]


@dataclass(frozen=True)
class RuleSpec:
    id: str | None
    name: str
    points: int
    house: bool


@dataclass(frozen=True)
class WeaponSpec:
    """A weapon profile, printed (`id` set) or the player's own."""

    id: str | None
    name: str
    melee: bool
    type: str | None
    mounted: bool
    CU: int | None
    PC: Band | None
    PI: Band | None
    PL: Band | None
    CdA: int
    FO: int
    DG: int
    MPA: int
    rules: tuple[RuleSpec, ...]

    @property
    def bands(self) -> list[tuple[str, Band]]:
        return [(n, b) for n, b in (("PC", self.PC), ("PI", self.PI), ("PL", self.PL)) if b]

    @property
    def reach(self) -> int:
        return max((band[0] for _name, band in self.bands), default=0)


class NolimitsWeaponDerived(BaseModel):
    """A weapon as the table uses it, with its price."""

    id: str | None = Field(description="Catalogue id; null for the player's own weapon.")
    name: str
    melee: bool
    type: str | None
    mounted: bool = Field(description="On a vehicle: no CU, fires once per activation (L241).")
    CU: int | None = Field(description="AC per use; null on a vehicle (L241).")
    PC: Band | None
    PI: Band | None
    PL: Band | None
    CdA: int
    FO: int = Field(description="The attack's strength; melee: the wielder's FO + the bonus.")
    FO_bonus: int | None = Field(description="Melee weapons: the printed bonus (L170).")
    MA: int = Field(description="Modificateur d'armure of that strength (L172-176).")
    MPA: int
    DG: int
    rules: list[str]
    points: int
    breakdown: list[CostLine]


def weapon_spec(catalogue: Catalogue, weapon: "str | NolimitsWeaponBase") -> WeaponSpec:
    """The profile of a catalogue weapon id, or of an inline weapon."""
    if isinstance(weapon, str):
        printed: Weapon = catalogue.weapon(weapon)
        rules = tuple(
            RuleSpec(rule.id, rule.name, rule.points, house=False)
            for rule in (catalogue.weapon_rule(rule_id) for rule_id in printed.rules)
        )
        return WeaponSpec(
            **printed.model_dump(
                include={"id", "name", "melee", "type", "mounted", "CU", "PC", "PI", "PL"}
                | {"CdA", "FO", "DG", "MPA"}
            ),
            rules=rules,
        )
    specs = []
    for rule in weapon.rules:
        if isinstance(rule, NolimitsHouseRule):
            specs.append(RuleSpec(None, rule.name, rule.points, house=True))
        else:
            printed_rule = catalogue.weapon_rule(rule)
            specs.append(RuleSpec(printed_rule.id, printed_rule.name, printed_rule.points, False))
    return WeaponSpec(
        id=None,
        **weapon.model_dump(
            include={"name", "melee", "type", "CU", "PC", "PI", "PL", "CdA", "FO", "DG", "MPA"}
        ),
        mounted=False,
        rules=tuple(specs),
    )


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def band_text(band: Band) -> str:
    return f"{band[0]}/{signed(band[1])}"


class Lines(list[CostLine]):
    """A breakdown being written: zero lines are left out."""

    def add(self, line_id: str, label: str, points: int) -> None:
        if points:
            self.append(CostLine(id=line_id, label=label, points=points))

    @property
    def total(self) -> int:
        return sum(line.points for line in self)


def melee_cu(prices: WeaponPricing, spec: WeaponSpec) -> int:
    """'Une attaque de corps à corps basique coûtera trois points d'action' (L124), 'pour
    chaque point de bonus de force ... le coût d'utilisation ... augmente d'autant' (L171)."""
    return prices.melee.use_cost.base + spec.FO


def _ranged_lines(prices: WeaponPricing, spec: WeaponSpec, on_vehicle: bool) -> Lines:
    ranged, lines = prices.ranged, Lines()
    above = spec.FO - ranged.strength.reference
    lines.add(
        "FO",
        f"FO {spec.FO} ({signed(above)} × {ranged.strength.points})",
        above * ranged.strength.points,
    )
    reach = sum(band[0] for _name, band in spec.bands)
    steps = reach // ranged.range.inches
    lines.add(
        "portee",
        f"Portées {reach} pas ({steps} × {ranged.range.points})",
        steps * ranged.range.points,
    )
    modifiers = sum(band[1] for _name, band in spec.bands)
    lines.add(
        "modificateurs",
        f"Modificateurs {signed(modifiers)} (× {ranged.modifier.points})",
        modifiers * ranged.modifier.points,
    )
    if not on_vehicle and spec.CU is not None:
        below = ranged.use_cost.reference - spec.CU
        lines.add(
            "CU",
            f"CU {spec.CU} ({signed(below)} × {ranged.use_cost.points})",
            below * ranged.use_cost.points,
        )
    return lines


def _melee_lines(prices: WeaponPricing, spec: WeaponSpec, on_vehicle: bool) -> Lines:
    melee, lines = prices.melee, Lines()
    bonus = spec.FO - melee.strength.reference
    lines.add(
        "FO",
        f"Bonus de FO {signed(spec.FO)} ({bonus} × {melee.strength.points})",
        bonus * melee.strength.points,
    )
    if not on_vehicle and spec.CU is not None:
        expected = melee_cu(prices, spec)
        below = expected - spec.CU
        lines.add(
            "CU",
            f"CU {spec.CU} pour {expected} ({signed(below)} × {melee.use_cost.points})",
            below * melee.use_cost.points,
        )
    return lines


def price_weapon(
    prices: WeaponPricing,
    vehicle_percent: int,
    spec: WeaponSpec,
    *,
    on_vehicle: bool,
    wielder_fo: int,
) -> NolimitsWeaponDerived:
    """The weapon's price: its attributes added (note 1), floored, times the vehicle factor;
    house rules last, at the price the player set."""
    lines = (_melee_lines if spec.melee else _ranged_lines)(prices, spec, on_vehicle)
    extra = spec.CdA - prices.attacks.reference
    lines.add(
        "CdA", f"CdA {spec.CdA} ({extra} × {prices.attacks.points})", extra * prices.attacks.points
    )
    extra = spec.DG - prices.damage.reference
    lines.add(
        "DG", f"DG {spec.DG} ({extra} × {prices.damage.points})", extra * prices.damage.points
    )
    lines.add(
        "MPA",
        f"Modificateur de pénétration {signed(spec.MPA)} "
        f"({-spec.MPA} × {prices.penetration.points})",
        -spec.MPA * prices.penetration.points,
    )
    for rule in spec.rules:
        if not rule.house:
            lines.add(f"regle_{rule.id}", rule.name, rule.points)
    floor = prices.floor.points
    lines.add("plancher", "Plancher d'une arme", max(0, floor - lines.total))
    if on_vehicle:
        subtotal = lines.total
        lines.add(
            "vehicule",
            f"Arme montée sur véhicule ({vehicle_percent} %)",
            subtotal * vehicle_percent // 100 - subtotal,
        )
    for index, rule in enumerate(spec.rules):
        if rule.house:
            lines.add(f"regle_maison_{index}", f"Règle maison : {rule.name}", rule.points)
    strength = wielder_fo + spec.FO if spec.melee else spec.FO
    cu = spec.CU if spec.CU is not None or not spec.melee else melee_cu(prices, spec)
    return NolimitsWeaponDerived(
        id=spec.id,
        name=spec.name,
        melee=spec.melee,
        type=spec.type,
        mounted=on_vehicle,
        CU=None if on_vehicle else cu,
        PC=spec.PC,
        PI=spec.PI,
        PL=spec.PL,
        CdA=spec.CdA,
        FO=strength,
        FO_bonus=spec.FO if spec.melee else None,
        MA=armour_modifier(strength),
        MPA=spec.MPA,
        DG=spec.DG,
        rules=[rule.name for rule in spec.rules],
        points=lines.total,
        breakdown=list(lines),
    )
