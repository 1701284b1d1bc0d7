"""How Infinity's forms read: the creator's trooper, the editor's groups, the list's own
troopers (pure functions of the submitted form)."""

import re
import unicodedata
from typing import Any

from starlette.datastructures import FormData

from app.systems.infinity.models import HIGHEST_GROUP, InfinityCostRequest
from app.web.forms import int_or_raw, json_object


def slug(text: str, fallback: str) -> str:
    """An ASCII snake_case id of a name ("Écorcheur des marais" -> ecorcheur_des_marais)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    return "_".join(words)[:60].strip("_") or fallback


def unique(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    number = 2
    while f"{base[:56]}_{number}" in taken:
        number += 1
    return f"{base[:56]}_{number}"


def swc_value(value: Any) -> Any:
    """SWC typed as players write it: "1", "0,5", "1.5"; the raw text when it is not one."""
    text = str(value or "").strip().replace(",", ".")
    if not text:
        return 0.0
    try:
        return float(text)
    except ValueError:
        return text


def ava_value(value: Any) -> Any:
    """AVA as typed: a number, or Total (also left blank)."""
    text = str(value or "").strip()
    return None if text.lower() in ("", "total", "t") else int_or_raw(text)


def group_value(value: Any) -> Any:
    """A combat group as typed, bounded where it enters: an integer out of 1..HIGHEST_GROUP
    becomes 0 or HIGHEST_GROUP + 1, which the model still refuses with its French message
    (« au moins 1 », « au plus 100 »); text stays text (at most 20 characters: « nombre
    entier attendu »). The editor's group select is drawn from it (`entry-0-group=1000000`
    rendered a 38.8 MB page, issue 13)."""
    number = int_or_raw(value)
    if isinstance(number, int):
        return min(max(number, 0), HIGHEST_GROUP + 1)
    return None if number is None else str(value).strip()[:20]


def group_of(form: FormData, index: int, ref: dict[str, Any] | None = None) -> int:
    """The row's group: its select's, else its ref's (`ref`: the row's ref, when read)."""
    value = group_value(form.get(f"entry-{index}-group"))
    if isinstance(value, int):
        return value
    stored = (entry_ref(form, index) if ref is None else ref).get("group", 1)
    return stored if isinstance(stored, int) else 10**9


def sort_key(
    form: FormData, index: int, ref: dict[str, Any] | None = None
) -> tuple[int, bool, int]:
    """Entries by combat group; one just moved to a group goes to the end of its block."""
    ref = entry_ref(form, index) if ref is None else ref
    group = group_of(form, index, ref)
    return group, group != ref.get("group", 1), index


def combat_order(form: FormData) -> list[int]:
    """The rows' indexes ordered by sort_key, each row's ref read once (issue 19: it was
    read twice per comparison key, for every row of every row)."""
    refs = [entry_ref(form, index) for index in range(entry_count(form))]
    return sorted(range(len(refs)), key=lambda i: sort_key(form, i, refs[i]))


def entry_ref(form: FormData, index: int) -> dict[str, Any]:
    """A row's ref; a crafted one reads as no entry."""
    return json_object(str(form.get(f"entry-{index}-ref") or "")) or {}


def entry_count(form: FormData) -> int:
    count = 0
    while form.get(f"entry-{count}-ref") is not None:
        count += 1
    return count


def with_trooper(
    document: dict[str, Any],
    body: InfinityCostRequest,
    catalogue_ids: set[str],
    count: Any,
    group: int,
) -> dict[str, Any]:
    """The document with the created trooper among its own (`extras.units`) and one entry
    of the chosen option. A trooper already there unchanged is reused; another one with the
    same id, or a catalogue trooper's id, gets a new id."""
    trooper: dict[str, Any] = body.unit.model_dump(mode="json")
    extras = dict(document.get("extras") or {})
    units = list(extras.get("units") or [])
    same = next((unit for unit in units if unit == trooper), None)
    if same is None:
        trooper["id"] = unique(trooper["id"], catalogue_ids | {unit["id"] for unit in units})
        units.append(trooper)
    entry: dict[str, Any] = {"unit": (same or trooper)["id"], "option": body.option, "group": group}
    entry["count"] = count if isinstance(count, int) and 1 <= count <= 100 else 1
    return {
        **document,
        "entries": [*document.get("entries", []), entry],
        "extras": {**extras, "units": units},
    }
