"""What players send to the toy: a figure (its strength), a list of figures."""

from typing import Literal

from pydantic import BaseModel, Field

from app.systems.base import INPUT, EntryBase, integer
from app.systems.catalogued import RosterBase


class ToyFigure(BaseModel):
    model_config = INPUT

    strength: integer(-10, 10)  # type: ignore[valid-type]


class ToyEntryBase(EntryBase):
    unit: str | None = None
    custom: ToyFigure | None = None


class ToyRosterBase(RosterBase):
    """No `extras`: the toy has no list options, so they are `{}` (RosterBase's)."""

    system: Literal["toy"]
    entries: list[ToyEntryBase] = Field(default_factory=list, max_length=50)
