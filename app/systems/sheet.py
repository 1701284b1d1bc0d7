"""Play sheets: a share's snapshot as a player reads it at the table.

A sheet is built from the snapshot alone (the summary a share froze, and the validation it
froze beside it) and from `data/systems/<id>/sheet.toml`: the short rule texts of the
capacities, skills, weapon rules and abilities a list may name, each quoted from the rule
text with its line, and the system's quick references (tables). Nothing here recomputes a
cost: a sheet shows what the share froze.
"""

import re
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.systems.issues import Issue
from app.systems.summary import Budget, EntryHeading, RosterSummary, SummaryLine, Total

SHEET_FILE = "sheet.toml"
# A list of more entries than this opens its compact sheet from the share's link: its full
# sheet gives each entry a card with its rules (six to eight cards an A4 page), 15 pages
# for 50 DCSystem entries where the compact one prints 3 (docs/play-sheets.md).
LONG_LIST = 12
DAMAGE_TRACK = "Indicateur de dégâts : "

_STRICT = ConfigDict(extra="forbid", frozen=True)


class SheetRule(BaseModel):
    """A capacity, skill, weapon rule or ability, with its short text from the rule text."""

    model_config = _STRICT

    name: str = Field(min_length=1, max_length=80)
    text: str = Field(min_length=1, max_length=600)
    source: str = Field(description="Lines of the rule text: L256 or L393-394.")
    match: list[str] = Field(
        default=[], description="Other spellings an entry may use (default: the name)."
    )
    printed: bool = Field(True, description="False: the text does not give the rule.")

    def names(self) -> set[str]:
        return {_fold(name) for name in (self.name, *self.match)}


class SheetReference(BaseModel):
    """A quick-reference table of the system, with the lines it quotes."""

    model_config = _STRICT

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    title: str
    source: str
    header: list[str] = []
    rows: list[list[str]] = []
    lines: list[str] = Field(default=[], description="Sentences printed under the table.")


class SheetData(BaseModel):
    """One system's sheet.toml."""

    model_config = _STRICT

    rules_file: str = Field(description="The rule text in shared/rules/ the sources cite.")
    profile_columns: list[str] = Field(
        default=[], description="A profile detail with exactly these labels becomes a table."
    )
    rules: list[SheetRule] = []
    references: list[SheetReference] = []


def opens_compact(summary: RosterSummary) -> bool:
    """Whether the share's link to the play sheet opens the compact one (a long list)."""
    return len(summary.lines) > LONG_LIST


def load_sheet_data(directory: Path) -> SheetData:
    """A system's sheet.toml (none: an empty sheet description)."""
    path = directory / SHEET_FILE
    if not path.is_file():
        return SheetData(rules_file="")
    return SheetData.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))


def load_sheets(folders: dict[str, Path]) -> tuple[dict[str, SheetData], list[str]]:
    """Every system's sheet description, and the problems found (file and field)."""
    sheets: dict[str, SheetData] = {}
    problems: list[str] = []
    for system_id, folder in folders.items():
        try:
            sheets[system_id] = load_sheet_data(folder)
        except (tomllib.TOMLDecodeError, ValidationError) as exc:
            problems.append(f"{system_id}/{SHEET_FILE}: {exc}")
    return sheets, problems


# --- the typed sheet -------------------------------------------------------------------


class ProfileTable(BaseModel):
    columns: list[str]
    values: list[str]


class SheetEntry(EntryHeading):
    """One card: an entry of the list (or, compact, identical entries with their count),
    headed as its summary line is."""

    key: str = Field(description="Stable id of the card in the sheet (the mode partie's).")
    table: ProfileTable | None = None
    details: list[str] = []
    tracks: list[list[list[str]]] = []
    rules: list[SheetRule] = []
    house_rules: list[str] = []
    errors: list[Issue] = []

    def same_as(self, other: "SheetEntry") -> bool:
        """Identical on paper: everything but the count and the points it adds."""
        skip = {"key", "entry", "count", "points"}
        return self.model_dump(exclude=skip) == other.model_dump(exclude=skip)


class OrderPool(BaseModel):
    """Infinity: a combat group's orders, as boxes to tick."""

    group: int
    pool: int
    pool_at_deployment: int
    irregular: int = 0
    impetuous: int = 0


# What a sheet says of the whole list as its summary said it.
AS_SUMMARIZED = ("system", "system_name", "name", "valid", "budgets", "totals", "notes")


class Sheet(BaseModel):
    system: str
    system_name: str
    name: str
    valid: bool
    compact: bool
    budgets: list[Budget]
    totals: list[Total]
    errors: list[str] = Field(description="Every error of the list and its entries, in words.")
    entries: list[SheetEntry]
    extras: list[dict[str, Any]]
    notes: list[str]
    glossary: list[SheetRule] = Field(description="Every rule the entries name, once.")
    references: list[SheetReference]
    order_pools: list[OrderPool] = []
    rules_file: str = ""

    @property
    def has_points(self) -> bool:
        return any(budget.id == "points" for budget in self.budgets)

    @property
    def figures(self) -> int:
        return sum(entry.count for entry in self.entries)


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("’", "'")).strip(" *.").casefold()


