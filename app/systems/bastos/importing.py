"""How a Bastos band is read back from its export or from typed lines (`ImportTraits`,
app/systems/import_traits.py): one of the text's figures by its name, or a figure rebuilt
from its printed Rep, « Chef », « Star » and weapon; the objective and the optional rules
from the band's notes."""

import re
from typing import Any

from app.systems import import_traits as kit
from app.systems.base import AnySystem
from app.systems.bastos import BastosSystem
from app.systems.bastos.present import OPTIONAL_RULES
from app.systems.entry_reading import read_all

REP = re.compile(r"^Rep (-?\d{1,3})$")
UNARMED = "Désarmé"
OBJECTIVE = "Objectif : "
OPTIONAL = "Règles optionnelles : "


def names(system: AnySystem) -> list[kit.Named]:
    """Every figure of the text by its name."""
    return kit.by_names(kit.engine_of(system, BastosSystem).data.figures)


def figure(system: AnySystem, printed: kit.PrintedEntry) -> dict[str, Any] | None:
    """A figure from its badges: « Rep 4 », « Chef », « Star », its weapon (or « Désarmé »)."""
    parts = [p.strip() for d in printed.details for p in re.split(r" — | - |, ", d)]
    weapons = {kit.fold(w.name): w.id for w in kit.engine_of(system, BastosSystem).data.weapons}
    rep = next((int(found[1]) for p in parts if (found := REP.match(p))), None)
    weapon = next((weapons[kit.fold(p)] for p in parts if kit.fold(p) in weapons), None)
    if rep is None or (weapon is None and UNARMED not in parts):
        return None
    return {"rep": rep, "leader": "Chef" in parts, "star": "Star" in parts, "weapon": weapon}


def read(system: AnySystem, printed: kit.PrintedList) -> kit.Reading:
    reading = read_all(system, printed, figure)
    rules = {kit.fold(name): rule for rule, name in OPTIONAL_RULES.items()}
    extras: dict[str, Any] = {"objective": "", "optional_rules": []}
    for note in printed.notes:
        if note.text.startswith(OBJECTIVE):
            extras["objective"] = note.text.removeprefix(OBJECTIVE)[:200]
            reading.used[note.line] = "objectif de la bande"
        elif note.text.startswith(OPTIONAL):
            named = [rules.get(kit.fold(n)) for n in note.text.removeprefix(OPTIONAL).split(", ")]
            extras["optional_rules"] = list(dict.fromkeys(r for r in named if r is not None))
            reading.used[note.line] = "règles optionnelles"
    reading.extras = extras
    return reading


IMPORTS = kit.ImportTraits(read=read, names=names)
