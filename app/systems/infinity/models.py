"""Infinity N2 documents: a trooper, the cost request, a roster and its entries (api-v1.md).

Line numbers (Lnn) refer to shared/rules/infinity-n2.fr.txt.
"""

from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    WithJsonSchema,
)

from app.systems.base import NO_NUL, Between
from app.systems.catalogued import RosterBase
from app.systems.inputs import HasSource, entry_id_field

# Ids whose meaning the engine knows (api-v1.md, "### infinity"); other strings are free text.
AD_COMBAT_JUMP = "ad_combat_jump"  # L19-24: may stay off the table at deployment
DOCTEUR = "docteur"  # L131-134
PARAMEDICAL = "paramedical"  # L135
HACKER = "hacker"  # L31, L35-36
MINES = "mines"  # L116-117
REPETEUR_DEPLOYABLE = "repeteur_deployable"  # L141
SKILL_IDS = (AD_COMBAT_JUMP, DOCTEUR, PARAMEDICAL, HACKER)
EQUIPMENT_IDS = (MINES, REPETEUR_DEPLOYABLE)
MEDIC_SKILLS = frozenset({DOCTEUR, PARAMEDICAL})

ID_PATTERN = r"^[a-z0-9]+(?:_[a-z0-9]+)*$"  # ASCII snake_case
Orders = Literal["regular", "irregular"]

# The highest combat group a list may use (the editor's group select lists 1 to one past the
# highest used, never more than this).
HIGHEST_GROUP = 100

Attribute = Annotated[int, Between(0, 99)]
Count = Annotated[int, Between(1, 100)]
Group = Annotated[int, Between(1, HIGHEST_GROUP)]
Points = Annotated[int, Between(0, 10_000)]
PointsLimit = Annotated[int, Between(1, 100_000)]
Availability = Annotated[int, Between(0, 100)]

Id = Annotated[str, Field(min_length=1, max_length=60, pattern=ID_PATTERN)]
Name = Annotated[str, Field(min_length=1, max_length=80, pattern=NO_NUL)]
Reference = Annotated[str, Field(min_length=1, max_length=80, pattern=NO_NUL)]
FreeId = Annotated[str, Field(min_length=1, max_length=80, pattern=NO_NUL)]


def _half_steps(value: float) -> float:
    # Exact, unlike Field(multiple_of=0.5), which tolerates 1e-17.
    if not (value * 2).is_integer():
        raise ValueError("SWC is a multiple of 0.5")
    return value


def _number(value: float) -> int | float:
    """6.0 is written 6, 6.5 stays 6.5."""
    return int(value) if float(value).is_integer() else value


@lru_cache(maxsize=256)
def swc_fraction(value: float) -> Fraction:
    """The exact value of a SWC (a multiple of 0.5, so exact in binary too). Remembered:
    a list's options have a few SWC values, and a Fraction costs microseconds to make."""
    return Fraction(value)


_SWC_SCHEMA = {"type": "number", "minimum": 0, "multipleOf": 0.5}

# A SWC figure of one option (L81: « le SWC est spécifié pour chaque figurine »).
Swc = Annotated[
    float,
    Field(ge=0, le=20, allow_inf_nan=False),
    AfterValidator(_half_steps),
    PlainSerializer(_number),
    WithJsonSchema({**_SWC_SCHEMA, "maximum": 20}),
]
# A SWC total, computed exactly (Fraction) and written as a JSON number.
SwcTotal = Annotated[float, PlainSerializer(_number), WithJsonSchema(_SWC_SCHEMA)]


class Document(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class InfinityProfile(Document):
    """The printed attributes (names as the text uses them: L51, L8, L12, L34, L124)."""

    MOV: list[Attribute] = Field(
        min_length=2, max_length=2, description="Two values (L51 « première valeur »)."
    )
    CC: Attribute
    TR: Attribute
    PH: Attribute
    VOL: Attribute
    BL: Attribute
    B: Attribute


class InfinityTrooperOption(Document):
    """One loadout of a trooper: its cost, its SWC, whether it may be the Lieutenant (L83)."""

    id: Id
    name: Name
    points: Points
    swc: Swc = Field(0.0, description="A multiple of 0.5; 0 for standard equipment (L81).")
    lieutenant: bool = Field(False, description="The option may be the Lieutenant (L83).")
    equipment: list[FreeId] = Field(
        default_factory=list,
        max_length=20,
        description="Equipment ids (mines, repeteur_deployable) or free text.",
    )


class InfinityTrooper(Document, HasSource):
    """A trooper type (api-v1.md): catalogue `units`, `extras.units`, the cost body's `unit`."""

    id: Id
    name: Name
    orders: Orders = Field(description="An irregular keeps its order for itself (L14).")
    impetuous: bool = Field(False, description="One free Impetuous order a turn (L45).")
    ava: Availability | None = Field(
        description="Availability (L76); null for Total (L79).",
    )
    profile: InfinityProfile
    skills: list[FreeId] = Field(
        default_factory=list,
        max_length=30,
        description="Skill ids (ad_combat_jump, docteur, paramedical, hacker) or free text.",
    )
    options: list[InfinityTrooperOption] = Field(min_length=1, max_length=30)

    def option(self, option_id: str) -> InfinityTrooperOption | None:
        """The option of that id (the first, when a document repeats an id: an issue)."""
        return next((option for option in self.options if option.id == option_id), None)


class InfinityCostRequest(Document):
    """The `cost` body: one option of one trooper."""

    unit: InfinityTrooper
    option: Reference


class InfinityEntry(Document):
    """One line of a list: `count` troopers of one option, in one combat group."""

    unit: Reference = Field(description="A trooper of extras.units, else of the catalogue.")
    option: Reference
    count: Count = 1
    group: Group = Field(1, description="Combat group (L85), from 1.")
    reserve: bool = Field(
        False, description="Held off the table at deployment (AD: Combat Jump, L20)."
    )
    name: Annotated[str, Field(max_length=80, pattern=NO_NUL)] | None = None
    id: str | None = entry_id_field()


class InfinityExtras(Document):
    """What an Infinity list holds beside its entries."""

    units: list[InfinityTrooper] = Field(
        default_factory=list, max_length=50, description="The player's own trooper types."
    )
    ava: bool = Field(True, description="False: an introductory game, AVA not enforced (L78).")


class InfinityRoster(RosterBase):
    """An Infinity roster document (api-v1.md, "Roster documents" and "### infinity")."""

    system: Literal["infinity"]
    points_limit: PointsLimit | None = Field(
        None, description="The game size (L81 « une partie de 300 points »)."
    )
    entries: list[InfinityEntry] = Field(default_factory=list, max_length=200)
    extras: InfinityExtras = Field(default_factory=InfinityExtras)


# The names the engine had before its models took the system's prefix (OpenAPI names).
