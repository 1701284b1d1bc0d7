"""What the API and the pages send and get for campaigns (api-v1.md « Campaigns »). Every
number and string is bounded where it enters."""

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.systems.inputs import INPUT, NO_NUL, Between, FreeObject

MAX_FIGHTERS = 200  # a roster holds at most 200 entries
MAX_CHANGES = 20
MAX_RECRUITS = 50
ResultName = Literal["win", "loss", "draw"]
StateName = Literal["active", "recovering", "dead", "retired"]
VerdictName = Literal["pending", "confirmed", "disputed"]


class StatChangeIn(BaseModel):
    model_config = INPUT

    stat: str = Field(
        min_length=1,
        max_length=16,
        pattern=r"^[A-Za-z_]+$",
        description="A characteristic of the figure the system lets a battle change "
        "(its campaign traits: profile_stats and figure_stats, docs/systems.md).",
    )
    by: Annotated[int, Between(-20, 20)] = Field(description="Added to the characteristic.")
    cause: str = Field(
        "", max_length=100, pattern=NO_NUL, description="An injury, an advance, a house rule."
    )


class FighterIn(BaseModel):
    model_config = INPUT

    entry: Annotated[int, Between(0, MAX_FIGHTERS - 1)] = Field(
        description="Index of the roster entry."
    )
    xp: Annotated[int, Between(-10_000, 10_000)] = Field(
        0, description="Added to the figure's XP, if counted."
    )
    changes: list[StatChangeIn] = Field(default_factory=list, max_length=MAX_CHANGES)
    rep: Annotated[int, Between(-100, 100)] | None = Field(
        None, description="The figure's new Rep, if any."
    )
    state: StateName | None = Field(None, description="Unchanged when absent.")


class RecordedFighter(FighterIn):
    """A fighter as a ledger line keeps him (app/campaigns/recording.py's line_row; a carnet
    file's `fighters`): what the battle said of him, with his entry's place, stable id,
    figures and name after it. A key it does not name is let through: a newer server may
    write one in the same format version."""

    model_config = ConfigDict(extra="ignore", strict=True)

    id: str | None = Field(
        None, description="The entry's stable id (none on lines older than entry ids)."
    )
    count: int | None = Field(None, description="The entry's figures after the battle.")
    name: str = Field("", description="The entry's name when the battle was recorded.")


# An ISO date as `date.fromisoformat` reads it: years 0001-9999, months 01-12, days 01-31
# (the document also says `format: date`, so that a client's validator refuses 02-30 as the
# server does; the old [0-9]{4}-[0-9]{2}-[0-9]{2} let the document accept 0000-00-00).
ISO_DATE = (
    r"^(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"
    r"-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$"
)


def score_field() -> Any:
    return Field(None, description="The system's score body (POST /systems/{system}/score).")


def recruits_field() -> Any:
    return Field(
        default_factory=list,
        max_length=MAX_RECRUITS,
        description="Roster entries to add (entries of the gang's system).",
    )


class BattleIn(BaseModel):
    model_config = INPUT

    date: str = Field(
        pattern=ISO_DATE, json_schema_extra={"format": "date"}, description="ISO date."
    )
    opponent: str = Field("", max_length=100, pattern=NO_NUL)
    scenario: str = Field("", max_length=100, pattern=NO_NUL)
    result: ResultName
    score: FreeObject | None = score_field()
    notes: str = Field("", max_length=2000, pattern=NO_NUL)
    fighters: list[FighterIn] = Field(default_factory=list, max_length=MAX_FIGHTERS)
    recruits: list[FreeObject] = recruits_field()
    corrects: Annotated[int, Between(1, 1_000_000)] | None = Field(
        None, description="Number of the battle line this line corrects."
    )
    opponent_roster: str | None = Field(
        None, max_length=32, pattern=r"^[0-9a-f]{1,32}$", description="Another gang's roster."
    )
    campaign: str | None = Field(None, max_length=32, pattern=r"^[0-9a-f]{1,32}$")

    @field_validator("date")
    @classmethod
    def _real_date(cls, value: str) -> str:
        date.fromisoformat(value)  # ValueError: « 2026-02-30 » is no date
        return value


