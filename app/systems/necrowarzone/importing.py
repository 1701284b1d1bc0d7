"""How a Necromunda–Warzone gang is read back from its export or from typed lines
(`ImportTraits`, app/systems/import_traits.py): a sample figure by its name, or a figure
rebuilt from its printed profile (« M4 CC4 CT4 F3 E3 PV1 I4 A1 Cd8 »), weapons
(« Bolter lourd (lourde, +1) »), heavy equipment, XP, light wounds and « chef »."""

import re
from typing import Any

from app.systems import import_traits as kit
from app.systems.base import AnySystem
from app.systems.entry_reading import read_all
from app.systems.necrowarzone import NecrowarzoneSystem
from app.systems.necrowarzone.models import CHARACTERISTICS

PROFILE = re.compile(r"^" + r"\s+".join(rf"{code}(-?\d{{1,3}})" for code in CHARACTERISTICS) + r"$")
XP = re.compile(r"^(-?\d{1,7}) XP$")
WOUNDS = re.compile(r"^(\d{1,2}) blessures? légères?$")
HEAVY_EQUIPMENT = "équipement lourd"
WEAPON_NOTES = re.compile(r"^(.*\S) \(((?:lourde|[+-]1)(?:, (?:lourde|[+-]1))*)\)$")
DERIVED = re.compile(r"^(?:commandement à \d+ pas|\d+ actions?|touche .*|encombré|chef)$")


def names(system: AnySystem) -> list[kit.Named]:
    """Every sample figure by its name."""
    return kit.by_names(kit.engine_of(system, NecrowarzoneSystem).data.figures)


def outside_parentheses(text: str) -> list[str]:
    """« Fusil (lourde, +1), Couteau » → the two weapons: commas inside parentheses stay."""
    parts, depth, start = [], 0, 0
    for index, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0 and text[index + 1 : index + 2] == " ":
            parts.append(text[start:index].strip())
            start = index + 1
    parts.append(text[start:].strip())
    return [part for part in parts if part]


def weapon(text: str) -> dict[str, Any]:
    """« Bolter lourd (lourde, +1) » → its name, heavy, its to-hit modifier."""
    found = WEAPON_NOTES.match(text)
    if found is None:
        return {"name": text[:80], "heavy": False, "hit_modifier": 0}
    notes = found[2].split(", ")
    modifier = next((int(note) for note in notes if note != "lourde"), 0)
    return {"name": found[1][:80], "heavy": "lourde" in notes, "hit_modifier": modifier}


def figure(system: AnySystem, printed: kit.PrintedEntry) -> dict[str, Any] | None:
    """A figure from its printed details; None without a profile line."""
    parts = [p.strip() for d in printed.details for p in re.split(r" — | - ", d)]
    profiles = [(i, match) for i, part in enumerate(parts) if (match := PROFILE.match(part))]
    if not profiles:
        return None
    at, match = profiles[0]
    values = match.groups()
    flags = {token for part in parts for token in part.split(", ")}
    built: dict[str, Any] = {
        "leader": "chef" in flags,
        "xp": 0,
        "light_wounds": 0,
        "profile": dict(zip(CHARACTERISTICS, map(int, values), strict=True)),
        "weapons": [],
        "heavy_equipment": HEAVY_EQUIPMENT in parts,
    }
    for index, part in enumerate(parts):
        if found := XP.match(part):
            built["xp"] = int(found[1])
        elif found := WOUNDS.match(part):
            built["light_wounds"] = int(found[1])
        elif index == at + 1 and part != HEAVY_EQUIPMENT and not _derived(part):
            built["weapons"] = [weapon(w) for w in outside_parentheses(part)][:20]
    return built


def _derived(part: str) -> bool:
    """A part the engine computes (actions, to-hit, command radius), or an XP count."""
    return bool(XP.match(part)) or all(DERIVED.match(t) for t in part.split(", "))


def read(system: AnySystem, printed: kit.PrintedList) -> kit.Reading:
    return read_all(system, printed, figure)


IMPORTS = kit.ImportTraits(read=read, names=names)
