"""What a ledger is made of: a stored line as the ledger reads it (its fighters' outcomes),
and what the standings read of a line (a Line, or a plain row of a campaign's results)."""

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class StatChange:
    stat: str
    by: int
    cause: str


@dataclass(frozen=True)
class FighterOutcome:
    entry: int
    xp: int = 0
    changes: tuple[StatChange, ...] = ()
    rep: int | None = None
    state: str | None = None  # None: unchanged
    count: int | None = None  # the entry's figures when the line was recorded


@dataclass(frozen=True)
class Line:
    """One battle line of a ledger, as stored (numbers from 1)."""

    battle: int
    result: str
    fighters: tuple[FighterOutcome, ...] = ()
    points: int | None = None
    corrects: int | None = None
    campaign: str | None = None
    opponent_roster: str | None = None
    recruits: int = 0
    # False for a line the organiser voided, its opponent disputed, or that confirms the
    # other gang's line of the same battle (that line counts for both).
    counted: bool = True
    voided: bool = False


class Outcome(Protocol):
    """What the standings count of a line: a Line, or a campaign's plain result row
    (app/campaigns/views.py `Result`)."""

    @property
    def battle(self) -> int: ...
    @property
    def result(self) -> str: ...
    @property
    def points(self) -> int | None: ...
    @property
    def corrects(self) -> int | None: ...
    @property
    def opponent_roster(self) -> str | None: ...
    @property
    def counted(self) -> bool: ...
    @property
    def voided(self) -> bool: ...