class StatChangeOut(BaseModel):
    stat: str
    by: int
    cause: str


class FighterOut(BaseModel):
    entry: int = Field(description="Index of the entry when the battle was recorded.")
    id: str | None = Field(
        description="The entry's stable id (follows the fighter when entries move)."
    )
    name: str = Field(description="The entry's name when the battle was recorded.")
    xp: int
    changes: list[StatChangeOut]
    rep: int | None
    state: StateName | None


class SameBattle(BaseModel):
    recorded_by: str
    battle: int


class VerdictIn(BaseModel):
    model_config = INPUT

    verdict: Literal["confirmed", "disputed"] = Field(
        description="The named gang's word on a line another gang recorded against it."
    )


class LineRef(BaseModel):
    recorded_by: str = Field(description="Roster id of the gang that recorded the line.")
    battle: int = Field(description="The line's number in that gang's ledger.")
    verdict: VerdictName | None
    voided: bool


class VoidIn(BaseModel):
    model_config = INPUT

    recorded_by: str = Field(min_length=1, max_length=32, pattern=r"^[0-9a-f]{1,32}$")
    battle: Annotated[int, Between(1, 1_000_000)]


class BattleOut(BaseModel):
    battle: int = Field(description="Number in the recording gang's ledger, from 1.")
    date: str
    opponent: str
    scenario: str
    result: ResultName = Field(description="From this gang's side.")
    points: int | None = Field(description="From the system's score engine, when scored.")
    share: str = Field(description="Share code of the recording gang's state after it.")
    fighters: list[FighterOut]
    recruits: list[str] = Field(description="Names of the fighters recruited.")
    notes: str
    corrects: int | None
    corrected_by: int | None
    campaign: str | None
    opponent_roster: str | None
    recorded_by: str = Field(description="Roster id of the gang that recorded the line.")
    verdict: VerdictName | None = Field(
        description="A line naming another gang of its campaign: « pending » until that "
        "gang confirms or disputes it; null for any other line."
    )
    voided: bool = Field(description="The organiser voided it: shown, counted nowhere.")
    same_as: SameBattle | None = Field(
        description="This gang's line recorded a battle the other gang had recorded: "
        "that line (it counts for both, this one for this gang's fighters only)."
    )


class BattleList(BaseModel):
    battles: list[BattleOut]


class CampaignIn(BaseModel):
    model_config = INPUT

    system: str = Field(min_length=1, max_length=32, pattern=r"^[a-z_]+$")
    name: str = Field(min_length=1, max_length=100, pattern=NO_NUL)
    notes: str = Field("", max_length=4000, pattern=NO_NUL)


class CampaignCreated(BaseModel):
    id: str
    edit_token: str = Field(description="The organiser's; shown once, stored hashed.")
    join_code: str
    join_url: str = Field(description="The page where a player names the list that joins.")
    url: str = Field(description="The campaign's public page.")


class JoinIn(BaseModel):
    model_config = INPUT

    roster: str = Field(min_length=1, max_length=64)
    edit_token: str = Field(min_length=1, max_length=200)
    join_code: str = Field(min_length=1, max_length=200)


class Joined(BaseModel):
    roster: str


class GangStanding(BaseModel):
    roster: str
    name: str
    share: str | None = Field(description="The gang's latest share code.")
    battles: int
    wins: int
    draws: int
    losses: int
    points: int
    xp: int
    fighters_lost: int


class CampaignOut(BaseModel):
    id: str
    name: str
    system: str
    notes: str
    gangs: list[GangStanding] = Field(description="Wins, then draws, then points, descending.")
