"""What the roster editor's form says: the document it describes once its action (add,
remove, undo) is applied, and which summary lines each row shows."""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from fastapi import Request, Response
from sqlmodel import Session
from starlette.datastructures import FormData

from app.store.models import Roster
from app.systems.base import AnySystem, RosterSummary, SummaryLine
from app.systems.inputs import is_digits
from app.web.forms import int_or_raw, json_object


@dataclass(frozen=True)
class BookPick:
    """An army book's unit going into a list: the unit (a BookUnit), the code of the book's
    published version it is copied from, and the list chosen (None: a new one)."""

    unit: Any
    code: str
    chosen: Roster | None


class SystemForms(Protocol):
    """The form fields a system adds to the roster editor (its `SystemPages` subclass, in
    app/systems/<id>/web.py)."""

    system_id: str

    @property
    def labels(self) -> Mapping[str, str]: ...

    @property
    def creator(self) -> bool: ...

    @property
    def entry_bounds(self) -> Mapping[str, tuple[int, int]]: ...

    def context(self) -> dict[str, Any]: ...

    def reopened(self, entry: dict[str, Any]) -> dict[str, Any] | None: ...

    def entry_from_form(
        self, form: FormData, index: int, entry: dict[str, Any]
    ) -> dict[str, Any]: ...

    def extras_from_form(self, form: FormData) -> dict[str, Any]: ...

    def new_entry(self, form: FormData) -> dict[str, Any] | None: ...

    def add_refusal(self, form: FormData) -> dict[str, str]: ...

    def add_book_unit(
        self, request: Request, session: Session, form: FormData, pick: BookPick
    ) -> Response: ...


def entry_ref(entry: dict[str, Any]) -> str:
    """A row's entry without what the row's own fields say, in canonical JSON: the same text
    whether the entry was read from the database (PostgreSQL's JSONB orders keys its own
    way) or is the document just written."""
    return json.dumps(
        {k: v for k, v in entry.items() if k not in ("count", "name")},
        ensure_ascii=False,
        sort_keys=True,
    )


def parsed_entry(text: str) -> dict[str, Any]:
    """An entry sent back as JSON by the page (a row's ref, a removed entry to put back);
    {} for a crafted text (too deep, a huge integer, not an object...): the model then
    refuses the entry."""
    return json_object(text) or {}


@dataclass
class Refused:
    """The row fields the form refused (out of the system's `entry_bounds`): the message
    beside each field, keyed as field_errors keys them, and what was typed in it."""

    errors: dict[str, str] = field(default_factory=dict)
    typed: dict[str, str] = field(default_factory=dict)


def refused_fields(form: FormData, index: int, forms: SystemForms) -> Refused:
    """A row's own whole-number fields that are not whole numbers within their bounds."""
    refused = Refused()
    for name, (low, high) in forms.entry_bounds.items():
        raw = form.get(f"entry-{index}-{name}")
        value = int_or_raw(raw)
        if value is None or (isinstance(value, int) and low <= value <= high):
            continue
        label = forms.labels.get(name, name)
        refused.errors[f"entries.{index}.{name}"] = f"{label} : nombre entier entre {low} et {high}"
        refused.typed[f"entry-{index}-{name}"] = str(raw)[:40]
    return refused


@dataclass
class Removed:
    """The entry "Retirer" took out of the list, and where it stood (for "Annuler")."""

    index: int
    entry: dict[str, Any]


# The removals « Annuler » can still undo, one after the other (issue 26): each carried by
# the flash as an (index, entry) pair of hidden fields, the latest last. Bounded where they
# enter.
UNDO_DEPTH = 20


def undo_stack(form: FormData) -> list[tuple[str, str]]:
    """The removals the page's flash still offers to undo, as (index, entry JSON), the
    latest last; pairs whose index is not a number are dropped."""
    indexes = [str(v) for v in form.getlist("undo-index")][-UNDO_DEPTH:]
    entries = [str(v) for v in form.getlist("undo-entry")][-UNDO_DEPTH:]
    if len(indexes) != len(entries):
        return []
    return [(i[:6], e) for i, e in zip(indexes, entries, strict=True) if is_digits(i)]


def document_from_form(
    form: FormData, system: AnySystem, forms: SystemForms
) -> tuple[dict[str, Any], Removed | None, Refused]:
    """The roster document the editor form describes, with its add/remove/undo action
    applied, the entry a removal took out, and the row fields refused (their rows keep
    their stored values: the page shows them as typed, with the reason)."""
    entries = []
    index = 0
    refused = Refused()
    while (ref := form.get(f"entry-{index}-ref")) is not None:
        entry = parsed_entry(str(ref))
        entry["count"] = int_or_raw(form.get(f"entry-{index}-count"))
        entry["name"] = str(form.get(f"entry-{index}-name") or "").strip() or None
        row = refused_fields(form, index, forms)
        if row.errors:
            refused.errors |= row.errors
            refused.typed |= row.typed
        else:
            entry = forms.entry_from_form(form, index, entry)
        entries.append(entry)
        index += 1
    action = str(form.get("action") or "")
    position = action.removeprefix("remove:")
    removed = None
    if action.startswith("remove:") and is_digits(position) and int(position[:6]) < len(entries):
        removed = Removed(int(position), entries.pop(int(position)))
    if action == "undo" and (stack := undo_stack(form)):
        # "Annuler" after "Retirer": the latest entry removed goes back where it stood.
        undo_at, undone = stack[-1]
        entries.insert(min(int(undo_at), len(entries)), parsed_entry(undone))
    add_refused = forms.add_refusal(form) if action == "add" else {}
    if add_refused:
        # The add panel's values cannot make an entry of this list: nothing is added, the
        # panel says why (« add » is its message, « add.<field> » marks the field).
        refused.errors |= add_refused
    elif action == "add" and (new := forms.new_entry(form)) is not None:
        count = int_or_raw(form.get("add-count"))
        entries.append({"count": 1, **new} if count is None else {**new, "count": count})
    return (
        {
            "system": system.id,
            "name": str(form.get("name") or "").strip(),
            "points_limit": int_or_raw(form.get("points_limit")),
            "entries": entries,
            "extras": forms.extras_from_form(form),
        },
        removed,
        refused,
    )


def lines_per_entry(entries: int, summary: RosterSummary | None) -> list[list[SummaryLine]]:
    """The summary lines of each entry (a unit may show as its troopers, then its
    leader and specialists), by the entry index each line carries."""
    runs: list[list[SummaryLine]] = [[] for _ in range(entries)]
    for line in summary.lines if summary is not None else []:
        if line.entry is not None and 0 <= line.entry < entries:
            runs[line.entry].append(line)
    return runs
