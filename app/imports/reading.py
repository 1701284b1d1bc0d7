"""A pasted list read into a roster document: bounded, checked, then read by the system's
own reader (`ImportTraits`), validated by its engine, every input line told what it became.

Pure: text in, `Imported` out; a share link of this site is app/imports/service.py's.
Refusals are `ImportRefused`, with a stable code (docs/api-codes.md) and a French message.
"""

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from app.imports.checks import MAX_ENTRIES, MAX_PRINTED, ImportRefused, refused_json
from app.imports.formats import Parsed, parse
from app.imports.lines import Line, LineStatus, closest_names, entry_lines, note_lines
from app.systems.base import AnySystem, RosterResult, RosterSummary
from app.systems.import_traits import (
    NameIndex,
    PrintedEntry,
    PrintedList,
    PrintedNote,
    Read,
    Reading,
    fold,
    import_traits,
    index_of,
)
from app.validation_text import french_message

Shape = Literal["json", "share", "bbcode", "markdown", "text", "typed"]
UNNAMED = "Liste importée"
# Typed lines looked up by name, at most (each compares with every catalogue name).
MAX_LOOKUPS = 100


@dataclass
class Imported:
    """What a text became: the system, the document (parsed, valid for the system's
    model), its engine's validation and summary, each input line, what was lost."""

    system: AnySystem
    shape: Shape
    document: BaseModel
    result: RosterResult[Any, Any]
    summary: RosterSummary
    lines: list[Line]
    lost: list[str] = field(default_factory=list)
    share: str | None = None  # the code of the share it was taken from


# --- which system ------------------------------------------------------------------------


def system_named(systems: Mapping[str, AnySystem], name: str | None) -> AnySystem | None:
    """The system whose name an export printed (« Dices & Colors System — Stargate's War »)."""
    if not name:
        return None
    wanted = fold(name)
    return next((s for s in systems.values() if fold(s.name) == wanted), None)


def guessed_system(
    systems: Mapping[str, AnySystem], entries: Sequence[PrintedEntry]
) -> AnySystem | None:
    """For typed lines that name no system: the one whose catalogue names the most of them
    (exactly), when one does more than every other."""
    scores: dict[str, int] = {}
    for system_id, system in systems.items():
        index = index_of(system)
        scores[system_id] = sum(
            1 for e in entries[:50] if (m := index.find(e.title)) and m.how == "exact"
        )
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] == 0 or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        return None
    return systems[ranked[0][0]]


def chosen_system(
    systems: Mapping[str, AnySystem], wanted: str | None, said: AnySystem | None
) -> AnySystem | None:
    """The system asked for (`wanted`), refused when the text says another one."""
    if wanted is None:
        return said
    system = systems.get(wanted)
    if system is None:
        raise ImportRefused("unknown_system", "Système de jeu inconnu.", loc=("body", "system"))
    if said is not None and said.id != system.id:
        raise ImportRefused(
            "system_mismatch",
            f"Ce texte est une liste de « {said.name} », pas de « {system.name} ».",
            loc=("body", "text"),
        )
    return system


def unknown_system() -> ImportRefused:
    return ImportRefused(
        "system_unknown",
        "Le texte ne dit pas de quel jeu est cette liste : choisissez le jeu.",
        loc=("body", "system"),
    )


# --- JSON -----------------------------------------------------------------------------------


@dataclass
class JsonList:
    system: AnySystem
    document: dict[str, Any]
    share: str | None  # the code a share's export carries
    catalogue_version: str | None


