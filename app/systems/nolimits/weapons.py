"""No Limits weapons: what a weapon is (L144-193, L239-249) and its price (note 1).

Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from dataclasses import dataclass

from pydantic import BaseModel, Field

from app.systems.base import CostLine
from app.systems.nolimits.catalogue import Catalogue, Weapon, WeaponPricing
from app.systems.nolimits.models import BANDS, Band, NolimitsHouseRule, NolimitsWeaponBase
from app.systems.nolimits.rules import armour_modifier


@dataclass(frozen=True)
class RuleSpec:
    id: str | None
    name: str
    points: int
    house: bool


class WeaponSpec(Weapon):
    """A weapon profile as priced: printed (`id` set) or the player's own, its special
    rules looked up (a house rule at the player's price)."""

    id: str | None = None  # type: ignore[assignment]
    source: str = ""
    rules: tuple[RuleSpec, ...] = ()  # type: ignore[assignment]

    @property
    def bands(self) -> list[tuple[str, Band]]:
        return [(name, band) for name in BANDS if (band := getattr(self, name))]

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


def weapon_spec(catalogue: Catalogue, weapon: str | NolimitsWeaponBase) -> WeaponSpec:
    """The profile of a catalogue weapon id, or of an inline weapon."""
    if isinstance(weapon, str):
        printed = catalogue.weapon(weapon)
        rules = [catalogue.weapon_rule(rule_id) for rule_id in printed.rules]
        return WeaponSpec(
            **printed.model_dump(exclude={"rules"}),
            rules=tuple(RuleSpec(rule.id, rule.name, rule.points, house=False) for rule in rules),
        )
    specs = []
    for rule in weapon.rules:
        if isinstance(rule, NolimitsHouseRule):
            specs.append(RuleSpec(None, rule.name, rule.points, house=True))
        else:
            printed_rule = catalogue.weapon_rule(rule)
            specs.append(RuleSpec(printed_rule.id, printed_rule.name, printed_rule.points, False))
    return WeaponSpec(**weapon.model_dump(exclude={"rules"}), rules=tuple(specs))


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def band_text(band: Band) -> str:
    return f"{band[0]}/{signed(band[1])}"


class Lines(list[CostLine]):
    """A breakdown being written: zero lines are left out."""

    def add(self, line_id: str, label: str, points: int) -> None:
        if points:
            self.append(CostLine(id=line_id, label=label, points=points))

    def times(
        self, line_id: str, label: str, count: int, price: int, *, sign: bool = False
    ) -> None:
        """`count` × `price`, the count shown as in "FO 6 (+2 × 3)"."""
        self.add(line_id, f"{label} ({signed(count) if sign else count} × {price})", count * price)

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
    lines.times("FO", f"FO {spec.FO}", above, ranged.strength.points, sign=True)
    reach = sum(band[0] for _name, band in spec.bands)
    steps = reach // ranged.range.inches
    lines.times("portee", f"Portées {reach} pas", steps, ranged.range.points)
    modifiers = sum(band[1] for _name, band in spec.bands)
    lines.add(
        "modificateurs",
        f"Modificateurs {signed(modifiers)} (× {ranged.modifier.points})",
        modifiers * ranged.modifier.points,
    )
    if not on_vehicle and spec.CU is not None:
        below = ranged.use_cost.reference - spec.CU
        lines.times("CU", f"CU {spec.CU}", below, ranged.use_cost.points, sign=True)
    return lines


def _melee_lines(prices: WeaponPricing, spec: WeaponSpec, on_vehicle: bool) -> Lines:
    melee, lines = prices.melee, Lines()
    bonus = spec.FO - melee.strength.reference
    lines.times("FO", f"Bonus de FO {signed(spec.FO)}", bonus, melee.strength.points)
    if not on_vehicle and spec.CU is not None:
        expected = melee_cu(prices, spec)
        label = f"CU {spec.CU} pour {expected}"
        lines.times("CU", label, expected - spec.CU, melee.use_cost.points, sign=True)
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
    lines.times(
        "CdA", f"CdA {spec.CdA}", spec.CdA - prices.attacks.reference, prices.attacks.points
    )
    lines.times("DG", f"DG {spec.DG}", spec.DG - prices.damage.reference, prices.damage.points)
    label = f"Modificateur de pénétration {signed(spec.MPA)}"
    lines.times("MPA", label, -spec.MPA, prices.penetration.points)
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
