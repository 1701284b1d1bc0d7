"""The shape of `data/systems/nolimits/pricing.toml`: Caserne's points system for No Limits.

Every coefficient carries its reason (docs/nolimits-points.md explains them). Prices per
point are never negative, so that raising a characteristic, CdA, FO, DG or a range never
lowers a cost and raising a CU never raises it (the monotonicity the tests check).
"""

from typing import get_args

from pydantic import BaseModel, ConfigDict, Field

from app.systems.nolimits.definition import Characteristic, SizeId


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Reasoned(Strict):
    reason: str = Field(min_length=1)
    source: str = ""


class Points(Reasoned):
    """A flat price."""

    points: int


class PerPoint(Reasoned):
    """`points` for each point above `reference` (a credit below it)."""

    reference: int = 0
    points: int = Field(ge=0)


class PerInches(Reasoned):
    """`points` for each full `inches` inches."""

    inches: int = Field(ge=1)
    points: int = Field(ge=0)


class MeleeUseCost(Reasoned):
    """A melee CU is expected at `base` + FO bonus (L124, L171); `points` per AC below it."""

    base: int
    points: int = Field(ge=0)


class CharacteristicPrice(Reasoned):
    code: Characteristic
    name: str
    baseline: int = Field(ge=0)
    points: int = Field(ge=0)


class RangedPricing(Strict):
    strength: PerPoint
    range: PerInches
    modifier: PerPoint
    use_cost: PerPoint = Field(description="(reference - CU) x points: a cheaper CU costs more.")


class MeleePricing(Strict):
    strength: PerPoint
    use_cost: MeleeUseCost


class WeaponPricing(Strict):
    ranged: RangedPricing
    melee: MeleePricing
    attacks: PerPoint = Field(description="CdA above the reference.")
    damage: PerPoint = Field(description="DG above the reference.")
    penetration: PerPoint = Field(description="Per point of MPA (printed negative).")
    floor: Points = Field(description="The least a weapon can cost.")


class SizePrice(Reasoned):
    size: SizeId
    percent: int = Field(ge=0, le=1000, description="Of the profile part of the cost.")


class VehiclePricing(Reasoned):
    weapon_percent: int = Field(ge=0, le=1000, description="Of each vehicle-mounted weapon.")
    passenger: Points


class Pricing(Strict):
    version: str
    model: Points = Field(description="A model at the baseline profile.")
    model_floor: Points = Field(description="The least a model (with its gear) can cost.")
    characteristics: list[CharacteristicPrice]
    weapons: WeaponPricing
    sizes: list[SizePrice]
    vehicle: VehiclePricing

    def characteristic(self, code: str) -> CharacteristicPrice:
        return next(c for c in self.characteristics if c.code == code)

    def size_percent(self, size: str) -> int:
        return next(s.percent for s in self.sizes if s.size == size)

    def problems(self) -> list[str]:
        problems = []
        codes = [c.code for c in self.characteristics]
        if sorted(codes) != sorted(get_args(Characteristic)):
            problems.append(
                "pricing.characteristics: price exactly AC CT CC FO EN PV CO SV, once each"
            )
        sizes = [s.size for s in self.sizes]
        if sorted(sizes) != sorted(get_args(SizeId)):
            problems.append("pricing.sizes: price each size category once")
        if self.weapons.floor.points < 0:
            problems.append("pricing.weapons.floor: a weapon cannot lower a model's cost")
        return problems