def read_json(systems: Mapping[str, AnySystem], wanted: str | None, text: str) -> JsonList:
    """A JSON export of Caserne (a share's `.json`, a roster document, an API answer)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        where = f" (ligne {line})" if line else ""
        raise ImportRefused(
            "json_invalid", f"Ce fichier n'est pas du JSON valide{where}.", loc=("body", "text")
        ) from None
    refused_json(value)
    if not isinstance(value, dict):
        raise not_a_list()
    if value.get("format") == "caserne-carnet" or "format_version" in value:
        version = value.get("format_version")
        if isinstance(version, int) and not isinstance(version, bool) and version > 1:
            raise ImportRefused(
                "format_version",
                f"Ce fichier vient d'une version plus récente de Caserne (format {version}) : "
                "ce site ne sait pas encore le lire.",
                loc=("body", "text"),
            )
        raise ImportRefused(
            "carnet_file",
            "Ce fichier est un carnet entier, pas une liste : il se restaure avec « Restaurer "
            "un carnet », dans « Mes listes ».",
            loc=("body", "text"),
        )
    inner = value.get("roster")
    roster: dict[str, Any] = inner if isinstance(inner, dict) else value
    if not isinstance(roster.get("system"), str) or not isinstance(roster.get("entries"), list):
        raise not_a_list()
    system = systems.get(roster["system"])
    if system is None:
        raise ImportRefused(
            "unknown_system",
            f"Cette liste est d'un jeu que ce site ne propose pas ({roster['system'][:40]}).",
            loc=("body", "text"),
        )
    system = chosen_system(systems, wanted, system)
    assert system is not None
    code = value.get("code") if roster is not value else None
    version = value.get("catalogue_version")
    return JsonList(
        system,
        roster,
        code if isinstance(code, str) else None,
        version if isinstance(version, str) else None,
    )


def not_a_list() -> ImportRefused:
    return ImportRefused(
        "not_a_list",
        "Ce JSON n'est pas une liste de Caserne (ni un partage, ni un document de liste).",
        loc=("body", "text"),
    )


def json_document(system: AnySystem, found: JsonList) -> BaseModel:
    """The JSON's roster, parsed as the system's document: a refusal names why."""
    try:
        parsed: BaseModel = system.roster_model.model_validate(found.document)
        return parsed
    except ValidationError as exc:
        version = found.catalogue_version or ""
        if version > system.catalogue_version:
            raise ImportRefused(
                "format_version",
                f"Cette liste vient d'un catalogue plus récent ({version[:40]}) "
                f"que celui de ce site ({system.catalogue_version}).",
                loc=("body", "text"),
            ) from None
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        why = french_message(first["type"], first["msg"], first.get("ctx") or {})
        raise ImportRefused(
            "invalid", f"Cette liste ne peut pas être lue ({where} : {why}).", loc=("body", "text")
        ) from None


def whole(system: AnySystem, shape: Shape, document: BaseModel, text: str, note: str) -> Imported:
    """A document taken whole (JSON, a share): every line says so."""
    result = system.validate(document)
    status: LineStatus = "share" if shape == "share" else "matched"
    lines = [Line(line, status) for line in text.split("\n")]
    if lines:
        lines[0].note = note
    return Imported(system, shape, document, result, system.summarize(document, result), lines)


# --- text -----------------------------------------------------------------------------------


def read_text(
    systems: Mapping[str, AnySystem],
    wanted: str | None,
    text: str,
    choices: Mapping[int, str] | None = None,
) -> Imported:
    """An export's text, or lines a player typed, read into a document."""
    parsed = parse(text, choices)
    said = system_named(systems, parsed.system_name)
    system = chosen_system(systems, wanted, said)
    if system is None:
        system = guessed_system(systems, parsed.printed.entries)
    if system is None:
        raise unknown_system()
    if import_traits(system) is None:
        raise ImportRefused(
            "import_unsupported",
            f"L'import de listes n'est pas encore possible pour « {system.name} ».",
            loc=("body", "system"),
        )
    if parsed.printed.typed:
        parsed = with_bare_names(parsed, index_of(system))
    printed, refused = kept_entries(parsed.printed)
    traits = import_traits(system)
    assert traits is not None
    reading = traits.read(system, printed)
    document, reading = checked_document(system, parsed, printed, reading)
    result = system.validate(document)
    summary = system.summarize(document, result)
    lines = entry_lines(text, parsed, printed, reading, refused, summary)
    note_lines(lines, parsed, reading, summary)
    closest_names(lines, parsed, index_of(system), MAX_LOOKUPS)
    shape: Shape = parsed.format
    return Imported(system, shape, document, result, summary, lines, reading.lost)


