"""What a save changed in a list, in a player's words (issue 30, « Every save kept »): the
summary each kept version carries (« Jaffa 2 → 3 », « Teal'c retiré », « Marine mis à jour
depuis le livre « Kessel » v4 »), and the comparison of two versions. Pure: two documents
in, lines out; names come from the caller's validation of the new document when it has
one, else from the system (a one-entry validation, for the few entries a save removed or
renamed). The store keeps the versions (app/store/history.py)."""

import json
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlmodel import Session

from app.book_units import drawn_units
from app.store import books as book_store
from app.store.history import count_lines
from app.systems.base import AnySystem

# A summary says at most this many changes, then how many more.
SUMMARY_LINES = 12
UNCHANGED = "Aucun changement"

# The published version of a book a code names, as (book name, version), or None.
BookVersion = Callable[[str], tuple[str, int] | None]


@dataclass(frozen=True)
class Change:
    """What one save changed: its lines, and (counts changed, nothing else) each changed
    entry's [label, before, after] by its place."""

    lines: list[str]
    counts: dict[str, list[Any]] | None


def entry_label(system: AnySystem, document: dict[str, Any], entry: dict[str, Any]) -> str:
    """What the player calls an entry: its name, else the name the system gives it."""
    if isinstance(entry, dict) and entry.get("name"):
        return str(entry["name"])
    try:
        alone = system.roster_model.model_validate({**document, "entries": [entry]})
        return str(system.validate(alone).entries[0].name)
    except (ValidationError, IndexError, AttributeError, TypeError):
        return "l'entrée"


class Labels:
    """Entry labels of the two documents. The new one's come from `names` (the caller's
    validation of it, in the order of its entries), else from one validation of it, made
    when a label is first asked; the old one's (a removed or renamed entry: at most
    SUMMARY_LINES a summary) one entry at a time."""

    def __init__(
        self,
        system: AnySystem,
        before: dict[str, Any],
        after: dict[str, Any],
        names: Sequence[str] | None,
    ) -> None:
        self.system, self.before, self.after = system, before, after
        self.names: Sequence[str | None] | None = names
        self._old: dict[int, str] = {}

    def _new_names(self) -> Sequence[str | None]:
        if self.names is None:
            try:
                parsed = self.system.roster_model.model_validate(self.after)
                self.names = [entry.name for entry in self.system.validate(parsed).entries]
            except (ValidationError, AttributeError, TypeError):
                self.names = []
        return self.names

    def new(self, index: int) -> str:
        entry = self.after["entries"][index]
        if isinstance(entry, dict) and entry.get("name"):
            return str(entry["name"])
        names = self._new_names()
        if index < len(names) and names[index]:
            return str(names[index])
        return entry_label(self.system, self.after, entry)

    def old(self, index: int) -> str:
        if index not in self._old:
            self._old[index] = entry_label(self.system, self.before, self.before["entries"][index])
        return self._old[index]


def _without(entry: Any, *keys: str) -> Any:
    return {k: v for k, v in entry.items() if k not in keys} if isinstance(entry, dict) else entry


def _key(entry: Any) -> str:
    """What makes two entries of two versions the same entry: its stable id, else all it
    says but its count and name."""
    if isinstance(entry, dict) and isinstance(entry.get("id"), str):
        return "id:" + str(entry["id"])
    return "ref:" + json.dumps(_without(entry, "count", "name"), sort_keys=True, default=str)


def _identity(entry: Any) -> str:
    """A looser sameness, for entries whose definition changed: the unit it names, the book
    unit it was drawn from, or its name."""
    if not isinstance(entry, dict):
        return ""
    source = entry.get("source")
    if isinstance(source, dict) and source.get("unit"):
        return f"source:{source.get('unit')}"
    if entry.get("unit"):
        return f"unit:{entry.get('unit')}"
    return f"name:{entry.get('name') or ''}"


def matched_entries(before: list[Any], after: list[Any]) -> list[tuple[int | None, int | None]]:
    """Pairs (old place, new place) of the same entry in two versions; (i, None) removed,
    (None, j) added. Same entries first (by id or content), then those whose definition
    changed (by unit, book unit or name)."""
    if len(before) == len(after) and all(
        a == b or _without(a, "count", "name") == _without(b, "count", "name")
        for a, b in zip(before, after, strict=True)
    ):
        return [(i, i) for i in range(len(after))]
    pool: dict[str, deque[int]] = defaultdict(deque)
    for i, entry in enumerate(before):
        pool[_key(entry)].append(i)
    pairs: dict[int, int] = {}
    for j, entry in enumerate(after):
        found = pool.get(_key(entry))
        if found:
            pairs[j] = found.popleft()
    taken = set(pairs.values())
    loose: dict[str, deque[int]] = defaultdict(deque)
    for i, entry in enumerate(before):
        if i not in taken:
            loose[_identity(entry)].append(i)
    for j, entry in enumerate(after):
        found = loose.get(_identity(entry)) if j not in pairs else None
        if found:
            pairs[j] = found.popleft()
    taken = set(pairs.values())
    out: list[tuple[int | None, int | None]] = [(pairs.get(j), j) for j in range(len(after))]
    out += [(i, None) for i in range(len(before)) if i not in taken]
    return out


