"""What each input line became (api-v1.md « Import »: every line, in order), and where the
text and the engine disagree: a printed cost, title or detail the document does not give
again is said on its line, never silently replaced."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from app.exports.common import total_text
from app.imports.formats import Kind, Parsed
from app.systems.base import RosterSummary, SummaryLine
from app.systems.import_traits import (
    Named,
    NameIndex,
    PrintedEntry,
    PrintedList,
    Reading,
    detail_tokens,
    fold,
)

LineStatus = Literal["matched", "custom", "share", "ignored", "unknown"]

KIND_NOTES: dict[Kind, str] = {
    "blank": "",
    "name": "nom de la liste",
    "system": "jeu de la liste",
    "total": "total imprimé",
    "invalid": "Caserne refait ses propres vérifications",
    "group": "titre de groupe",
    "issue": "remarque imprimée : Caserne refait ses propres vérifications",
    "link": "lien de la liste",
    "note": "note de l'export",
    "entry": "",
}
UNKNOWN = "non reconnu"


@dataclass
class Line:
    """One input line: what it became, the document entry it made (its index), the
    catalogue names closest to it when it was not recognised, a note for the player."""

    text: str
    status: LineStatus
    entry: int | None = None
    candidates: list[Named] = field(default_factory=list)
    note: str = ""


def entry_lines(
    text: str,
    parsed: Parsed,
    printed: PrintedList,
    reading: Reading,
    refused: dict[int, str],
    summary: RosterSummary,
) -> list[Line]:
    """Every line of `text`, the entries' lines told what they became."""
    raw = text.split("\n")
    lines = [
        Line(line, "ignored", note=KIND_NOTES[kind])
        for line, kind in zip(raw, parsed.kinds, strict=False)
    ]
    for entry in parsed.printed.entries:
        if entry.head in refused:
            for number in entry.lines:
                lines[number] = Line(raw[number], "unknown")
            lines[entry.head].note = refused[entry.head]
    said = disagreements(printed.entries, [read.entry for read in reading.reads], summary)
    for entry, read, differs in zip(printed.entries, reading.reads, said, strict=True):
        note = "; ".join(part for part in (read.note, *read.lost, *differs) if part)
        if read.status == "unknown" and not note:
            note = UNKNOWN
        for number in entry.lines:
            lines[number] = Line(raw[number], read.status, read.entry)
        lines[entry.head].candidates = list(read.candidates)
        lines[entry.head].note = note
    return lines


def note_lines(lines: list[Line], parsed: Parsed, reading: Reading, summary: RosterSummary) -> None:
    """The lines outside the entries: a note the reader used (what it set), the total
    (against the engine's), and for typed lines, « non reconnu »."""
    for number, kind in enumerate(parsed.kinds):
        line = lines[number]
        if number in reading.used:
            line.status, line.note = "matched", reading.used[number]
        elif kind == "total":
            engine = total_text(summary)
            printed = line.text.strip().strip("[]*/b").removeprefix("Total : ")
            same = fold(printed).replace(" ", "") == fold(engine).replace(" ", "")
            line.note = "total imprimé" + ("" if same else f" ; Caserne compte : {engine}")
        elif kind == "note" and parsed.printed.typed:
            line.status, line.note = "unknown", UNKNOWN


def closest_names(lines: list[Line], parsed: Parsed, index: NameIndex, lookups: int) -> None:
    """Each « non reconnu » line's closest catalogue names (by its printed name), for the
    first `lookups` of them: each compares with every name of the catalogue."""
    titles = {entry.head: entry.title for entry in parsed.printed.entries}
    notes = {note.line: note.text for note in parsed.printed.notes}
    for number, line in enumerate(lines):
        if lookups <= 0:
            return
        name = titles.get(number, notes.get(number))
        if line.status == "unknown" and not line.candidates and name is not None:
            line.candidates = index.closest(name)
            lookups -= 1


def disagreements(
    entries: Sequence[PrintedEntry], reads: Sequence[int | None], summary: RosterSummary
) -> list[list[str]]:
    """For each printed entry, where its printing and the engine's line of the document
    differ: the count, the title, the cost, the details (each said once)."""
    by_entry: dict[int, list[SummaryLine]] = {}
    for line in summary.lines:
        if line.entry is not None:
            by_entry.setdefault(line.entry, []).append(line)
    seen: dict[int, int] = {}
    out: list[list[str]] = []
    for printed, entry in zip(entries, reads, strict=True):
        if entry is None:
            out.append([])
            continue
        position = seen.get(entry, 0)
        seen[entry] = position + 1
        found = by_entry.get(entry, [])
        shown = found[position] if position < len(found) else None
        out.append([] if shown is None else _compared(printed, shown, summary.has_points))
    return out


def _compared(printed: PrintedEntry, line: SummaryLine, has_points: bool) -> list[str]:
    said = []
    if printed.count != line.count:
        said.append(f"imprimé {printed.count} figurines, Caserne en compte {line.count}")
    if not printed.typed and fold(printed.title) != fold(line.title):
        said.append(f"imprimé « {printed.title} », Caserne affiche « {line.title} »")
    if has_points:
        said += _costs(printed, line)
    if not printed.typed:
        mine = detail_tokens([*line.details, *(badge.text for badge in line.badges)])
        theirs = detail_tokens(printed.details)
        if mine != theirs:
            said.append(_first_difference(theirs, mine))
    return said


def _costs(printed: PrintedEntry, line: SummaryLine) -> list[str]:
    if printed.points is not None and printed.points != line.points_each:
        return [f"imprimé {printed.points} pts, Caserne compte {line.points_each} pts"]
    engine = line.count * line.points_each
    if printed.points is None and printed.total not in (None, line.points_each, engine):
        return [f"imprimé {printed.total} pts, Caserne compte {engine} pts"]
    return []


def _first_difference(printed: list[str], engine: list[str]) -> str:
    """« imprimé « 3 rouges », Caserne : « 2 rouges » » for the first part that differs."""
    for theirs, mine in zip(printed, engine, strict=False):
        if theirs != mine:
            return f"détail imprimé « {theirs} », Caserne : « {mine} »"
    if len(printed) > len(engine):
        return f"détail imprimé « {printed[len(engine)]} » absent chez Caserne"
    return f"Caserne ajoute « {engine[len(printed)]} »"