def with_bare_names(parsed: Parsed, index: NameIndex) -> Parsed:
    """Typed lines that are a catalogue name and nothing else (« Teal'c ») as entries of
    one; the first other line before any entry names the list."""
    entries = list(parsed.printed.entries)
    notes: list[PrintedNote] = []
    name = parsed.printed.name
    first_entry = min((e.head for e in entries), default=len(parsed.kinds))
    limit = parsed.printed.points_limit
    for looked, note in enumerate(parsed.printed.notes):
        # Each lookup compares with every catalogue name: bounded as the entries are.
        found = index.find(note.text) if looked < MAX_ENTRIES else None
        if found is not None and found.how == "exact":
            bare = PrintedEntry((note.line,), 1, note.text, note.points, group=note.group)
            entries.append(replace(bare, typed=True))
            parsed.kinds[note.line] = "entry"
        elif not name and note.line < first_entry:
            name, limit = note.text, limit or note.points  # « Ma liste (200 pts) »
            parsed.kinds[note.line] = "name"
        else:
            notes.append(note)
    if not name:  # a heading above every entry (« **Les Rats de la Ruche** ») names it
        first = next((n for n, kind in enumerate(parsed.kinds) if kind not in ("blank",)), None)
        if first is not None and first < first_entry and first in parsed.headings:
            name = parsed.headings[first]
            parsed.kinds[first] = "name"
    entries.sort(key=lambda entry: entry.head)
    printed = PrintedList(
        name=name,
        entries=tuple(entries),
        notes=tuple(notes),
        points_limit=limit,
        typed=True,
    )
    return Parsed(
        parsed.format, printed, parsed.kinds, parsed.system_name, parsed.links, parsed.headings
    )


def kept_entries(printed: PrintedList) -> tuple[PrintedList, dict[int, str]]:
    """The printed entries a document can hold (1 to 100 figures, 200 entries at most),
    and why each other one was left out (by its head line)."""
    kept: list[PrintedEntry] = []
    refused: dict[int, str] = {}
    for entry in printed.entries:
        if not 1 <= entry.count <= 100:
            refused[entry.head] = "nombre de figurines refusé : de 1 à 100 par ligne"
        elif len(kept) >= (MAX_ENTRIES if printed.typed else MAX_PRINTED):
            refused[entry.head] = f"une liste tient au plus {MAX_ENTRIES} entrées"
        else:
            kept.append(entry)
    return (
        PrintedList(printed.name, tuple(kept), printed.notes, printed.points_limit, printed.typed),
        refused,
    )


def checked_document(
    system: AnySystem, parsed: Parsed, printed: PrintedList, reading: Reading
) -> tuple[BaseModel, Reading]:
    """The reading as the system's document; an entry the model refuses is left out (its
    lines say why), extras the model refuses are dropped (said too)."""
    name = (printed.name or UNNAMED).strip()[:100]
    limit = printed.points_limit if system.has_points else None
    if len(reading.entries) > MAX_ENTRIES:
        reading = beyond_the_last(reading)
    for _attempt in range(3):
        document = {
            "system": system.id,
            "name": name,
            "points_limit": limit if limit is None or 1 <= limit <= 100_000 else None,
            "entries": reading.entries,
            "extras": reading.extras,
        }
        try:
            return system.roster_model.model_validate(document), reading
        except ValidationError as exc:
            reading = without_refused(reading, exc)
    raise ImportRefused("invalid", "Cette liste ne peut pas être lue.", loc=("body", "text"))


def beyond_the_last(reading: Reading) -> Reading:
    """`reading` without the entries past the models' bound (each line says so)."""
    reads = [
        Read("unknown", note=f"une liste tient au plus {MAX_ENTRIES} entrées")
        if read.entry is not None and read.entry >= MAX_ENTRIES
        else read
        for read in reading.reads
    ]
    entries = reading.entries[:MAX_ENTRIES]
    return Reading(entries, reading.extras, reads, reading.used, reading.lost)


def without_refused(reading: Reading, exc: ValidationError) -> Reading:
    """`reading` without the entries (or extras) the model refused."""
    bad: dict[int, str] = {}
    extras_refused = False
    for error in exc.errors():
        loc = error["loc"]
        why = french_message(error["type"], error["msg"], error.get("ctx") or {})
        if len(loc) >= 2 and loc[0] == "entries" and isinstance(loc[1], int):
            bad.setdefault(loc[1], why)
        else:
            extras_refused = True
    keep = [i for i in range(len(reading.entries)) if i not in bad]
    renumber = {old: new for new, old in enumerate(keep)}
    reads = []
    for read in reading.reads:
        if read.entry is not None and read.entry in bad:
            reads.append(Read("unknown", None, read.candidates, note=f"refusé : {bad[read.entry]}"))
        else:
            entry = renumber.get(read.entry) if read.entry is not None else None
            reads.append(Read(read.status, entry, read.candidates, read.lost, read.note))
    lost = list(reading.lost)
    extras = reading.extras
    if extras_refused and not bad:
        extras, lost = {}, [*lost, "les options de la liste n'ont pas pu être reprises"]
    return Reading([reading.entries[i] for i in keep], extras, reads, reading.used, lost)
