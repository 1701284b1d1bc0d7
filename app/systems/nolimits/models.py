"""What players send to No Limits: a unit definition (api-v1.md, "nolimits unit definition")
and a roster document (api-v1.md, "Roster documents").

Static base models describe the shape; `input_models` narrows the catalogue references
(weapon, weapon rule, ability, profile and unit ids) to the ids the catalogue defines, so an
unknown id is refused with code `unknown_id`.
Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import BaseModel, Discriminator, Field, Strict, Tag, create_model

from app.systems.base import INPUT, NO_NUL, Between, EntryBase, catalogue_id
from app.systems.catalogued import RosterBase

Characteristic = Literal["AC", "CT", "CC", "FO", "EN", "PV", "CO", "SV"]
SizeId = Literal["petite", "moyenne", "grande", "tres_grande"]
WeaponType = Literal["pistolet", "fusil", "automatique", "lourde"]
VehicleType = Literal["roues", "chenilles", "antigrav", "marcheur", "volant"]
Category = Literal["unite_de_base", "personnage", "heros", "soutien", "tres_grande_taille"]
Placement = Literal["reserve", "infiltration"]

# The profile's columns as the book prints them (L113), and a weapon's range bands (L157-162).
CHARACTERISTICS: tuple[str, ...] = get_args(Characteristic)
BANDS = ("PC", "PI", "PL")

Stat = Annotated[int, Between(0, 20)]
# "PC 10/+1": the band's greatest distance in inches, then the CT modifier (L157-162).
# A JSON array; each number strict (no "10", no true), the pair read from a list.
Band = Annotated[
    tuple[Annotated[int, Between(0, 200), Strict()], Annotated[int, Between(-10, 10), Strict()]],
    Strict(False),
]


class NolimitsProfile(BaseModel):
    """The eight characteristics (L113, L122-143)."""

    model_config = INPUT

    AC: Stat = Field(description="Points d'actions (L122-124).")
    CT: Stat = Field(description="Compétence de tir (L125-128).")
    CC: Stat = Field(description="Corps à corps (L129-131).")
    FO: Stat = Field(description="Force (L132-133).")
    EN: Stat = Field(description="Endurance (L134-135).")
    PV: Annotated[int, Between(1, 100)] = Field(description="Points de vie (L136-137).")
    CO: Stat = Field(description="Commandement (L138-140).")
    SV: Stat = Field(description="Sauvegarde d'armure (L141-143).")

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
    points: Annotated[int, Between(-50, 200)] = Field(description="The cost the player set.")
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
    CU: Annotated[int, Between(0, 20)] | None = Field(
        None,
        description="Coût d'utilisation in AC (L155-156). Melee: 3 + FO bonus when omitted "
        "(L124, L171). Vehicle-mounted weapons have none (L241).",
    )
    PC: Band | None = Field(None, description="Portée courte [distance, modificateur] (L157).")
    PI: Band | None = Field(None, description="Portée intermédiaire (L159).")
    PL: Band | None = Field(None, description="Portée longue (L161).")
    CdA: Annotated[int, Between(1, 20)] = Field(description="Cadence d'attaque (L163-168).")
    FO: Annotated[int, Between(0, 20)] = Field(
        description="Force (L169-176); for a melee weapon, the bonus added to the wielder's."
    )
    DG: Annotated[int, Between(1, 20)] = Field(description="Points de dégâts (L178-181).")
    MPA: Annotated[int, Between(-10, 0)] = Field(
        0, description="Modificateur de pénétration d'armure, as printed: -2 (L177, L154)."
    )
    rules: list[str | NolimitsHouseRule] = Field(default_factory=list, max_length=10)


class NolimitsVehicle(BaseModel):
    """What a vehicle profile adds (L221-228): its type, crew and passengers."""

    model_config = INPUT

    type: VehicleType = Field(
        description="Roues, chenilles, antigrav, marcheur, volant (L208-220)."
    )
    crew: Annotated[int, Between(0, 20)] = Field(0, description="Équipage (L227).")
    crew_roles: str = Field(
        "", max_length=80, pattern=NO_NUL, description="E.g. 'Pilote & Artilleur' (L227)."
    )
    passengers: Annotated[int, Between(0, 50)] = Field(0, description="Passagers (L228).")


class NolimitsUnitBase(BaseModel):
    """One model of a unit: profile, size, weapons, abilities, and a vehicle part if any."""

    model_config = INPUT

    profile: NolimitsProfile
    size: SizeId | None = Field(
        None, description="Size category (L71-84); from size_mm when omitted, else moyenne."
    )
    size_mm: Annotated[int, Between(1, 10_000)] | None = Field(
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


class NolimitsSpecialistBase(BaseModel):
    """Troopers with the unit's profile and other weapons or special rules (L94-95)."""

    model_config = INPUT

    name: str | None = Field(
        None, max_length=60, pattern=NO_NUL, description="E.g. 'Porte-drapeau'."
    )
    count: Annotated[int, Between(1, 20)] = 1
    weapons: list[str | NolimitsWeaponBase] = Field(default_factory=list, max_length=20)
    abilities: list[str | NolimitsHouseRule] | None = Field(
        None, max_length=20, description="Null: the troopers' abilities."
    )


