"""How a DCSystem list is read back from its export or from typed lines (`ImportTraits`,
app/systems/import_traits.py): a catalogue profile by its name, a fighter rebuilt from its
printed level and items (« Niveau 2 — Régénération, Arme de corps à corps niveau 3 »), the
Renfort group from its heading, the hidden moves and the costing from the list's notes."""

import re
from typing import Any

from app.systems import import_traits as kit
from app.systems.base import AnySystem
from app.systems.dcsystem import COSTING_NOTE, HIDDEN_MOVE, DcSystem
from app.systems.entry_reading import read_all

LEVEL = re.compile(r"^Niveau ([1-3])$")
DICE = re.compile(r"^\d+ (?:rouge|bleu|blanc|jaune)s?$")
COMPUTED = "recalculés"
AGREED = (
    "plusieurs coups cachés : l'accord des joueurs (hidden_moves_agreed) n'est pas imprimé, "
    "il est à redonner dans l'éditeur"
)


def names(system: AnySystem) -> list[kit.Named]:
    """Every published profile by its name; « Samantha Carter / Daniel Jackson » by each of
    its two names too."""
    out = []
    for unit in kit.engine_of(system, DcSystem).data.units:
        sides = [side.strip() for side in unit.name.split(" / ")]
        aliases = tuple(sides) if len(sides) > 1 and all(" " in s for s in sides) else ()
        out.append(kit.Named(unit.id, unit.name, {"unit": unit.id}, aliases))
    return out


def fighter(system: AnySystem, printed: kit.PrintedEntry) -> dict[str, Any] | None:
    """A fighter from « Niveau N » and the part after it, its items by name."""
    parts = [part for detail in printed.details for part in re.split(r" — | - ", detail)]
    levels = [(i, found) for i, part in enumerate(parts) if (found := LEVEL.match(part))]
    if not levels:
        return None
    level, found = levels[0]
    items_by_name = {
        kit.fold(item.name): item.id for item in kit.engine_of(system, DcSystem).data.items
    }
    items: list[str] = []
    following = parts[level + 1] if level + 1 < len(parts) else ""
    if following and not all(DICE.match(p.strip()) for p in following.split(", ")):
        for name in following.split(", "):
            item = items_by_name.get(kit.fold(name))
            if item is None:
                return None
            items.append(item)
    return {"level": int(found[1]), "items": items}


def group_of(entry: kit.PrintedEntry) -> dict[str, Any]:
    """Under the « Renfort » heading, an entry is in the Renfort group (not counted)."""
    return {"group": "renfort"} if entry.group and "renfort" in kit.fold(entry.group) else {}


def hidden_move(system: AnySystem, text: str) -> tuple[str, str] | None:
    """(id, name) of the hidden move « Coup caché : Raid aérien » names."""
    if not kit.fold(text).startswith(kit.fold(HIDDEN_MOVE).rstrip()):
        return None
    wanted = kit.fold(text.split(":", 1)[1]) if ":" in text else ""
    moves = kit.engine_of(system, DcSystem).data.hidden_moves
    move = next((m for m in moves if kit.fold(m.name) == wanted), None)
    return (move.id, move.name) if move is not None else None


def read(system: AnySystem, printed: kit.PrintedList) -> kit.Reading:
    hidden: list[str] = []
    extras: dict[str, Any] = {}
    used: dict[int, str] = {}
    for note in printed.notes:
        move = hidden_move(system, note.text)
        if move is not None:
            hidden.append(move[0])
            used[note.line] = f"coup caché : {move[1]}"
        elif note.text.startswith(COSTING_NOTE) and not printed.typed:
            computed = COMPUTED in note.text
            extras["costing"] = "computed" if computed else "printed"
            used[note.line] = "coûts recalculés" if computed else "coûts imprimés"

    def aside(entry: kit.PrintedEntry) -> kit.Read | None:
        move = hidden_move(system, entry.title)
        if move is None:
            return None
        hidden.append(move[0])
        return kit.Read("matched", note=f"coup caché : {move[1]}")

    reading = read_all(system, printed, fighter, group_of, aside, extras)
    reading.used = used
    extras["hidden_moves"] = hidden = list(dict.fromkeys(hidden))
    if len(hidden) > 1:
        reading.lost.append(AGREED)
    reading.extras = extras
    return reading


IMPORTS = kit.ImportTraits(read=read, names=names)
