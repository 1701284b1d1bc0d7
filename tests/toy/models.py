"""What players send to the toy: a figure (its strength, its courage, its XP), a list of
figures, an end-of-game score."""

from typing import Literal

from pydantic import BaseModel, Field

from app.systems.base import INPUT, EntryBase, integer
from app.systems.catalogued import RosterBase


class ToyProfile(BaseModel):
    """What a campaign may raise (CampaignTraits.profile_stats). A new figure's courage is 2
    (its default, CampaignTraits.stat_defaults): a stored figure may leave it out."""

    model_config = INPUT

    courage: integer(0, 10) = 2  # type: ignore[valid-type]


class ToyFigure(BaseModel):
    model_config = INPUT

    strength: integer(-10, 10)  # type: ignore[valid-type]
    profile: ToyProfile = Field(default_factory=ToyProfile)
    xp: integer(0, 1000) = 0  # type: ignore[valid-type]


class ToyEntryBase(EntryBase):
    unit: str | None = None
    custom: ToyFigure | None = None


class ToyRosterBase(RosterBase):
    """No `extras`: the toy has no list options, so they are `{}` (RosterBase's)."""

    system: Literal["toy"]
    entries: list[ToyEntryBase] = Field(default_factory=list, max_length=50)


class ToyScore(BaseModel):
    """The end of a game: one point per enemy figure knocked over, three for the flag."""

    model_config = INPUT

    knocked_over: integer(0, 100) = 0  # type: ignore[valid-type]
    flag: bool = False