def _book_lines(
    system: AnySystem, before: dict[str, Any], after: dict[str, Any], book: BookVersion
) -> dict[str, str]:
    """« Marine mis à jour depuis le livre « Kessel » v4 », by the new document's path of
    each unit whose book version changed."""
    new = drawn_units(system, after)
    if not new:
        return {}
    old = {(d.unit, d.book) for d in drawn_units(system, before)}
    old_units = {d.unit for d in drawn_units(system, before)}
    out = {}
    for drawn in new:
        if drawn.unit not in old_units or (drawn.unit, drawn.book) in old:
            continue
        found = book(drawn.book)
        where = f"le livre « {found[0]} » v{found[1]}" if found else "son livre"
        out[drawn.path] = where
    return out


def _item_name(document: dict[str, Any], path: str, fallback: str) -> str:
    """The name of the unit at `path` (an entry, or an Infinity trooper of the extras)."""
    head, _, rest = path.partition("[")
    index = int(rest.rstrip("]")) if rest.rstrip("]").isdigit() else -1
    items = document.get("entries") if head == "entries" else document.get("extras", {})
    if head != "entries" and isinstance(items, dict):
        items = items.get(head.removeprefix("extras."))
    if isinstance(items, list) and 0 <= index < len(items) and isinstance(items[index], dict):
        return str(items[index].get("name") or fallback)
    return fallback


def _head_lines(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    lines = []
    if (before.get("name") or "") != (after.get("name") or ""):
        lines.append(f"Nom : « {before.get('name') or ''} » → « {after.get('name') or ''} »")
    if before.get("points_limit") != after.get("points_limit"):

        def shown(limit: Any) -> str:
            return "sans limite" if limit is None else f"{limit} points"

        lines.append(
            f"Format : {shown(before.get('points_limit'))} → {shown(after.get('points_limit'))}"
        )
    return lines


def changes(
    system: AnySystem,
    before: dict[str, Any],
    after: dict[str, Any],
    *,
    names: Sequence[str] | None = None,
    book: BookVersion = lambda _code: None,
) -> Change:
    """What changed from `before` to `after`, as a save's summary (at most SUMMARY_LINES
    lines: past them, changes are counted, their names not asked)."""
    labels = Labels(system, before, after, names)
    old, new = list(before.get("entries") or []), list(after.get("entries") or [])
    books = _book_lines(system, before, after, book)
    said = Said(_head_lines(before, after))
    counts: dict[str, list[Any]] = {}
    moved = False
    for i, j in matched_entries(old, new):
        if j is None and i is not None:
            said.add("{} retiré", labels.old, i)
            continue
        if i is None and j is not None:
            count = new[j].get("count", 1)
            said.add("{} ajouté" + (f" (× {count})" if count != 1 else ""), labels.new, j)
            continue
        assert i is not None and j is not None
        a, b = old[i], new[j]
        moved = moved or i != j
        if a == b:
            continue
        if a.get("count") != b.get("count"):
            counts[str(j)] = [labels.new(j), a.get("count"), b.get("count")]
        if (a.get("name") or None) != (b.get("name") or None):
            said.add("{} renommé « " + labels.new(j) + " »", labels.old, i)
        if _without(a, "count", "name") != _without(b, "count", "name"):
            where = books.pop(f"entries[{j}]", None)
            done = f"mis à jour depuis {where}" if where else "modifié"
            said.add("{} " + done, labels.new, j)
    for path, where in books.items():
        said.add("{} mis à jour depuis " + where, lambda p: _item_name(after, p, "Unité"), path)
    if before.get("extras") != after.get("extras") and not books:
        said.add("Options de la liste modifiées")
    if moved and not said.any and not counts:
        said.add("Ordre des combattants changé")
    lines = count_lines(counts) + said.lines
    hidden = said.hidden + max(0, len(lines) - SUMMARY_LINES)
    if hidden:
        kept = lines[: SUMMARY_LINES - 1]
        lines = [*kept, f"… et {len(lines) + said.hidden - len(kept)} autres changements"]
    return Change(lines or [UNCHANGED], counts if counts and not said.any else None)


class Said:
    """A summary's lines other than counts: past SUMMARY_LINES, counted without being
    written (their labels may each cost a validation)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.hidden = 0

    @property
    def any(self) -> bool:
        return bool(self.lines) or self.hidden > 0

    def add(self, line: str, label: Callable[[Any], str] | None = None, at: Any = None) -> None:
        """`line`, its `{}` the label of the entry `at` (asked only when the line is
        written)."""
        if len(self.lines) >= SUMMARY_LINES:
            self.hidden += 1
        else:
            self.lines.append(line.format(label(at)) if label is not None else line)


def points_of(card: dict[str, Any] | None) -> int | None:
    """The points a list's card says it spends (None: a system without points)."""
    for budget in (card or {}).get("budgets") or []:
        if isinstance(budget, dict) and budget.get("id") == "points":
            used = budget.get("used")
            return int(used) if isinstance(used, int | float) else None
    return None


def book_version(session: Session) -> BookVersion:
    """The name and version number of the published book version a code names."""

    def found(code: str) -> tuple[str, int] | None:
        share = book_store.get_book_share(session=session, code=code)
        return None if share is None else (str(share.snapshot.get("name", "")), share.version)

    return found