_LIST = re.compile(r"[,()·;/]")
_SPLIT = re.compile(r"[,()·;/]| : ")


def _parts(line: SummaryLine) -> set[str]:
    """The names an entry shows: each comma-separated part of its details, its badges.

    A name may hold « : » (« AD : Combat Jump »): each part between commas is kept whole
    too, so « AD : Combat Jump, Super saut » names both (issue 26)."""
    parts = {_fold(badge.text) for badge in line.badges}
    for detail in line.details:
        parts.add(_fold(detail))
        for split in (_LIST, _SPLIT):
            parts.update(_fold(part) for part in split.split(detail) if part.strip())
    return parts


def profile_table(detail: str, columns: Sequence[str]) -> ProfileTable | None:
    """ "AC 9 CT 6 ..." or "M4 CC4 ..." as a table, when its labels are exactly `columns`."""
    if not columns:
        return None
    found = re.findall(r"([A-Za-zé]+)\s?(-?[\d][\d+\-–]*)", detail)
    if [label for label, _ in found] != list(columns):
        return None
    rebuilt = "".join(f"{label}{value}" for label, value in found)
    if rebuilt != re.sub(r"\s", "", detail):
        return None
    return ProfileTable(columns=list(columns), values=[value for _, value in found])


def _track(detail: str) -> list[list[str]] | None:
    if not detail.startswith(DAMAGE_TRACK):
        return None
    rows = [row.split() for row in detail.removeprefix(DAMAGE_TRACK).split(" / ")]
    return [row for row in rows if row] or None


def _entry(index: int, line: SummaryLine, data: SheetData) -> SheetEntry:
    table = None
    details: list[str] = []
    tracks: list[list[list[str]]] = []
    for detail in line.details:
        if (rows := _track(detail)) is not None:
            tracks.append(rows)
        elif table is None and (found := profile_table(detail, data.profile_columns)):
            table = found
        else:
            details.append(detail)
    parts = _parts(line)
    rules = [rule for rule in data.rules if rule.names() & parts]
    return SheetEntry(
        **line.heading(),
        key=f"e{index}",
        table=table,
        details=details,
        tracks=tracks,
        rules=rules,
        house_rules=line.house_rules,
        errors=[issue for issue in line.issues if issue.severity == "error"],
    )


def merge_identical(entries: Iterable[SheetEntry]) -> list[SheetEntry]:
    """Identical cards once, with their count (and points) added up, in first-seen order."""
    merged: list[SheetEntry] = []
    for entry in entries:
        twin = next((seen for seen in merged if seen.same_as(entry)), None)
        if twin is None:
            merged.append(entry)
            continue
        at = merged.index(twin)
        merged[at] = twin.model_copy(
            update={"count": twin.count + entry.count, "points": twin.points + entry.points}
        )
    return merged


def _order_pools(validation: dict[str, Any]) -> list[OrderPool]:
    derived = validation.get("derived")
    groups = derived.get("groups") if isinstance(derived, dict) else None
    if not isinstance(groups, list):
        return []
    pools = []
    for group in groups:
        try:
            pools.append(
                OrderPool(
                    group=group["group"],
                    pool=group["pool"],
                    pool_at_deployment=group.get("pool_at_deployment", group["pool"]),
                    irregular=group.get("irregular_orders", 0),
                    impetuous=group.get("impetuous_orders", 0),
                )
            )
        except (KeyError, TypeError, ValidationError):
            continue
    return pools


def build_sheet(snapshot: dict[str, Any], data: SheetData, *, compact: bool = False) -> Sheet:
    """The sheet of a share's snapshot; compact: identical entries once with their count."""
    summary = RosterSummary.model_validate(snapshot["summary"])
    entries = [_entry(index, line, data) for index, line in enumerate(summary.lines)]
    if compact:
        entries = merge_identical(entries)
    used = {rule.name for entry in entries for rule in entry.rules}
    errors = [issue.message for issue in summary.issues if issue.severity == "error"]
    for entry in entries:
        errors += [f"{entry.title} : {issue.message}" for issue in entry.errors]
    validation = snapshot.get("validation")
    return Sheet(
        **{field: getattr(summary, field) for field in AS_SUMMARIZED},
        compact=compact,
        errors=errors,
        entries=entries,
        extras=[extra.model_dump() for extra in summary.extras],
        glossary=[rule for rule in data.rules if rule.name in used],
        references=data.references,
        order_pools=_order_pools(validation) if isinstance(validation, dict) else [],
        rules_file=data.rules_file,
    )