class NolimitsExtras(BaseModel):
    """What a No Limits roster holds beside its entries."""

    model_config = INPUT

    army: str = Field(
        "", max_length=80, pattern=NO_NUL, description="The army or species (L22-23)."
    )


class NolimitsEntryBase(EntryBase):
    """A unit: a catalogue unit ('unit') or a custom one ('custom'), never both. `count` is
    the number of troopers with the unit's standard weapons."""

    name: str | None = Field(None, max_length=80, pattern=NO_NUL)
    unit: str | None = None
    custom: NolimitsUnitBase | None = None
    category: Category | None = Field(
        None,
        description="Catalogue units have theirs; a custom unit's defaults from its size "
        "(L88-108, note 10).",
    )
    leader: str | NolimitsUnitBase | None = Field(
        None, description="The unit leader (L91-93, at most one): a profile id or a definition."
    )
    specialists: list[NolimitsSpecialistBase] = Field(default_factory=list, max_length=10)
    placement: Placement | None = Field(
        None, description="Deployed in reserve (L313-314) or infiltrating (L315-319)."
    )
    general: bool = Field(False, description="The army general, a character or hero (L101-102).")
    battle_standard: bool = Field(False, description="Carries the army banner (L366).")


class NolimitsRosterBase(RosterBase):
    """A No Limits roster document (api-v1.md, "Roster documents")."""

    system: Literal["nolimits"]
    entries: list[NolimitsEntryBase] = Field(default_factory=list, max_length=200)
    extras: NolimitsExtras = Field(default_factory=NolimitsExtras)


def _ref_or_object(value: Any) -> str:
    return "ref" if isinstance(value, str) else "object"


def ref_or(ref: Any, model: type[BaseModel]) -> Any:
    """A catalogue id or an inline object, told apart by their JSON type."""
    union = Annotated[
        Annotated[ref, Tag("ref")] | Annotated[model, Tag("object")],  # type: ignore[valid-type]
        Discriminator(_ref_or_object),
    ]
    return union


ModelT = TypeVar("ModelT", bound=BaseModel)


def _narrowed(base: type[ModelT], **fields: Any) -> type[ModelT]:
    """`base` under its own name without "Base", with the given fields' types narrowed."""
    return create_model(
        base.__name__.removesuffix("Base"), __base__=base, __doc__=base.__doc__, **fields
    )


def _listed(item: Any, max_length: int) -> Any:
    return (list[item], Field(default_factory=list, max_length=max_length))


@dataclass(frozen=True)
class InputModels:
    """The models a No Limits engine parses, accepting only its catalogue's ids."""

    weapon: type[NolimitsWeaponBase]
    unit: type[NolimitsUnitBase]
    entry: type[NolimitsEntryBase]
    roster: type[NolimitsRosterBase]


def input_models(
    *,
    weapon_ids: Sequence[str],
    rule_ids: Sequence[str],
    ability_ids: Sequence[str],
    profile_ids: Sequence[str],
    unit_ids: Sequence[str],
) -> InputModels:
    """The weapon, unit, entry and roster models, refusing ids the catalogue lacks."""
    rule_ref = ref_or(catalogue_id(rule_ids, "weapon rule"), NolimitsHouseRule)
    weapon = _narrowed(NolimitsWeaponBase, rules=_listed(rule_ref, 10))
    weapon_ref = ref_or(catalogue_id(weapon_ids, "weapon"), weapon)
    ability_ref = ref_or(catalogue_id(ability_ids, "ability"), NolimitsHouseRule)
    unit = _narrowed(
        NolimitsUnitBase, weapons=_listed(weapon_ref, 20), abilities=_listed(ability_ref, 20)
    )
    specialist = _narrowed(
        NolimitsSpecialistBase,
        weapons=_listed(weapon_ref, 20),
        abilities=(
            list[ability_ref] | None,  # type: ignore[valid-type]
            Field(None, max_length=20, description="Null: the troopers' abilities."),
        ),
    )
    leader_ref = ref_or(catalogue_id(profile_ids, "profile"), unit)
    entry = _narrowed(
        NolimitsEntryBase,
        unit=(catalogue_id(unit_ids, "unit") | None, None),
        custom=(unit | None, None),
        leader=(
            leader_ref | None,
            Field(None, description="The unit leader (L91-93): a profile id or a definition."),
        ),
        specialists=_listed(specialist, 10),
    )
    roster = _narrowed(NolimitsRosterBase, entries=_listed(entry, 200))
    return InputModels(weapon=weapon, unit=unit, entry=entry, roster=roster)
