"""No Limits roster documents: entries (units), their composition, and how they are built.

Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from app.systems.base import NO_NUL, EntryBase, catalogue_id, integer
from app.systems.nolimits.catalogue import Catalogue, Category
from app.systems.nolimits.definition import (
    INPUT,
    NolimitsHouseRule,
    NolimitsUnitBase,
    NolimitsWeaponBase,
    ref_or,
)
from app.systems.nolimits.engine import NolimitsUnitDerived

Placement = Literal["reserve", "infiltration"]


class NolimitsSpecialistBase(BaseModel):
    """Troopers with the unit's profile and other weapons or special rules (L94-95)."""

    model_config = INPUT

    name: str | None = Field(
        None, max_length=60, pattern=NO_NUL, description="E.g. 'Porte-drapeau'."
    )
    count: integer(1, 20) = 1  # type: ignore[valid-type]
    weapons: list[str | NolimitsWeaponBase] = Field(default_factory=list, max_length=20)
    abilities: list[str | NolimitsHouseRule] | None = Field(
        None, max_length=20, description="Null: the troopers' abilities."
    )


class NolimitsExtras(BaseModel):
    """What a No Limits roster holds beside its entries."""

    model_config = ConfigDict(extra="forbid", strict=True)

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


class NolimitsRosterBase(BaseModel):
    """A No Limits roster document (api-v1.md, "Roster documents")."""

    model_config = ConfigDict(extra="forbid", strict=True)

    system: Literal["nolimits"]
    name: str = Field("", max_length=100, pattern=NO_NUL)
    points_limit: integer(1, 100_000) | None = None  # type: ignore[valid-type]
    entries: list[NolimitsEntryBase] = Field(default_factory=list, max_length=200)
    extras: NolimitsExtras = Field(default_factory=NolimitsExtras)


def roster_models(
    catalogue: Catalogue, weapon_model: type[BaseModel], unit_model: type[BaseModel]
) -> tuple[type[BaseModel], type[BaseModel]]:
    """The entry and roster document models, refusing ids the catalogue lacks."""
    weapon_ref = ref_or(catalogue_id([w.id for w in catalogue.weapons], "weapon"), weapon_model)
    ability_ref = ref_or(
        catalogue_id([a.id for a in catalogue.abilities], "ability"), NolimitsHouseRule
    )
    leader_ref = ref_or(catalogue_id([p.id for p in catalogue.profiles], "profile"), unit_model)
    specialist_fields: dict[str, Any] = {
        "weapons": (list[weapon_ref], Field(default_factory=list, max_length=20)),  # type: ignore[valid-type]
        "abilities": (
            list[ability_ref] | None,  # type: ignore[valid-type]
            Field(None, max_length=20, description="Null: the troopers' abilities."),
        ),
    }
    specialist = create_model(
        "NolimitsSpecialist",
        __base__=NolimitsSpecialistBase,
        __doc__=NolimitsSpecialistBase.__doc__,
        **specialist_fields,
    )
    entry_fields: dict[str, Any] = {
        "unit": (catalogue_id([u.id for u in catalogue.units], "unit") | None, None),
        "custom": (unit_model | None, None),
        "leader": (
            leader_ref | None,
            Field(None, description="The unit leader (L91-93): a profile id or a definition."),
        ),
        "specialists": (list[specialist], Field(default_factory=list, max_length=10)),
    }
    entry = create_model(
        "NolimitsEntry",
        __base__=NolimitsEntryBase,
        __doc__=NolimitsEntryBase.__doc__,
        **entry_fields,
    )
    roster = create_model(
        "NolimitsRoster",
        __base__=NolimitsRosterBase,
        __doc__=NolimitsRosterBase.__doc__,
        entries=(list[entry], Field(default_factory=list, max_length=200)),
    )
    return entry, roster


Role = Literal["troupe", "chef", "specialiste"]


class NolimitsUnitPart(BaseModel):
    """Troopers, the leader, or a group of specialists, with their price."""

    role: Role
    name: str
    count: int
    points_each: int
    points: int
    derived: NolimitsUnitDerived


class NolimitsEntryDerived(BaseModel):
    category: Category
    placement: Placement | None
    general: bool
    battle_standard: bool
    models: int = Field(description="Troopers, specialists and leader.")
    parts: list[NolimitsUnitPart]


class NolimitsCategoryPoints(BaseModel):
    category: Category
    name: str
    points: int


class NolimitsRosterDerived(BaseModel):
    models: int
    general: int | None = Field(description="Index of the general's entry.")
    battle_standard: int | None = Field(description="Index of the entry with the army banner.")
    categories: list[NolimitsCategoryPoints]
