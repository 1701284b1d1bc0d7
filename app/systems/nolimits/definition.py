"""What a player sends to cost a No Limits unit (api-v1.md, "nolimits unit definition").

Static base models describe the shape; `definition_models` narrows the catalogue references
(weapon, weapon rule and ability ids) to the ids the catalogue defines, so an unknown id is
refused with code `unknown_id`. Lnnn = line of shared/rules/no-limits.fr.txt.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Strict, Tag, create_model

from app.systems.base import NO_NUL, catalogue_id, integer

Characteristic = Literal["AC", "CT", "CC", "FO", "EN", "PV", "CO", "SV"]
SizeId = Literal["petite", "moyenne", "grande", "tres_grande"]
WeaponType = Literal["pistolet", "fusil", "automatique", "lourde"]
VehicleType = Literal["roues", "chenilles", "antigrav", "marcheur", "volant"]

Stat = integer(0, 20)
if TYPE_CHECKING:
    Band = tuple[int, int]
else:
    # "PC 10/+1": the band's greatest distance in inches, then the CT modifier (L157-162).
    # A JSON array; each number strict (no "10", no true), the pair read from a list.
    Band = Annotated[
        tuple[Annotated[integer(0, 200), Strict()], Annotated[integer(-10, 10), Strict()]],
        Strict(False),
    ]

INPUT = ConfigDict(strict=True, extra="forbid")


class NolimitsProfile(BaseModel):
    """The eight characteristics (L113, L122-143)."""

    model_config = INPUT

    AC: Stat = Field(description="Points d'actions (L122-124).")  # type: ignore[valid-type]
    CT: Stat = Field(description="Compétence de tir (L125-128).")  # type: ignore[valid-type]
    CC: Stat = Field(description="Corps à corps (L129-131).")  # type: ignore[valid-type]
    FO: Stat = Field(description="Force (L132-133).")  # type: ignore[valid-type]
    EN: Stat = Field(description="Endurance (L134-135).")  # type: ignore[valid-type]
    PV: integer(1, 100) = Field(description="Points de vie (L136-137).")  # type: ignore[valid-type]
    CO: Stat = Field(description="Commandement (L138-140).")  # type: ignore[valid-type]
    SV: Stat = Field(description="Sauvegarde d'armure (L141-143).")  # type: ignore[valid-type]

    def value(self, code: str) -> int:
        result: int = getattr(self, code)
        return result

    def text(self) -> str:
        return " ".join(f"{code} {self.value(code)}" for code in type(self).model_fields)


class NolimitsHouseRule(BaseModel):
    """An ability or weapon rule the creation system lacks, at the cost the player set
    (L17-18): allowed if the opponent agrees, reported as a warning `house_rule`."""

    model_config = INPUT

    name: str = Field(min_length=1, max_length=60, pattern=NO_NUL)
    points: integer(-50, 200) = Field(description="The cost the player set.")  # type: ignore[valid-type]
    text: str = Field("", max_length=300, pattern=NO_NUL, description="What it does.")


class NolimitsWeaponBase(BaseModel):
    """A weapon profile (L144-193): `CU PC PI PL CdA FO DG` and special rules."""

    model_config = INPUT

    name: str = Field(min_length=1, max_length=60, pattern=NO_NUL)
    melee: bool = Field(False, description="A melee weapon: FO is a bonus to the wielder's (L170).")
    type: WeaponType | None = Field(
        None,
        description="Ranged weapons: what the guidelines (L201-204) compare it to: 'pistolet' "
        "(FO 5), 'fusil' (FO 5-6, more range than a pistol), 'automatique' (high CdA), "
        "'lourde'.",
    )
    CU: integer(0, 20) | None = Field(  # type: ignore[valid-type]
        None,
        description="Coût d'utilisation in AC (L155-156). Melee: 3 + FO bonus when omitted "
        "(L124, L171). Vehicle-mounted weapons have none (L241).",
    )
    PC: Band | None = Field(None, description="Portée courte [distance, modificateur] (L157).")
    PI: Band | None = Field(None, description="Portée intermédiaire (L159).")
    PL: Band | None = Field(None, description="Portée longue (L161).")
    CdA: integer(1, 20) = Field(description="Cadence d'attaque (L163-168).")  # type: ignore[valid-type]
    FO: integer(0, 20) = Field(  # type: ignore[valid-type]
        description="Force (L169-176); for a melee weapon, the bonus added to the wielder's."
    )
    DG: integer(1, 20) = Field(description="Points de dégâts (L178-181).")  # type: ignore[valid-type]
    MPA: integer(-10, 0) = Field(  # type: ignore[valid-type]
        0, description="Modificateur de pénétration d'armure, as printed: -2 (L177, L154)."
    )
    rules: list[str | NolimitsHouseRule] = Field(default_factory=list, max_length=10)


class NolimitsVehicle(BaseModel):
    """What a vehicle profile adds (L221-228): its type, crew and passengers."""

    model_config = INPUT

    type: VehicleType = Field(
        description="Roues, chenilles, antigrav, marcheur, volant (L208-220)."
    )
    crew: integer(0, 20) = Field(0, description="Équipage (L227).")  # type: ignore[valid-type]
    crew_roles: str = Field(
        "", max_length=80, pattern=NO_NUL, description="E.g. 'Pilote & Artilleur' (L227)."
    )
    passengers: integer(0, 50) = Field(0, description="Passagers (L228).")  # type: ignore[valid-type]


class NolimitsUnitBase(BaseModel):
    """One model of a unit: profile, size, weapons, abilities, and a vehicle part if any."""

    model_config = INPUT

    profile: NolimitsProfile
    size: SizeId | None = Field(
        None, description="Size category (L71-84); from size_mm when omitted, else moyenne."
    )
    size_mm: integer(1, 10_000) | None = Field(  # type: ignore[valid-type]
        None, description="Height or length in mm, whichever is larger (L73-84)."
    )
    weapons: list[str | NolimitsWeaponBase] = Field(default_factory=list, max_length=20)
    abilities: list[str | NolimitsHouseRule] = Field(default_factory=list, max_length=20)
    vehicle: NolimitsVehicle | None = None
    equipment: list[Annotated[str, Field(min_length=1, max_length=80, pattern=NO_NUL)]] = Field(
        default_factory=list,
        max_length=20,
        description="Equipment named without a printed profile (e.g. the Titan's, L230-233): "
        "listed, not priced (warning `unpriced_equipment`).",
    )


def _ref_or_object(value: Any) -> str:
    return "ref" if isinstance(value, str) else "object"


def ref_or(ref: Any, model: type[BaseModel]) -> Any:
    """A catalogue id or an inline object, told apart by their JSON type."""
    union = Annotated[
        Annotated[ref, Tag("ref")] | Annotated[model, Tag("object")],  # type: ignore[valid-type]
        Discriminator(_ref_or_object),
    ]
    return union


def definition_models(
    *, weapon_ids: Sequence[str], rule_ids: Sequence[str], ability_ids: Sequence[str]
) -> tuple[type[NolimitsWeaponBase], type[NolimitsUnitBase]]:
    """The inline weapon and unit models, accepting only the catalogue's ids."""
    rule_ref = ref_or(catalogue_id(rule_ids, "weapon rule"), NolimitsHouseRule)
    weapon_fields: dict[str, Any] = {
        "rules": (list[rule_ref], Field(default_factory=list, max_length=10)),  # type: ignore[valid-type]
    }
    weapon = create_model(
        "NolimitsWeapon",
        __base__=NolimitsWeaponBase,
        __doc__=NolimitsWeaponBase.__doc__,
        **weapon_fields,
    )
    weapon_ref = ref_or(catalogue_id(weapon_ids, "weapon"), weapon)
    ability_ref = ref_or(catalogue_id(ability_ids, "ability"), NolimitsHouseRule)
    unit_fields: dict[str, Any] = {
        "weapons": (list[weapon_ref], Field(default_factory=list, max_length=20)),  # type: ignore[valid-type]
        "abilities": (list[ability_ref], Field(default_factory=list, max_length=20)),  # type: ignore[valid-type]
    }
    unit = create_model(
        "NolimitsUnit",
        __base__=NolimitsUnitBase,
        __doc__=NolimitsUnitBase.__doc__,
        **unit_fields,
    )
    return weapon, unit
