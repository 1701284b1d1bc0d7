"""What a system declares for the list import (`SystemSpec.imports`, app/imports/).

The import reads a pasted list — Caserne's own BBCode, Markdown or text export, or lines a
player typed (« 3 x Jaffa ») — into a `PrintedList`: system-neutral blocks, one per entry
as printed (its count, its title, its printed cost, the group heading above it, its detail
parts). What those blocks mean is the system's to say: which catalogue unit a title names,
how a custom unit is rebuilt from the printed profile, what a group heading or a note sets
in the document. A system says it with `ImportTraits(read=...)`; the shared import names no
system, and the conformance check (app/systems/conformance.py) holds the reader to its
system's own exports: every example list, exported in each format and read back, shows
the same lines and totals.

A system's reader takes this module whole, as its toolkit (`from app.systems import
import_traits as kit`: `kit.Named`, `kit.fold`...), rather than each reader listing the
same names again.

Pure: no I/O. docs/import.md says what each format carries and what a reader returns.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar
from weakref import WeakKeyDictionary

from pydantic import ValidationError

from app.systems.base import AnySystem, SummaryLine
from app.systems.name_index import Match, Named, NameIndex, by_names, entry_of, fold

__all__ = [
    "ImportTraits",
    "Match",
    "NameIndex",
    "Named",
    "PrintedEntry",
    "PrintedList",
    "PrintedNote",
    "Read",
    "Reading",
    "Status",
    "by_names",
    "declare_imports",
    "detail_tokens",
    "engine_of",
    "entry_of",
    "fold",
    "import_traits",
    "line_tokens",
    "lines_of",
    "match_note",
    "match_title",
    "prints_as",
    "split_profile",
    "unknown",
]

Status = Literal["matched", "custom", "unknown"]


@dataclass(frozen=True)
class PrintedEntry:
    """One entry line as an export printed it, or as a player typed it.

    `lines`: the input lines read into it (0-based), its head first. `details`: the parts of
    its detail line, as the export separated them (« — » in BBCode and Markdown, « - » in
    text; BBCode joins the badges with « , » in one part: readers split further when they
    need). `chosen`: the candidate id the player picked for this line, if any."""

    lines: tuple[int, ...]
    count: int
    title: str
    points: int | None = None  # the printed cost of one (« 18 pts chacun »), if printed
    total: int | None = None  # the printed cost of all (« 144 pts »), if printed
    group: str | None = None
    details: tuple[str, ...] = ()
    house_rules: tuple[str, ...] = ()
    origin: tuple[str, str] | None = None  # (« Marines de Kessel, v3 », the book's link)
    typed: bool = False  # a line a player typed: no detail to read
    chosen: str | None = None

    @property
    def head(self) -> int:
        return self.lines[0]


@dataclass(frozen=True)
class PrintedNote:
    """A line of the list outside its entries: an export's extra (« Coup caché : Renfort —
    20 pts »), a note (« Armée : Humains »), or a line a player typed."""

    line: int
    text: str
    points: int | None = None  # an extra's printed cost
    group: str | None = None  # the heading it sits under


@dataclass(frozen=True)
class PrintedList:
    """A list as read from its text, whatever the format."""

    name: str
    entries: tuple[PrintedEntry, ...]
    notes: tuple[PrintedNote, ...] = ()
    points_limit: int | None = None  # « 199 / 200 points », « points 300/300 »
    typed: bool = False  # no export's shape: lines a player typed


@dataclass
class Read:
    """What one printed entry became. `entry`: the index of the document entry it made or
    belongs to (a No Limits leader's line joins its unit's entry), None when unknown."""

    status: Status
    entry: int | None = None
    candidates: Sequence[Named] = ()
    lost: list[str] = field(default_factory=list)  # what the text could not carry (French)
    note: str = ""  # what the player should know (« lu comme « Jaffa » »)


@dataclass
class Reading:
    """What a system's reader made of a `PrintedList`: the document's entries and extras,
    one `Read` per printed entry (in order), the notes it used (their line → what they set)
    and what the text could not carry for the list as a whole."""

    entries: list[dict[str, Any]]
    extras: dict[str, Any]
    reads: list[Read]
    used: dict[int, str] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)


Reader = Callable[[AnySystem, PrintedList], Reading]


@dataclass(frozen=True)
class ImportTraits:
    """How a system reads a printed list back (docs/systems.md « Import traits »).

    `read(system, printed)` returns the `Reading`; `names(system)` every name a player may
    type for a unit of its catalogue, each with the entry it makes (what « non reconnu »
    offers to choose from, and what a chosen candidate becomes)."""

    read: Reader
    names: Callable[[AnySystem], Sequence[Named]]


_DECLARED: "WeakKeyDictionary[Any, ImportTraits]" = WeakKeyDictionary()


def declare_imports(system: AnySystem, traits: ImportTraits | None) -> None:
    """Records the import traits a system's spec declares (app/catalogues.py)."""
    if traits is not None:
        _DECLARED[system] = traits


