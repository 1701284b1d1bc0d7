"""What players send: a Necromunda–Warzone figure, a gang entry, the gang document
(api-v1.md, "### necrowarzone").

Lnn = line of shared/rules/necromunda-warzone.fr.txt. Values the text rules out (XP below 0,
a CT off the L38 table) are accepted here and reported by the engine as issues, so that a
roster holding them can still be stored and shown.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from app.systems.base import INPUT, NO_NUL, Between, EntryBase
from app.systems.catalogued import RosterBase

# The text sets no range on a characteristic; these bounds only refuse nonsense.
Characteristic = Annotated[int, Between(0, 20)]
# CT is checked against the to-hit table (L38-39): wider here, reported as `ct_off_table`.
BallisticSkill = Annotated[int, Between(-20, 20)]
# XP below 0 is reported as `invalid_xp` (the table starts at 0, L9).
Experience = Annotated[int, Between(-1_000_000, 1_000_000)]
# The printed order of the profile, as in the books.
CHARACTERISTICS = ("M", "CC", "CT", "F", "E", "PV", "I", "A", "Cd")


class NecrowarzoneProfile(BaseModel):
    """The Necromunda profile the text refers to (M L17, CC L26/L58, CT L38, F/E L61,
    PV L77, I L26/L28/L59, A L57, Cd L31)."""

    model_config = INPUT

    M: Characteristic = Field(description="Mouvement, in pas (L17).")
    CC: Characteristic = Field(description="Capacité de combat (L26, L58).")
    CT: BallisticSkill = Field(
        description="Capacité de tir; the to-hit table covers 1-10 (L38-39)."
    )
    F: Characteristic = Field(description="Force (L61).")
    E: Characteristic = Field(description="Endurance (L61).")
    PV: Characteristic = Field(description="Points de vie (L77).")
    # The printed name of the characteristic, though ruff finds a lone "I" ambiguous.
    I: Characteristic = Field(description="Initiative (L26, L28, L59).")  # noqa: E741
    A: Characteristic = Field(description="Attaques: dice rolled in close combat (L57).")
    Cd: Characteristic = Field(
        description="Commandement; the chef's is his command radius in pas (L31, L32, L54)."
    )

    def text(self, space: str = " ") -> str:
        """As a profile line reads: "M4 CC4 CT4 F3 E3 PV1 I4 A1 Cd8"."""
        return space.join(f"{code}{getattr(self, code)}" for code in CHARACTERISTICS)


class NecrowarzoneWeapon(BaseModel):
    """A weapon as far as this text uses one: heavy or not (L23, L46, L70), and its
    to-hit modifier (L49 "Modificateurs de l’arme +/-1")."""

    model_config = INPUT

    name: str = Field(min_length=1, max_length=80, pattern=NO_NUL)
    heavy: bool = Field(False, description="Arme lourde: S'arc-bouter (L23), Encombré (L70).")
    hit_modifier: Annotated[int, Between(-1, 1)] = Field(
        0, description="Modificateur de l'arme au jet pour toucher, -1 to +1 (L49)."
    )

    def text(self) -> str:
        """As the summaries print a weapon: "Bolter lourd (lourde, +1)"."""
        notes = ["lourde"] if self.heavy else []
        notes += [f"{self.hit_modifier:+d}"] if self.hit_modifier else []
        return f"{self.name} ({', '.join(notes)})" if notes else self.name


class NecrowarzoneFigure(BaseModel):
    """One personnage of a gang: the `custom` of a roster entry and the `cost` body."""

    model_config = INPUT

    leader: bool = Field(False, description="Chef de gang: +1 action (L9-11), orders (L31).")
    xp: Experience = Field(0, description="Expérience: actions per turn (L7-11), initiative (L13).")
    light_wounds: Annotated[int, Between(0, 20)] = Field(
        0, description="Blessures légères: -1 CC, -1 CT, -1 action each, minimum 1 (L78)."
    )
    profile: NecrowarzoneProfile
    weapons: list[NecrowarzoneWeapon] = Field(default_factory=list, max_length=20)
    heavy_equipment: bool = Field(False, description="Équipement lourd: Encombré (L70).")


class NecrowarzoneEntryBase(EntryBase):
    """A sample figure of the catalogue ('unit') or the player's own ('custom'), never both."""

    unit: str | None = Field(None, description="Id of a catalogue figure.")
    custom: NecrowarzoneFigure | None = None


class NecrowarzoneExtras(BaseModel):
    """Nothing yet: the text asks for nothing beside the figures."""

    model_config = INPUT


class NecrowarzoneRosterBase(RosterBase):
    """A Necromunda–Warzone gang (api-v1.md, "Roster documents")."""

    system: Literal["necrowarzone"]  # points_limit stays null: a number is `points_not_used`
    entries: list[NecrowarzoneEntryBase] = Field(default_factory=list, max_length=200)
    extras: NecrowarzoneExtras = Field(default_factory=NecrowarzoneExtras)


# Short names for the engine's own modules and tests.
