"""What changed between two versions of a unit, in French: « CT 4 → 5 », « Équipement :
+ grenade », « Coût 20 → 25 pts ». Pure; works on any system's definition (JSON values),
so it serves army books and catalogue fixes alike (docs/books.md)."""

from collections import Counter
from typing import Any

__all__ = ["LABELS", "changes", "definition_changes"]

# Field names shown as a player reads them; characteristics (CT, CC, PV...) stay as printed.
LABELS = {
    "level": "Niveau",
    "items": "Équipement",
    "weapons": "Armes",
    "abilities": "Capacités",
    "vehicle": "Véhicule",
    "size": "Taille",
    "size_mm": "Socle (mm)",
    "free_skills": "Autres compétences",
    "options": "Options",
    "skills": "Compétences",
    "equipment": "Équipement",
    "orders": "Ordres",
    "impetuous": "Impétueux",
    "ava": "Disponibilité",
    "name": "Nom",
    "points": "Points",
    "swc": "CAP",
    "lieutenant": "Lieutenant",
    "rep": "Rep",
    "leader": "Chef",
    "star": "Star",
    "weapon": "Arme",
    "xp": "XP",
    "light_wounds": "Blessures légères",
    "heavy_equipment": "Équipement lourd",
    "heavy": "Lourde",
    "hit_modifier": "Modificateur de tir",
    "melee": "Corps à corps",
    "rules": "Règles",
    "profile": "",
}

# A change list is bounded: a unit rewritten from scratch says so in this many lines.
MAX_CHANGES = 40


def _label(path: list[str]) -> str:
    words = [LABELS.get(part, part) for part in path]
    return " ".join(word for word in words if word) or "Unité"


def _text(value: Any) -> str:
    if value is None:
        return "aucun"
    if value is True:
        return "oui"
    if value is False:
        return "non"
    if isinstance(value, dict):
        return str(value.get("name") or value.get("id") or "…")
    if isinstance(value, list):
        return "[" + ", ".join(_text(item) for item in value) + "]"
    return str(value)


def _key(value: Any) -> str | None:
    """What identifies an element of a list of objects (a weapon, an option): id, else name."""
    if isinstance(value, dict):
        key = value.get("id") or value.get("name")
        return str(key) if key is not None else None
    return None


def _walk(before: Any, after: Any, path: list[str], out: list[str]) -> None:
    if before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in list(dict.fromkeys([*before, *after])):
            _walk(before.get(key), after.get(key), [*path, key], out)
        return
    if isinstance(before, list) and isinstance(after, list):
        keyed_before = {_key(item): item for item in before if _key(item) is not None}
        keyed_after = {_key(item): item for item in after if _key(item) is not None}
        plain_before = Counter(_text(i) for i in before if _key(i) is None)
        plain_after = Counter(_text(i) for i in after if _key(i) is None)
        label = _label(path)
        for item in plain_after - plain_before:
            out.append(f"{label} : + {item}")
        for item in plain_before - plain_after:
            out.append(f"{label} : − {item}")
        for key, item in keyed_after.items():
            if key not in keyed_before:
                out.append(f"{label} : + {_text(item)}")
            else:
                _walk(keyed_before[key], item, [*path, _text(item)], out)
        for key, item in keyed_before.items():
            if key not in keyed_after:
                out.append(f"{label} : − {_text(item)}")
        return
    out.append(f"{_label(path)} {_text(before)} → {_text(after)}")


def definition_changes(before: Any, after: Any) -> list[str]:
    """Each difference between two definitions, as a line in French, in field order."""
    out: list[str] = []
    _walk(before, after, [], out)
    if len(out) > MAX_CHANGES:
        return [*out[: MAX_CHANGES - 1], f"… et {len(out) - MAX_CHANGES + 1} autres changements"]
    return out


def changes(
    before: dict[str, Any], after: dict[str, Any], points_before: int, points_after: int
) -> list[str]:
    """A book unit's changes: its name, its definition, then its cost."""
    out = []
    if before.get("name") != after.get("name"):
        out.append(f"Nom « {before.get('name')} » → « {after.get('name')} »")
    out.extend(definition_changes(before.get("definition"), after.get("definition")))
    if before.get("text") != after.get("text"):
        out.append("Texte modifié")
    if points_before != points_after:
        out.append(f"Coût {points_before} → {points_after} pts")
    return out