def import_traits(system: AnySystem) -> ImportTraits | None:
    """The import traits `system`'s spec declared, if any."""
    return _DECLARED.get(system)


# --- what readers share -----------------------------------------------------------------

_PARTS = re.compile(r" — | - |, ")


def detail_tokens(details: Sequence[str]) -> list[str]:
    """The printed detail parts as comparable tokens: split on every separator an export
    uses (« — », « - », « , »), folded (case, accents, spaces). Two printings of the same
    entry in different formats give the same tokens."""
    return [fold(part) for part in _PARTS.split(" — ".join(details)) if part.strip()]


def split_profile(title: str) -> tuple[str, str | None]:
    """« Sgt Bob (Chef de groupe SG) » → (« Sgt Bob », « Chef de groupe SG »): a title's
    last balanced parenthesis, which a renamed entry prints its unit in. (title, None)
    when it ends otherwise."""
    text = title.rstrip()
    if not text.endswith(")"):
        return title, None
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        if text[index] == ")":
            depth += 1
        elif text[index] == "(":
            depth -= 1
            if depth == 0:
                head = text[:index].rstrip()
                return (head, text[index + 1 : -1].strip()) if head else (title, None)
    return title, None


def match_title(index: NameIndex, printed: PrintedEntry, title: str | None = None) -> Match | None:
    """What a printed title names: the candidate the player chose for its line, else what
    `index` finds for `title` (the printed title by default)."""
    if printed.chosen is not None and printed.chosen in index.by_id:
        return Match(index.by_id[printed.chosen], "chosen")
    return index.find(printed.title if title is None else title)


def match_note(match: Match) -> str:
    """What the player is told of a name read otherwise than exactly."""
    if match.how == "close":
        return f"lu comme « {match.named.name} »"
    if match.how == "chosen":
        return f"choisi : « {match.named.name} »"
    return ""


def lines_of(
    system: AnySystem, entries: Sequence[dict[str, Any]], extras: dict[str, Any] | None = None
) -> list[SummaryLine] | None:
    """The summary lines a list of `entries` (and `extras`) prints, or None when its
    document does not parse: what a reader compares a printing with."""
    document: dict[str, Any] = {"system": system.id, "entries": list(entries)}
    if extras:
        document["extras"] = extras
    try:
        roster = system.roster_model.model_validate(document)
    except ValidationError:
        return None
    return system.summarize(roster, system.validate(roster)).lines


def line_tokens(line: SummaryLine) -> list[str]:
    """A summary line's details and badges as `detail_tokens` reads a printing of them."""
    return detail_tokens([*line.details, *(badge.text for badge in line.badges)])


def prints_as(
    system: AnySystem,
    entry: dict[str, Any],
    printed: PrintedEntry,
    extras: dict[str, Any] | None = None,
) -> bool:
    """Whether `entry` alone in a list (with `extras`) prints the details and the cost of
    one that `printed` shows."""
    lines = lines_of(system, [entry], extras)
    if not lines:
        return False
    if printed.points is not None and printed.points != lines[0].points_each:
        return False
    return line_tokens(lines[0]) == detail_tokens(printed.details)


def unknown() -> Read:
    """A printed entry no name of the catalogue fits: « non reconnu » (the import gives its
    closest names, within its bound of lookups: app/imports/lines.py)."""
    return Read("unknown")


_INDEXES: "WeakKeyDictionary[Any, NameIndex]" = WeakKeyDictionary()
EngineT = TypeVar("EngineT")


def engine_of(system: AnySystem, kind: type[EngineT]) -> EngineT:
    """`system` as its own engine class (a reader reads its catalogue data)."""
    assert isinstance(system, kind)
    return system


def index_of(system: AnySystem) -> NameIndex:
    """The system's names (its import traits'), built once per engine."""
    found = _INDEXES.get(system)
    if found is None:
        traits = import_traits(system)
        found = NameIndex(traits.names(system) if traits is not None else ())
        _INDEXES[system] = found
    return found
