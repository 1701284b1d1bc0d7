"""The common way a printed entry is read back, for systems whose entries name a catalogue
unit (`unit`) or carry the player's own (`custom`): a system's reader calls
`read_entry` with how it rebuilds a custom unit from the printed details.

In order: the candidate the player chose, or a typed name (by `NameIndex`); a renamed
entry (« Sgt Bob (Chef de groupe SG) »: the unit in the parentheses); a catalogue unit
whose printing is the same as the printed one; a custom unit rebuilt from the details;
a catalogue unit by its name alone (the details differ: said on the line); « non
reconnu » with the closest names."""

from collections.abc import Callable
from typing import Any

from app.systems.base import AnySystem
from app.systems.import_traits import (
    PrintedEntry,
    PrintedList,
    Read,
    Reading,
    entry_of,
    index_of,
    lines_of,
    match_note,
    match_title,
    prints_as,
    split_profile,
    unknown,
)

# The custom unit `details` describe (the `custom` of an entry), or None when they do not.
Rebuild = Callable[[AnySystem, PrintedEntry], dict[str, Any] | None]
Fields = dict[str, Any]


def origin_lost(printed: PrintedEntry) -> list[str]:
    """A unit drawn from an army book: its link to the book is not read back."""
    if printed.origin is None:
        return []
    return [f"vient du livre « {printed.origin[0]} » : le lien au livre n'est pas repris"]


def read_entry(
    system: AnySystem,
    printed: PrintedEntry,
    rebuild: Rebuild,
    more: Fields | None = None,
    extras: Fields | None = None,
) -> tuple[dict[str, Any] | None, Read]:
    """The entry `printed` makes (None when unknown) and what to tell of it. `more`: fields
    the system reads elsewhere (a group heading's), set on whatever entry is made;
    `extras`: the list's options that change how an entry prints (a costing)."""
    index = index_of(system)
    more = more or {}
    if printed.typed or printed.chosen is not None:
        found = match_title(index, printed)
        if found is None:
            return None, unknown()
        entry = entry_of(found.named, printed.count, **more)
        return entry, Read("matched", note=match_note(found))
    name, profile = split_profile(printed.title)
    renamed = index.find(profile) if profile is not None else None
    if renamed is not None and renamed.how == "exact":
        entry = entry_of(renamed.named, printed.count, name=name, **more)
        if prints_as(system, entry, printed, extras):
            return entry, Read("matched", lost=origin_lost(printed))
    found = index.find(printed.title)
    if found is not None and found.how == "exact":
        entry = entry_of(found.named, printed.count, **more)
        if prints_as(system, entry, printed, extras):
            return entry, Read("matched", lost=origin_lost(printed))
    custom = rebuild(system, printed)
    if custom is not None:
        entry = unnamed_if_same(system, {"custom": custom, "name": printed.title[:80]}, more)
        return {**entry, "count": printed.count, **more}, Read("custom", lost=origin_lost(printed))
    if found is not None:
        entry = entry_of(found.named, printed.count, **more)
        return entry, Read("matched", note=match_note(found))
    return None, unknown()


def unnamed_if_same(system: AnySystem, entry: Fields, more: Fields) -> Fields:
    """`entry` without its name when the engine names it the same way unnamed (« Figurine
    de Rep 4 »): the document then reads as the exported one did."""
    bare = {key: value for key, value in entry.items() if key != "name"}
    lines = lines_of(system, [{**bare, **more}])
    if lines and lines[0].title == entry.get("name"):
        return bare
    return entry


def read_all(
    system: AnySystem,
    printed: PrintedList,
    rebuild: Rebuild,
    more: Callable[[PrintedEntry], Fields] | None = None,
    aside: Callable[[PrintedEntry], Read | None] | None = None,
    extras: Fields | None = None,
) -> Reading:
    """Every printed entry read with `read_entry`, one document entry each; `more` gives
    the fields an entry takes from outside its line (its group's heading); `aside` reads
    the lines that are no entry (a typed « Coup caché : Raid aérien »), its `Read`."""
    reading = Reading(entries=[], extras={}, reads=[])
    for entry in printed.entries:
        other = aside(entry) if aside is not None else None
        if other is not None:
            reading.reads.append(other)
            continue
        made, said = read_entry(system, entry, rebuild, more(entry) if more else None, extras)
        if made is not None:
            said.entry = len(reading.entries)
            reading.entries.append(made)
        reading.reads.append(said)
    return reading
