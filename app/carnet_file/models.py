"""The carnet file's format (docs/carnet-file.md), version FORMAT_VERSION: what an export
writes and a restore reads, every size and count bounded where it enters. Its JSON Schema
(`schema()`) is checked in as docs/carnet-file.schema.json and served at
GET /api/v1/schemas/carnet-export."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from app.campaigns.models import ISO_DATE, RecordedFighter, ResultName, VerdictName
from app.carnet_service import CARNET_MAX_ROSTERS
from app.systems.books import BOOK_MAX_UNITS
from app.systems.inputs import JSON_MAX_DEPTH, NO_NUL, Between, FreeObject, free_json_refusal

FORMAT = "caserne-carnet"
FORMAT_VERSION = 1

# What one file may hold (a restore refuses more; an export of a carnet past them says so).
MAX_BOOKS = 1000
MAX_PUBLISHED = 1000  # published versions of one book
MAX_CAMPAIGNS = 200
MAX_LINES = 1000  # battle lines of one gang (a ledger's own bound)
MAX_ALL_LINES = 20_000  # battle lines of the whole file
MAX_GANGS = 64  # gangs of one campaign
# A file nests at most 4 levels above a roster document's 9, a ledger line's 7.
FILE_MAX_DEPTH = JSON_MAX_DEPTH + 4

Name = Annotated[str, Field(max_length=100, pattern=NO_NUL)]
SystemId = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9_]+$")]
Code = Annotated[str, Field(min_length=1, max_length=16, pattern=r"^[0-9a-z]+$")]
Index = Annotated[int, Between(0, CARNET_MAX_ROSTERS - 1)]
Number = Annotated[int, Between(1, MAX_LINES)]

FILE = ConfigDict(extra="forbid")


class FileRoster(BaseModel):
    """A list: its document as the API's roster documents are."""

    model_config = FILE

    name: Name = ""
    system: SystemId
    document: FreeObject
    created_at: datetime | None = None
    updated_at: datetime | None = None


class PublishedVersion(BaseModel):
    """A published version of a book (`/a/{code}`): what it showed."""

    model_config = FILE

    code: Code = Field(description="Its code where it was exported; lists name it.")
    version: Annotated[int, Between(1, 2**31 - 1)]
    created_at: datetime | None = None
    name: Name
    army: Name = ""
    description: str = Field("", max_length=2000, pattern=NO_NUL)
    units: list[FreeObject] = Field(default_factory=list, max_length=BOOK_MAX_UNITS)


class FileBook(FileRoster):
    """An army book: its draft (`document`: a book document) and its published versions,
    oldest first."""

    published: list[PublishedVersion] = Field(default_factory=list, max_length=MAX_PUBLISHED)


def _readable(fighter: dict[str, Any]) -> dict[str, Any]:
    """A fighter the ledger can read back (RecordedFighter: a line without `entry`, a change
    without `stat`, was a 500 when its gang was counted), kept as the file says it."""
    RecordedFighter.model_validate(fighter)
    return fighter


# Free JSON in the format's schema (docs/carnet-file.schema.json), checked as the ledger
# keeps a fighter (the API's document types it so: app/api/v1/typed_file.py).
Fighter = Annotated[FreeObject, AfterValidator(_readable)]


class SameBattle(BaseModel):
    model_config = FILE

    roster: Index
    battle: Number


# What a ledger line of the file says as the stored line does (the others name other rows).
LINE_FIELDS = (
    "date",
    "opponent",
    "scenario",
    "result",
    "points",
    "score",
    "notes",
    "fighters",
    "recruits",
    "corrects",
    "verdict",
)


class FileLine(BaseModel):
    """One line of a gang's ledger, as it was recorded (its effect is in the list's
    document already). `campaign` and `opponent_roster` are indexes in this file's
    `campaigns` and `rosters` (null: not in the file)."""

    model_config = FILE

    battle: Number
    date: str = Field(pattern=ISO_DATE)
    opponent: Name = ""
    scenario: Name = ""
    result: ResultName
    points: Annotated[int, Between(-(2**31), 2**31 - 1)] | None = None
    score: FreeObject | None = None
    notes: str = Field("", max_length=2000, pattern=NO_NUL)
    fighters: list[Fighter] = Field(default_factory=list, max_length=200)
    recruits: list[FreeObject] = Field(default_factory=list, max_length=200)
    corrects: Number | None = None
    campaign: Annotated[int, Between(0, MAX_CAMPAIGNS - 1)] | None = None
    opponent_roster: Index | None = None
    verdict: VerdictName | None = None
    voided_at: datetime | None = None
    same_as: SameBattle | None = None
    share: Code | None = Field(None, description="The share of the gang after this battle.")
    recorded_at: datetime | None = None


class FileGang(BaseModel):
    """The ledger of a list of the file (`roster`: its index in `rosters`)."""

    model_config = FILE

    roster: Index
    battles: list[FileLine] = Field(default_factory=list, max_length=MAX_LINES)


class FileCampaign(BaseModel):
    """A campaign the carnet organises; `gangs`: the indexes of its gangs in `rosters`
    (the gangs of other carnets are not in the file)."""

    model_config = FILE

    name: Annotated[str, Field(min_length=1, max_length=100, pattern=NO_NUL)]
    system: SystemId
    notes: str = Field("", max_length=4000, pattern=NO_NUL)
    created_at: datetime | None = None
    gangs: list[Index] = Field(default_factory=list, max_length=MAX_GANGS)


class CarnetFile(BaseModel):
    """The whole carnet (docs/carnet-file.md)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "$id": "https://caserne.example/schemas/carnet-export/1",
            "title": "Caserne carnet file, format version 1",
        },
    )

    format: Literal["caserne-carnet"]
    format_version: Literal[1]
    exported_at: datetime
    rosters: list[FileRoster] = Field(default_factory=list, max_length=CARNET_MAX_ROSTERS)
    books: list[FileBook] = Field(default_factory=list, max_length=MAX_BOOKS)
    gangs: list[FileGang] = Field(default_factory=list, max_length=CARNET_MAX_ROSTERS)
    campaigns: list[FileCampaign] = Field(default_factory=list, max_length=MAX_CAMPAIGNS)

    @model_validator(mode="before")
    @classmethod
    def _known_and_bounded(cls, data: Any) -> Any:
        """A newer format version is said first (`format_version`), whatever else its file
        holds; then any text no database stores, nesting, a huge number (free_json_refusal)."""
        if not isinstance(data, dict):
            return data
        version = data.get("format_version")
        if isinstance(version, int) and not isinstance(version, bool) and version > 1:
            raise PydanticCustomError(
                "format_version",
                "format_version {version} is newer than this server's ({known}): update it",
                {"version": version, "known": FORMAT_VERSION},
            )
        refusal = free_json_refusal(data, FILE_MAX_DEPTH)
        if refusal is not None:
            raise PydanticCustomError(refusal[0], "{reason}", {"reason": refusal[1]})
        return data

    @model_validator(mode="after")
    def _counted(self) -> "CarnetFile":
        lines = sum(len(gang.battles) for gang in self.gangs)
        if lines > MAX_ALL_LINES:
            raise PydanticCustomError(
                "too_many_battles",
                "{lines} battle lines: at most {most} in one file",
                {"lines": lines, "most": MAX_ALL_LINES},
            )
        return self


def schema() -> dict[str, Any]:
    """The file's JSON Schema (docs/carnet-file.schema.json is this, checked in)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **CarnetFile.model_json_schema(),
    }
